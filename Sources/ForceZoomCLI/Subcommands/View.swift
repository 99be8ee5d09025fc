import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom view`: images printed in the terminal, fitted to its window.
struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Print images in the terminal, fitted to its window (kitty, iTerm2, sixel or text blocks).",
        discussion: """
            Each image is shown upright, converted to sRGB through its profile, scaled down with Lanczos to fit the window (never enlarged unless --enlarge), alpha over a checkerboard or --background, followed by a caption line: name, size, format. A file that fails prints its error and the others still show; the exit code is then 1.

            Examples:
              forcezoom view photo.jpg
              forcezoom view *.png --graphics sixel
              forcezoom view logo.png --background white
              forcezoom view portrait.jpg --outline-regions
            """)

    @Argument(help: ArgumentHelp("\(FormatNames.inputs) files, or - to read standard input.", valueName: "file"))
    var files: [String]

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What alpha is shown over: black, white, #RRGGBB (default: a checkerboard).", valueName: "color"))
    var background: ColorArgument?

    @Flag(name: .long, help: "Scale images smaller than the window up to fill it.")
    var enlarge = false

    @Flag(
        name: .long,
        help: "Outline the regions of each file's metadata, each with its number and name (as info lists them)."
    )
    var outlineRegions = false

    @OptionGroup var graphics: GraphicsFlags
    @OptionGroup var decode: DecodeFlags

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file") }
        if files.filter(StandardStream.isNamed).count > 1 {
            throw ValidationError("standard input (-) can be read once")
        }
        try graphics.checkTerminal("view")
    }

    func run() throws {
        var operation = ViewOperation(
            files: files, decode: decode.options, background: background?.color, enlarge: enlarge,
            display: try graphics.display(reserve: 2))
        operation.outlineRegions = outlineRegions
        if operation.run(Report.terminal).failed { throw ExitCode(1) }
    }
}
