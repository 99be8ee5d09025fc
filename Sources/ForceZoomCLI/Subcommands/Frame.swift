import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom frame`: the view on first touch, with the preview box.
struct Frame: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame",
        _superCommandName: ForceZoom.superCommandName,
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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The touch, in view points (or percent of the view), or region:NAME, face, attention, entropy, center (in the image).",
            valueName: "x,y|word"))
    var at: Point

    @Option(name: .long, help: ArgumentHelp("The peek's side in image pixels.", valueName: "n"))
    var size: Int?

    @Option(
        name: [.long, .customLong("screen-points")],
        help: ArgumentHelp(
            "The device screen in points (WxH or name); side = min(W,H) points. Default: the device --view names, else 390x844.",
            valueName: "wxh|name"
        ))
    var screen: Size?

    @Option(name: .long, help: ArgumentHelp("Box stroke width in points.", valueName: "w"))
    var stroke: Double = 4

    @Option(name: .long, help: ArgumentHelp("Box colour.", valueName: "color"))
    var color: ColorArgument = ColorArgument(.white)

    @OptionGroup var fill: BackgroundFlags<FrameBackground>

    @Flag(name: .long, help: "Put the 1:1 peek beside the view.")
    var withPeek = false

    @Flag(
        name: .long,
        help:
            "Outline on the view the regions of the file's metadata, numbered and named as info lists them."
    )
    var outlineRegions = false

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
        try PeekSide(size: size, screen: screen, view: self.view).check(budget)
        if withPeek {
            try Check.budget { () throws(BudgetError) in
                try budget.check(
                    "the view with its peek",
                    size: PixelSize(width: view.width + 16 + side, height: max(view.height, side)))
            }
        }
        if StandardStream.isNamed(input) {
            throw ValidationError("frame reads its input twice (view and peek); give a file, not -")
        }
    }

    var side: Int { PeekSide(size: size, screen: screen, view: view).side }

    func run() throws {
        var style = BoxStyle()
        style.stroke = stroke
        style.color = color.color
        var operation = FrameOperation(
            input: input, view: view.points, place: at.place, side: side, style: style,
            background: fill.background.color,
            withPeek: withPeek, settings: encode.settings(decode, metadata: meta),
            target: outputOptions.target(
                input: input, suffix: "frame", png: encode.png, background: fill.background.color, show: show))
        operation.markers = pins.source
        operation.outlineRegions = outlineRegions
        operation.sizedToRegion = size == nil && screen == nil
        operation.json = outputOptions.json
        operation.display = try show.display()
        try operation.run(Report.terminal)
    }
}
