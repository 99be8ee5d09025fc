import FZCodecs
import FZFormat
import FZImage
import FZSystem
import FZThumbnails
import Geometry

/// The frames of an animated input as `crop --animated` and `fit --animated` take them: each
/// composited on the decoder's canvas (`AnimationSource`), turned upright, converted as a
/// still's pixels are (--icc), and handed on with the delay a browser shows it for. The same
/// limits as `thumb --animated`'s defaults: 1000 frames, 120 s, and
/// `Thumbnailer.animationWorkLimit` composited pixels, past which the rest are dropped with
/// one warning.
enum AnimatedFrames {
    static let maxFrames = 1000
    static let maxMilliseconds = 120_000

    /// Streams `source`'s frames into `body` (upright RGBA, delay in ms); what was kept.
    static func stream(
        _ source: any AnimationSource, _ reader: ImageReader, settings: RenderSettings,
        _ body: (Image, Int) throws -> Void
    ) throws -> Thumbnailer.AnimationSummary {
        let canvas = source.canvasSize
        let orientation = reader.header.orientation
        // The next frame composited on another thread while this one is cut and encoded.
        let source = PrefetchedFrames.wrap(source, threads: settings.decode.threads)
        var kept = 0
        var elapsed = 0
        var stop: String?
        while true {
            stop = stopReason(kept: kept, elapsed: elapsed, canvas: canvas)
            if stop != nil { break }
            let more = try source.next { pixels, stated in
                let delay = AnimationTiming.shownDelay(stated)
                var frame = Image(width: canvas.width, height: canvas.height, format: .rgba, pixels: Array(pixels))
                if orientation != .up { frame = frame.oriented(orientation) }
                try settings.convert(&frame, from: reader.header.color, path: reader.path)
                try body(frame, delay)
                elapsed += delay
            }
            if !more { break }
            kept += 1
        }
        if kept == 0 { throw DecodeError.corrupt(path: reader.path, detail: "the animation has no frame that decodes") }
        if let stop {
            settings.warnings.say(
                "\(reader.path): animation of \(source.frameCount) frames: the first \(kept) are kept (\(stop))")
        }
        return Thumbnailer.AnimationSummary(
            frames: kept, framesRead: kept, framesInInput: source.frameCount, milliseconds: elapsed,
            loop: source.loopCount)
    }

    /// Why no more frames are kept; nil: go on.
    private static func stopReason(kept: Int, elapsed: Int, canvas: PixelSize) -> String? {
        if kept >= maxFrames { return "at most \(maxFrames) frames" }
        if elapsed >= maxMilliseconds { return "at most \(maxMilliseconds / 1000) s" }
        if Int64(kept + 1) * Int64(canvas.area) > Thumbnailer.animationWorkLimit {
            return "the limit of \(Thumbnailer.animationWorkLimit) composited pixels an animation may cost"
        }
        return nil
    }
}

extension JSON {
    /// This record with its animated output's frames, length and loops (`"animation"`, as
    /// thumb's records have it).
    package func noting(animation a: Thumbnailer.AnimationSummary) -> JSON {
        guard case .object(var members) = self else { return self }
        members.append(("animation", a.json))
        return .object(members)
    }
}
