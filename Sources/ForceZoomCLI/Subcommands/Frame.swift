import ArgumentParser
import FZCodecs
import FZCompare
import FZFixtures
import FZImage
import FZOperations
import FZRender
import FZSystem
import FZTerminal
import FZThumbnails
import Geometry

/// `forcezoom frame`: the view on first touch, with the preview box.
struct Frame: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the aspect-fit view with the preview box at the touch point.",
        discussion: """
            The view is the image scaled by s = min(VW/W, VH/H), centred, letterboxed in --background. The box (ForceZoom's white 4-point stroke with a soft dark shadow) marks exactly the region `crop` outputs for the same --at, --view, --size and --screen: side N*s, shifted inside the image as the crop is. --with-peek puts the 1:1 peek beside the view in one image.

            Examples:
              forcezoom frame photo.jpg --view 390x844 --at 195,400 -o frame.png
              forcezoom frame photo.jpg --view 390x844 --at 60%,40% --with-peek -o both.png
            """)

    @Argument(help: ArgumentHelp("The image: a \(FormatNames.inputs) path.", valueName: "input"))
    var input: String

    @Option(name: .long, help: ArgumentHelp("The view size in points (= output pixels).", valueName: "wxh"))
    var view: Size

    @Option(name: .long, help: ArgumentHelp("The touch, in view points (or percent of the view).", valueName: "x,y"))
    var at: Point

    @Option(name: .long, help: ArgumentHelp("The peek's side in image pixels.", valueName: "n"))
    var size: Int?

    @Option(
        name: [.long, .customLong("screen-points")],
        help: ArgumentHelp(
            "The device screen in points (WxH or name); side = min(W,H) points. Default 390x844.", valueName: "wxh|name"
        ))
    var screen: Size?

    @Option(name: .long, help: ArgumentHelp("Box stroke width in points.", valueName: "w"))
    var stroke: Double = 4

    @Option(name: .long, help: ArgumentHelp("Box colour.", valueName: "color"))
    var color: ColorArgument = ColorArgument(.white)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Letterbox colour. A JPEG output, which has no alpha, also flattens transparent pixels onto it (onto white where it is transparent); PNG, WebP, HEIC and AVIF keep them.",
            valueName: "color"))
    var background: ColorArgument = ColorArgument(.black)

    @Flag(name: .long, help: "Put the 1:1 peek beside the view.")
    var withPeek = false

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var meta: MetadataFlags
    @OptionGroup var show: ShowFlags

    func validate() throws {
        try show.check(output: outputOptions.output)
        try view.check("--view")
        try at.check("--at")
        if size != nil && screen != nil { throw ValidationError("--size and --screen both set the side; give one") }
        if let size { try Check.integer(size, "--size", in: 1...Budget.maxSide) }
        try screen?.check("--screen")
        try Check.number(stroke, "--stroke", in: 0...1000, unit: " points")
        // The output: the view, and with --with-peek the peek beside it (16 pixels apart).
        // The peek is checked either way: the box marks it (see `PeekSide.check`).
        let (view, side, withPeek, budget) = (view.points, self.side, self.withPeek, decode.budget)
        try Check.budget { () throws(BudgetError) in try budget.check("the view (--view)", size: view) }
        try PeekSide(size: size, screen: screen).check(budget)
        if withPeek {
            try Check.budget { () throws(BudgetError) in
                try budget.check(
                    "the view with its peek",
                    size: PixelSize(width: view.width + 16 + side, height: max(view.height, side)))
            }
        }
        if input == "-" { throw ValidationError("frame reads its input twice (view and peek); give a file, not -") }
    }

    /// The view, and with --with-peek the 1:1 peek beside it. The view is decoded reduced
    /// (DCT-scaled) and the peek at 1:1 from its rows only: two decodes of the file, each the
    /// cheapest for its part, both here (a reader decodes once). `inks`: the drawn colours in
    /// the output's colour space.
    func render(
        _ reader: ImageReader, fit: AspectFit, peek: PeekGeometry, style given: BoxStyle, markers: [Marker],
        inks: DrawingColors
    ) throws -> Image {
        var (scaled, _) = try FrameRenderer.pipeline(for: fit).run(reader)
        try encode.convert(&scaled, from: reader.header.color, path: reader.path, lenient: decode.lenient)
        var style = given
        style.color = inks.map(given.color)
        style.shadowColor = inks.map(given.shadowColor)
        let pins = PinLayer(markers, color: inks.map(PinRenderer.color))
        let view = FrameRenderer.render(
            scaled, fit: fit, peek: peek, background: inks.map(background.color), style: style, pins: pins)
        guard withPeek else { return view }
        let second = try ImageReader(path: input, options: encode.reading(decode))
        var source = try second.readUpright([peek.coveredRect])[0]
        try encode.convert(&source, from: reader.header.color, path: reader.path, lenient: decode.lenient)
        var shot = PeekRenderer.render(
            peek, source: source, sourceRect: peek.coveredRect, background: inks.map(background.color), filter: .nearest
        )
        pins.draw(on: &shot, transform: .translation(-peek.window.x, -peek.window.y))
        let gap = 16
        var both = Image(
            width: view.width + gap + shot.width, height: max(view.height, shot.height),
            format: view.format.union(shot.format), fill: inks.map(Color(r: 40, g: 40, b: 40)))
        both.blend(view, at: PixelPoint(x: 0, y: 0))
        both.blend(shot, at: PixelPoint(x: view.width + gap, y: (both.height - shot.height) / 2))
        return both
    }

    var side: Int { PeekSide(size: size, screen: screen).side }

    func run() throws {
        let reader: ImageReader
        reader = try ImageReader(path: input, options: encode.reading(decode))
        let markers = try pins.load()
        let image = reader.header.uprightSize
        var touch = at.touch
        touch.view = view.points
        let point: PixelPoint
        do { point = try touch.resolve(in: image) } catch { throw ToolFailure(path: input, error) }
        let fit = AspectFit(image: image, view: view.points)
        let peek = PeekGeometry(image: image, point: point, side: side)
        var style = BoxStyle()
        style.stroke = stroke
        style.color = color.color
        let carried = encode.carry(reader.header.color, path: reader.path)
        let canvas: Image
        canvas = try render(
            reader, fit: fit, peek: peek, style: style, markers: markers, inks: DrawingColors(output: carried))
        let path = outputOptions.path(input: input, suffix: "frame")
        let choice = outputOptions.choice(png: encode.png, background: background.color)
        let writes = show.writes(output: outputOptions.output)
        if writes {
            try ImageWriter.write(
                canvas, to: path, encoding: choice.encoding(for: path), protecting: [input], color: carried,
                background: choice.background,
                metadata: meta.carried(reader, output: path, format: choice.format(for: path).format))
        }
        if outputOptions.json {
            print(
                JSON.record([
                    ("input", .string(reader.path)), ("uprightSize", image.json), ("view", view.points.json),
                    ("scale", .number(fit.scale)), ("imageRect", fit.imageRect.json),
                    ("point", .object([("x", .int(point.x)), ("y", .int(point.y))])), ("side", .int(side)),
                    ("cropRect", peek.coveredRect.json), ("box", FrameRenderer.boxRect(fit: fit, peek: peek).json),
                    ("output", writes ? .string(path) : .null),
                ]))
        }
        try show.display([canvas])
    }
}
