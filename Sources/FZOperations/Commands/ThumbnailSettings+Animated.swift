import FZThumbnails

/// `--animated`, `--max-frames`, `--max-duration` (issue 50): what an animated input makes.
extension ThumbnailSettings {
    /// Animated GIF and WebP inputs make animated WebP or APNG thumbnails.
    public var animated: Bool {
        get { thumbnailer.animated }
        set { thumbnailer.animated = newValue }
    }

    /// The most frames an animated thumbnail keeps.
    public var maxFrames: Int {
        get { thumbnailer.maxFrames }
        set { thumbnailer.maxFrames = newValue }
    }

    /// Frames starting at or after this many seconds are dropped.
    public var maxDuration: Double {
        get { Double(thumbnailer.maxDuration) / 1000 }
        set { thumbnailer.maxDuration = Int((newValue * 1000).rounded()) }
    }
}
