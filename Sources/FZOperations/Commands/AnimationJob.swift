import FZCodecs
import FZFormat
import FZImage
import FZRender
import FZSystem
import Geometry

/// `forcezoom animate` as a value: the frames' geometry (worked out by the command line
/// from its options), what to draw on them and where to write them; `run` decodes,
/// renders every frame on every core and writes the sequence, the APNG and the contact
/// sheet (as `Thumbnailer` is for thumb), so the command line only parses and reports.
public struct AnimationJob {
    public var input: String
    /// The input's bytes when it is standard input (read once by the command line: the
    /// last frame is decoded again as `fit` decodes it).
    public var stdin: [UInt8]?
    public var settings: RenderSettings
    public var screen: PixelSize
    public var frames: [ZoomAnimation.Frame] = []
    /// The pins' size in each frame (`PinScaleRange.pinSizes`).
    public var pinSizes: [Double] = []
    public var markers: [Marker] = []
    public var background: Color
    /// Whether frames are clipped to the view (not for --bounce).
    public var clip = true
    /// `--overlay`: the picture's path, where it sits on the screen and how it fades.
    public var overlay: (path: String, origin: PixelPoint, fade: Overlay.Fade)?
    /// Where the frames go (-o: a numbered series, the format and encoding each name gets;
    /// nowhere without -o), and the path of each frame it names once their number is known.
    public var target = OutputTarget(.none)
    public var framePaths: [String] = []
    public var apng: String?
    public var contactSheet: String?
    /// Called with the contact sheet when it is made (`--show`); it is made for this alone
    /// when no --contact-sheet is written.
    public var showSheet: ((Image) throws -> Void)?
    /// The APNG's rate when there is a single frame.
    public var fps: Double
    public var threads: Int
    /// `--at`: the place the fill keeps in the middle (`ZoomAnimation.focus`), found in
    /// `perform`, and its `"where"` record for every frame's JSON line.
    public var place: Where?
    public var placement: JSON?

    public init(
        input: String, settings: RenderSettings, screen: PixelSize, background: Color, fps: Double, threads: Int
    ) {
        self.input = input
        self.settings = settings
        self.screen = screen
        self.background = background
        self.fps = fps
        self.threads = threads
    }

    /// A reader of the input (standard input's bytes when they were read).
    public func openReader() throws(DecodeError) -> ImageReader {
        if let stdin { return try ImageReader(bytes: stdin, name: StandardStream.inputLabel, options: settings.decode) }
        return try ImageReader(path: input, options: settings.decode)
    }

    /// Renders and writes every output; `reader` is the input's, opened by `openReader`.
    public func run(_ reader: ImageReader) throws {
        // What forcezoom composites over the image is sRGB: converted into the output's
        // profile when the output keeps one (the overlay first to sRGB from its own).
        let color = settings.carry(reader.header.color, path: reader.path)
        let inks = DrawingColors(output: color)
        var overlayView: Overlay?
        if let overlay {
            overlayView = Overlay(
                image: try overlayPicture(overlay.path, inks: inks), origin: overlay.origin, fade: overlay.fade)
        }
        let bg = inks.map(background)
        let fitted = try fittedFrames(reader, background: bg)
        let source = try decodeMoving(reader)
        for w in reader.warnings { settings.warnings.say("\(reader.path): \(w)") }
        if case .numbered(let pattern) = target.place {
            // The sequence's folder, made before any work (as thumb --out does).
            let dir = FileSystem.directory(of: framePaths.first ?? pattern.path(1))
            do { try FileSystem.makeDirectories(dir) } catch {
                throw ToolFailure("\(dir): cannot create the output folder: \(error)")
            }
        }
        // One pixel format for every frame (an APNG has one), whichever path drew it.
        var target = source.format.union(bg.minimalFormat)
        for f in fitted.values { target = target.union(f.format) }
        if !markers.isEmpty || overlayView != nil { target = target.withColor }
        let scene = Scene(
            frames: frames, source: source, imageSize: reader.header.uprightSize, screen: screen, background: bg,
            clip: clip,
            markers: markers, pinSizes: pinSizes, pinColor: inks.map(PinRenderer.color), fitted: fitted,
            overlay: overlayView,
            format: target)
        // Frame files carry the input's metadata (the APNG and the contact sheet, pictures
        // of many moments, do not).
        let metadata = framePaths.first.flatMap { settings.carriedMetadata(reader, output: $0)?.resolved(for: screen) }
        // So do their gain maps (JPEG frames: Ultra HDR), each through its frame's transform.
        let gain = framePaths.first.map { settings.carriedGainMap(reader, format: settings.output.format(for: $0)) }
        try write(scene, color: color, metadata: metadata, gainMap: gain?.map)
    }

    /// The `--overlay` picture in the output's colour space: from its own profile to sRGB (a
    /// profile that cannot be used: taken as sRGB, with a warning), then as `inks` maps
    /// forcezoom's own colours.
    private func overlayPicture(_ path: String, inks: DrawingColors) throws -> Image {
        let reader = try ImageReader(path: path, options: settings.decode)
        var picture = try reader.readImage()
        do {
            try SRGBConverter(color: reader.header.color, format: picture.format, path: path)?.convert(&picture)
        } catch {
            let reason: String
            switch error {
            case .unusableProfile(_, let r), .cmykProfile(_, let r): reason = r
            }
            settings.warnings.once("\(path): the overlay's ICC profile cannot be used (\(reason)); it is taken as sRGB")
        }
        inks.convert(&picture)
        return picture
    }

    /// Frames at rest in a fullscreen fit are `fit`'s own output: decoded and rendered as
    /// `fit` does (one more decode per distinct fit, at the fit's size).
    private func fittedFrames(_ reader: ImageReader, background: Color) throws -> [DeviceOrientation: Image] {
        var fitted: [DeviceOrientation: Image] = [:]
        for f in frames {
            guard let g = f.fit, fitted[g.orientation] == nil else { continue }
            var (scaled, _) = try FitRenderer.pipeline(for: g).run(try openReader())
            try settings.convert(&scaled, from: reader.header.color, path: reader.path)
            fitted[g.orientation] = FitRenderer.render(scaled, geometry: g, background: background)
        }
        return fitted
    }

    /// The image for every other frame: decoded once, at the largest scale any of them
    /// shows (DCT-scaled for JPEGs).
    private func decodeMoving(_ reader: ImageReader) throws -> Image {
        let image = reader.header.uprightSize
        let moving = frames.filter { $0.fit == nil }
        let largest = min(1, moving.map(\.scale).max() ?? 0.01)
        let decodeSize = PixelSize(
            width: max(1, Int((Double(image.width) * largest).rounded(.up))),
            height: max(1, Int((Double(image.height) * largest).rounded(.up))))
        var source = try reader.readResampled(to: decodeSize, filter: .lanczos).0
        try settings.convert(&source, from: reader.header.color, path: reader.path)
        return source
    }
}
