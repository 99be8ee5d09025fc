import FZCodecs
import FZFormat
import FZGainMap
import FZImage
import FZMetadata
import FZRender
import FZSystem
import Geometry

/// `forcezoom fit`: the image aspect-fit (or filled) into a device screen for an
/// orientation, turned into the portrait canvas, pins drawn, written and shown.
public struct FitOperation {
    public var input: String
    public var screen: PixelSize
    public var orientation: DeviceOrientation?
    public var mode: FitGeometry.Mode
    public var background: Color
    public var filter: ResampleFilter
    public var settings: RenderSettings
    public var target: OutputTarget
    public var markers = MarkerSource()
    public var json = false
    public var display: InlineDisplay?
    /// `--at` (with fill): the place kept in the middle (`FitGeometry.focus`).
    public var place: Where?
    /// `--animated`: an animated input's every frame fitted into an animated WebP or APNG
    /// (`FitOperation+Animated`); a still input is fitted as ever.
    public var animated = false

    /// - Parameter orientation: nil for auto (the one in which the image covers more).
    public init(
        input: String, screen: PixelSize, orientation: DeviceOrientation?, mode: FitGeometry.Mode, background: Color,
        filter: ResampleFilter, settings: RenderSettings, target: OutputTarget
    ) {
        self.input = input
        self.screen = screen
        self.orientation = orientation
        self.mode = mode
        self.background = background
        self.filter = filter
        self.settings = settings
        self.target = target
    }

    public func run(_ report: Report) throws {
        var reader = try ImageReader(path: input, options: settings.decode)
        let markers = try markers.load()
        let image = reader.header.uprightSize
        let chosen = orientation ?? FitGeometry.automatic(image: image, screen: screen)
        var g = FitGeometry(image: image, screen: screen, orientation: chosen, mode: mode)
        var placement: Placement?
        if let place {
            let shown = g.visibleImageRect
            let (found, consumed) = try AnimationJob.resolve(
                place, reader, box: (shown.width, shown.height), warnings: settings.warnings)
            if consumed { reader = try reader.reopened() }
            g = FitGeometry(image: image, screen: screen, orientation: chosen, mode: mode, focus: found.point)
            placement = found
        }
        if animated, try runAnimated(reader, g, markers: markers, placement: placement, report) { return }
        var scaled: Image
        (scaled, _) = try FitRenderer.pipeline(for: g, filter: filter).run(reader)
        try settings.convert(&scaled, from: reader.header.color, path: reader.path)
        let carried = settings.carry(reader.header.color, path: reader.path)
        let inks = DrawingColors(output: carried)
        let canvas = FitRenderer.render(
            consume scaled, geometry: g, background: inks.map(background),
            pins: PinLayer(markers, color: inks.map(PinRenderer.color)))
        for w in reader.warnings { settings.warnings.say("\(reader.path): \(w)") }
        var bytes: Int64?
        var gain = GainMapCarry()
        var metadata: CarriedMetadata?
        if target.writes {
            gain = settings.carriedGainMap(reader, format: target.format())
            metadata = settings.carriedMetadata(reader, format: target.format())?.placed(
                Self.imageToCanvas(g), output: canvas.size)
            bytes = try target.write(
                canvas, protecting: [input], color: carried, metadata: metadata, gainMap: gainMap(gain, g))
        }
        let outcome = settings.written(gain, path: reader.path)
        if json {
            report.record(
                Self.record(
                    g, input: reader.path, output: target.writtenPath(0), bytes: bytes, where: placement?.record
                )
                .noting(outcome)
                .noting(motionClip: settings.motionClipDropped(reader), written: bytes != nil)
                .noting(regions: metadata, size: canvas.size, written: target.writes))
        }
        try display?.show([canvas])
    }

    /// The gain map at the canvas's geometry: the visible window scaled to its shown size and
    /// placed in the content bounds as `FitRenderer` places it, then the same quarter turn.
    func gainMap(_ gain: GainMapCarry, _ g: FitGeometry) -> CarriedGainMap? {
        guard let map = gain.map else { return nil }
        let shown = FitRenderer.shownSize(g)
        let v = g.visibleImageRect
        let toContent = AffineTransform.translation(-v.x, -v.y)
            .then(.scale(Double(shown.width) / v.width, Double(shown.height) / v.height))
            .then(.translation(Double(max(0, g.offset.x)), Double(max(0, g.offset.y))))
        var carried = map.carried(imageToOutput: toContent, output: g.bounds, filter: filter)
        carried.image = carried.image.oriented(g.orientation.contentTurn)
        return carried
    }

    /// The map from image pixels to the canvas's: the visible window scaled to its shown size,
    /// placed in the content bounds, then the quarter turn (`FitRenderer.render`). The
    /// regions follow it.
    static func imageToCanvas(_ g: FitGeometry) -> AffineTransform {
        let shown = FitRenderer.shownSize(g)
        let v = g.visibleImageRect
        return AffineTransform.translation(-v.x, -v.y)
            .then(.scale(Double(shown.width) / v.width, Double(shown.height) / v.height))
            .then(.translation(Double(max(0, g.offset.x)), Double(max(0, g.offset.y))))
            .then(g.orientation.contentTurn.uprightTransform(stored: g.bounds))
    }

    /// The --json record: the geometry, and what was written.
    static func record(_ g: FitGeometry, input: String, output: String?, bytes: Int64?, where place: JSON? = nil)
        -> JSON
    {
        JSON.record(
            [
                ("input", .string(input)), ("uprightSize", g.image.json), ("screen", g.screen.json),
                ("orientation", .string(g.orientation.rawValue)), ("mode", .string(g.mode.rawValue)),
                ("contentBounds", g.bounds.json), ("scale", .number(g.scale)), ("scaledSize", g.scaledSize.json),
                ("contentRect", PixelRect(origin: g.offset, size: g.scaledSize).json),
                ("visibleImageRect", g.visibleImageRect.json), ("transform", g.transform.json),
                ("canvasImageRect", g.canvasImageRect.json), ("output", output.map { .string($0) } ?? .null),
                ("bytes", bytes.map { .int($0) } ?? .null),
            ] + (place.map { [("where", $0)] } ?? []))
    }
}
