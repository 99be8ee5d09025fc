import FZCodecs
import FZFormat
import FZImage
import FZMetadata
import FZRender
import FZSystem
import Geometry

/// `forcezoom frame`: the aspect-fit view with the preview box at the touch point, and
/// with `withPeek` the 1:1 peek beside it, written and shown.
public struct FrameOperation {
    public var input: String
    /// The view's size in points (the output's pixels).
    public var view: PixelSize
    /// Where to look: a touch point (image pixels, percent or view points) or a word.
    public var place: Where
    public var side: Int
    /// No --size or --screen: a region's box is sized as `crop` sizes its square (`CropOperation.regionSide`).
    public var sizedToRegion = false
    public var style: BoxStyle
    public var background: Color
    public var withPeek: Bool
    public var settings: RenderSettings
    public var target: OutputTarget
    public var markers = MarkerSource()
    /// Outline the file's regions on the view (`RegionOutline`), numbered as `info` lists them.
    public var outlineRegions = false
    public var json = false
    public var display: InlineDisplay?

    public init(
        input: String, view: PixelSize, place: Where, side: Int, style: BoxStyle, background: Color,
        withPeek: Bool, settings: RenderSettings, target: OutputTarget
    ) {
        self.input = input
        self.view = view
        self.place = place
        self.side = side
        self.style = style
        self.background = background
        self.withPeek = withPeek
        self.settings = settings
        self.target = target
    }

    public func run(_ report: Report) throws {
        var reader = try ImageReader(path: input, options: settings.decode)
        let markers = try markers.load()
        let image = reader.header.uprightSize
        var place = place
        if var touch = place.touch {
            touch.view = view
            place = .point(touch)
        }
        let placement: Placement
        var decoded = false
        let first = reader
        let path = reader.path
        let warnings = settings.warnings
        do {
            placement = try WhereResolver.resolve(
                place, path: reader.path, upright: image,
                box: sizedToRegion ? nil : (Double(side), Double(side)),
                regions: {
                    let r = first.uprightRegions()
                    for w in r.warnings { warnings.say("\(path): \(w)") }
                    return r
                },
                pixels: {
                    let (p, consumed) = try WhereResolver.reducedPixels(first)
                    decoded = consumed
                    return p
                })
        } catch let error as GeometryError { throw ToolFailure(path: input, error) }
        // The reduced decode used the reader: a new one decodes the view.
        if decoded { reader = try reader.reopened() }
        let point = placement.point
        let n =
            placement.area.map { sizedToRegion ? CropOperation.regionSide($0, image: image, zoom: 1) : side } ?? side
        let fit = AspectFit(image: image, view: view)
        let peek = PeekGeometry(image: image, point: point, side: n)
        let carried = settings.carry(reader.header.color, path: reader.path)
        let canvas = try render(reader, fit: fit, peek: peek, markers: markers, inks: DrawingColors(output: carried))
        var gain = GainMapCarry()
        var metadata: CarriedMetadata?
        if target.writes {
            gain = settings.carriedGainMap(reader, format: target.format())
            metadata = settings.carriedMetadata(reader, format: target.format())?.placed(
                Self.imageToView(fit, image: image), output: canvas.size)
            try target.write(
                canvas, protecting: [input], color: carried, metadata: metadata,
                gainMap: gainMap(gain, fit: fit, peek: peek, canvas: canvas.size))
        }
        let outcome = settings.written(gain, path: reader.path)
        if json {
            report.record(
                JSON.record([
                    ("input", .string(reader.path)), ("uprightSize", image.json), ("view", view.json),
                    ("scale", .number(fit.scale)), ("imageRect", fit.imageRect.json),
                    ("point", .object([("x", .int(point.x)), ("y", .int(point.y))])), ("side", .int(n)),
                    ("cropRect", peek.coveredRect.json), ("box", FrameRenderer.boxRect(fit: fit, peek: peek).json),
                    ("where", placement.record),
                    ("output", target.writtenPath(0).map { .string($0) } ?? .null),
                ]).noting(outcome).noting(regions: metadata, size: canvas.size, written: target.writes))
        }
        try display?.show([canvas])
    }

    /// The view, and with `withPeek` the 1:1 peek beside it. The view is decoded reduced
    /// (DCT-scaled) and the peek at 1:1 from its rows only: two decodes of the file, each the
    /// cheapest for its part (a reader decodes once). `inks`: the drawn colours in the
    /// output's colour space.
    private func render(
        _ reader: ImageReader, fit: AspectFit, peek: PeekGeometry, markers: [Marker], inks: DrawingColors
    ) throws -> Image {
        var (scaled, _) = try FrameRenderer.pipeline(for: fit).run(reader)
        try settings.convert(&scaled, from: reader.header.color, path: reader.path)
        var style = style
        style.color = inks.map(self.style.color)
        style.shadowColor = inks.map(self.style.shadowColor)
        let pins = PinLayer(markers, color: inks.map(PinRenderer.color))
        var view = FrameRenderer.render(
            scaled, fit: fit, peek: peek, background: inks.map(background), style: style, pins: pins)
        if outlineRegions {
            let r = reader.uprightRegions()
            // Warned once: the where words warned already when they read them.
            if !place.needsRegions { for w in r.warnings { settings.warnings.say("\(reader.path): \(w)") } }
            RegionOutline.draw(
                r.outlines, on: &view,
                transform: .scale(fit.scale, fit.scale).then(.translation(fit.offsetX, fit.offsetY)),
                color: inks.map(RegionOutline.color))
        }
        guard withPeek else { return view }
        let second = try ImageReader(path: input, options: settings.decode)
        var source = try second.readUpright([peek.coveredRect])[0]
        try settings.convert(&source, from: reader.header.color, path: reader.path)
        var shot = PeekRenderer.render(
            peek, source: source, sourceRect: peek.coveredRect, background: inks.map(background), filter: .nearest)
        pins.draw(on: &shot, transform: .translation(-peek.window.x, -peek.window.y))
        return FrameRenderer.beside(view, shot, gapColor: inks.map(Color(r: 40, g: 40, b: 40)))
    }
}
