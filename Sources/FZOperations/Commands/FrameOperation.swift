import FZCodecs
import FZFormat
import FZImage
import FZRender
import FZSystem
import Geometry

/// `forcezoom frame`: the aspect-fit view with the preview box at the touch point, and
/// with `withPeek` the 1:1 peek beside it, written and shown.
public struct FrameOperation {
    public var input: String
    /// The view's size in points (the output's pixels).
    public var view: PixelSize
    /// The touch point, in image pixels, percent or view points.
    public var touch: TouchPoint
    public var side: Int
    public var style: BoxStyle
    public var background: Color
    public var withPeek: Bool
    public var settings: RenderSettings
    public var target: OutputTarget
    public var markers = MarkerSource()
    public var json = false
    public var display: InlineDisplay?

    public init(
        input: String, view: PixelSize, touch: TouchPoint, side: Int, style: BoxStyle, background: Color,
        withPeek: Bool, settings: RenderSettings, target: OutputTarget
    ) {
        self.input = input
        self.view = view
        self.touch = touch
        self.side = side
        self.style = style
        self.background = background
        self.withPeek = withPeek
        self.settings = settings
        self.target = target
    }

    public func run(_ report: Report) throws {
        let reader = try ImageReader(path: input, options: settings.decode)
        let markers = try markers.load()
        let image = reader.header.uprightSize
        var touch = touch
        touch.view = view
        let point: PixelPoint
        do { point = try touch.resolve(in: image) } catch { throw ToolFailure(path: input, error) }
        let fit = AspectFit(image: image, view: view)
        let peek = PeekGeometry(image: image, point: point, side: side)
        let carried = settings.carry(reader.header.color, path: reader.path)
        let canvas = try render(reader, fit: fit, peek: peek, markers: markers, inks: DrawingColors(output: carried))
        var gain = GainMapCarry()
        if target.writes {
            gain = settings.carriedGainMap(reader, format: target.format())
            try target.write(
                canvas, protecting: [input], color: carried,
                metadata: settings.carriedMetadata(reader, format: target.format()),
                gainMap: gainMap(gain, fit: fit, peek: peek, canvas: canvas.size))
        }
        let outcome = settings.written(gain, path: reader.path)
        if json {
            report.record(
                JSON.record([
                    ("input", .string(reader.path)), ("uprightSize", image.json), ("view", view.json),
                    ("scale", .number(fit.scale)), ("imageRect", fit.imageRect.json),
                    ("point", .object([("x", .int(point.x)), ("y", .int(point.y))])), ("side", .int(side)),
                    ("cropRect", peek.coveredRect.json), ("box", FrameRenderer.boxRect(fit: fit, peek: peek).json),
                    ("output", target.writtenPath(0).map { .string($0) } ?? .null),
                ]).noting(outcome))
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
        let view = FrameRenderer.render(
            scaled, fit: fit, peek: peek, background: inks.map(background), style: style, pins: pins)
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
