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

/// `forcezoom peek`: the ForceZoom interaction in a terminal.
struct Peek: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Peek interactively: move the touch point over the fitted image and see the 1:1 detail beside it.",
        discussion: """
            The alternate screen shows the image fitted with the preview box (as frame draws it) and, beside it, the peek: the pixels crop --at gives for the point with the side and zoom shown (the JSON records them). Arrows or hjkl move the point by one cell's worth of image pixels (shift: ten); a mouse click sets it; + and - zoom the peek (1x, 2x, 4x, 8x); s saves the peek (-o, default <stem>.peek-%d.png); q, Esc or Ctrl-C leave. On leaving, the terminal is restored and each saved peek's crop --json object is printed on standard output, one line each.

            Examples:
              forcezoom peek photo.jpg
              forcezoom peek photo.jpg --at 30%,60% --graphics blocks -o 'detail-%d.png' > saved.jsonl
            """)

    @Argument(help: ArgumentHelp("The image: a \(FormatNames.inputs) path.", valueName: "input"))
    var input: String

    @Option(
        name: .long,
        help: ArgumentHelp("The first touch point, X,Y in pixels or percent (default: the centre).", valueName: "x,y"))
    var at: Point?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where s saves the peek, a pattern with %d (from 1). Default: <stem>.peek-%d.png here.", valueName: "path"))
    var output: String?

    @OptionGroup var graphics: GraphicsFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags

    func validate() throws {
        if input == "-" { throw ValidationError("peek reads its keys from standard input; name the image file") }
        try at?.check("--at")
        try Outputs.checkNotEmpty(output, "-o")
        if let output { _ = try Outputs.pattern(output, "-o", needsCounter: true, example: "peek-%d.png") }
        // The saved peeks' format is the pattern's extension (JPEG flattens onto white).
        if let output, case .failure(let problem) = OutputFormat.chosen(forPath: output) {
            throw ValidationError(problem.description)
        }
        if !TerminalScreen.isTerminal(0) {
            throw ValidationError(
                "peek is interactive: standard input must be a terminal (use crop --show to print one peek)")
        }
    }

    func run() throws {
        let reader = try ImageReader(path: input, options: encode.reading(decode))
        let header = reader.header
        do { try decode.budget.check("the decoded image (peek)", size: header.uprightSize) } catch {
            throw ToolFailure("\(reader.path): \(error)")
        }
        var image = try reader.readImage()  // decoded once: every move crops from it
        try encode.convert(&image, from: header.color, path: reader.path, lenient: decode.lenient)
        let carried = encode.carry(header.color, path: reader.path)
        for w in reader.warnings { Terminal.warning("\(reader.path): \(w)") }
        // Standard output redirected (> saved.jsonl): the screen is drawn on the terminal itself.
        if !TerminalScreen.isTerminal(1) && !TerminalScreen.useControllingTerminal() {
            throw ToolFailure("peek: standard output is no terminal and /dev/tty cannot be opened", exitCode: 2)
        }
        let target = try graphics.target(reserve: 1)
        let window = TerminalScreen.window() ?? TerminalScreen.Window(columns: 80, rows: 24, pixels: nil)
        let cell = target.graphics == .blocks ? PixelSize(width: 1, height: 2) : window.cell(probed: target.cell)
        var screen = PeekScreen(image: image, columns: window.columns, rows: window.rows, cell: cell)
        if let at {
            do { screen.point = try at.touch.resolve(in: header.uprightSize) } catch {
                throw ToolFailure(path: input, error)
            }
        }
        let pattern = try OutputPattern(parsing: output ?? "\(FileSystem.stem(input)).peek-%d.png")
        var saved: [JSON] = []
        var failed = false
        var session = PeekSession(screen: screen, target: target, columns: window.columns, rows: window.rows)
        try session.run { g, peek in
            let path = pattern.path(saved.count + 1)
            do {
                let bytes = try ImageWriter.write(
                    peek, to: path, encoding: OutputChoice(png: encode.png).encoding(for: path), protecting: [input],
                    color: carried)
                saved.append(try cropJSON(g, header: header, output: path, bytes: bytes, shown: reader.path))
                return "saved \(Echo.path(path))"
            } catch {
                failed = true
                return "not saved: \(error)"
            }
        }
        for record in saved { print(record) }
        if failed { throw ToolFailure("\(reader.path): a peek could not be saved (see the status line's message)") }
    }

    /// The record `crop --json` prints for the same point, side and zoom (made by crop itself).
    func cropJSON(_ g: PeekGeometry, header: ImageHeader, output: String, bytes: Int64?, shown: String) throws -> JSON {
        let point = "\(g.point.x),\(g.point.y)"
        let crop = try Crop.parse([input, "--at", point, "--size", "\(g.side)", "--zoom", Echo.number(g.zoom)])
        return crop.geometryJSON(
            g, header: header, requested: Point(argument: point)!, output: output, bytes: bytes, path: shown)
    }
}
