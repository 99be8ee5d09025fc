import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom peek`: the ForceZoom interaction in a terminal.
struct Peek: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peek",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Peek interactively: move the touch point over the fitted image and see the 1:1 detail beside it.",
        discussion: """
            The alternate screen shows the image fitted with the preview box (as frame draws it) and, beside it, the peek: the pixels crop --at gives for the point with the side and zoom shown (the JSON records them). Arrows or hjkl move the point by one cell's worth of image pixels (shift: ten); a mouse click sets it; + and - zoom the peek (1x, 2x, 4x, 8x); r or Tab jumps to the next face or named region of the file's metadata (R or Shift-Tab: the one before), the point on its centre, its rectangle outlined in the view and its name in the status line (control characters and escapes taken out); s saves the peek (-o, default <stem>.peek-%d.png) at crop's side: --size, --screen, or crop's default (390, of the default --screen 390x844) whatever the pane's size, so each saved file is what crop --at X,Y with the recorded side and zoom writes (the pane shows it scaled); q, Esc or Ctrl-C leave. On leaving, the terminal is restored and the crop --json object of each saved peek is printed on standard output, one line each. Ctrl-Z stops peek as in a shell; fg brings it back.

            Examples:
              forcezoom peek photo.jpg
              forcezoom peek photo.jpg --screen iphone-15 --zoom 2
              forcezoom peek photo.jpg --at 30%,60% --graphics blocks -o 'detail-%d.png' > saved.jsonl
            """)

    @Argument(help: ArgumentHelp("The image: a \(FormatNames.inputs) path.", valueName: "input"))
    var input: String

    @Option(
        name: .long,
        help: ArgumentHelp("The first touch point, X,Y in pixels or percent (default: the centre).", valueName: "x,y"))
    var at: Point?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The saved peek's side in image pixels, as crop's --size (default: crop's default side, 390).",
            valueName: "n"))
    var size: Int?

    @Option(
        name: [.long, .customLong("screen-points")],
        help: ArgumentHelp(
            "The device screen in points (WxH or a device name); the saved peek's side is min(W,H), as crop's.",
            valueName: "wxh|name"))
    var screen: Size?

    @Option(
        name: .long,
        help: ArgumentHelp("The starting magnification (+ and - step through 1, 2, 4, 8 and it).", valueName: "z"))
    var zoom: Double = 1

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where s saves the peek, a pattern with %d (from 1). Default: <stem>.peek-%d.png here.", valueName: "path"))
    var output: String?

    @OptionGroup var graphics: GraphicsFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags

    func validate() throws {
        if StandardStream.isNamed(input) {
            throw ValidationError("peek reads its keys from standard input; name the image file")
        }
        try at?.check("--at")
        _ = try at?.numbers("--at")
        // crop's sizing checks, so a saved peek is what crop would write for the same options.
        if size != nil && screen != nil { throw ValidationError("--size and --screen both set the side; give one") }
        if let size { try Check.integer(size, "--size", in: 1...Budget.maxSide) }
        try screen?.check("--screen")
        try Check.number(zoom, "--zoom", in: Crop.zoomRange)
        let side = PeekSide(size: size, screen: screen).side
        if Double(side) / zoom > Double(Budget.maxSide) {
            throw ValidationError(
                "--zoom \(Echo.number(zoom)) with side \(side) would show more than \(Budget.maxSide) image pixels a side; give a larger --zoom"
            )
        }
        try PeekSide(size: size, screen: screen).check(decode.budget)
        try Outputs.checkNotEmpty(output, "-o")
        if let output { _ = try Outputs.pattern(output, "-o", needsCounter: true, example: "peek-%d.png") }
        // The saved peeks' format is the pattern's extension (JPEG flattens onto white).
        if let output, case .failure(let problem) = OutputFormat.chosen(forPath: output) {
            throw ValidationError(problem.description)
        }
        if !PeekOperation.hasKeyboard {
            throw ValidationError(
                "peek is interactive: standard input must be a terminal (use crop --show to print one peek)")
        }
    }

    func run() throws {
        let pattern = try OutputPattern(parsing: output ?? "\(FileSystem.stem(input)).peek-%d.png")
        var operation = PeekOperation(
            input: input, start: at?.touch, settings: encode.settings(decode),
            target: OutputTarget(.numbered(pattern), choice: OutputChoice(png: encode.png)),
            display: try graphics.display(reserve: 1))
        // A saved peek is crop's: its side is never the pane's (58 px in a small terminal).
        operation.side = PeekSide(size: size, screen: screen).side
        operation.zoom = zoom
        try operation.run(Report.terminal)
    }
}
