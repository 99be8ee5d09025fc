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

/// `forcezoom view`: images printed in the terminal, fitted to its window.
struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print images in the terminal, fitted to its window (kitty, iTerm2, sixel or text blocks).",
        discussion: """
            Each image is shown upright, converted to sRGB through its profile, scaled down with Lanczos to fit the window (never enlarged unless --enlarge), alpha over a checkerboard or --background, followed by a caption line: name, size, format. A file that fails prints its error and the others still show; the exit code is then 1.

            Examples:
              forcezoom view photo.jpg
              forcezoom view *.png --graphics sixel
              forcezoom view logo.png --background white
            """)

    @Argument(help: ArgumentHelp("\(FormatNames.inputs) files (- for standard input).", valueName: "file"))
    var files: [String]

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What alpha is shown over: black, white, #RRGGBB (default: a checkerboard).", valueName: "color"))
    var background: ColorArgument?

    @Flag(name: .long, help: "Scale images smaller than the window up to fill it.")
    var enlarge = false

    @OptionGroup var graphics: GraphicsFlags
    @OptionGroup var decode: DecodeFlags

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read once") }
        try graphics.checkTerminal("view")
    }

    func run() throws {
        let target = try graphics.target(reserve: 2)
        var failed = false
        for file in files {
            do {
                try show(file, target: target)
            } catch {
                failed = true
                Terminal.error("\(error)")
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Decodes `file` straight to its shown size (DCT scaling, then Lanczos) and prints it.
    func show(_ file: String, target: InlineImage.Target) throws {
        let reader = try ImageReader(path: file, options: decode.options)
        let header = reader.header
        let upright = header.uprightSize
        var size = InlineImage.shownSize(upright, limit: target.limit)
        if enlarge, let limit = target.limit, size == upright {
            let s = min(Double(limit.width) / Double(upright.width), Double(limit.height) / Double(upright.height))
            size = PixelSize(
                width: max(1, Int(Double(upright.width) * s)), height: max(1, Int(Double(upright.height) * s)))
        }
        var (image, _) = try ReductionPipeline(target: size, filter: .lanczos, threads: Threads.perImage).run(reader)
        if let warning = try ColorPolicy(mode: .srgb).convert(
            &image, from: header.color, path: reader.path, lenient: true)
        {
            Terminal.warningOnce("\(reader.path): \(warning)")
        }
        for w in reader.warnings { Terminal.warning("\(reader.path): \(w)") }
        var bytes = try InlineImage.encode(image, for: target, background: background?.color)
        bytes += Array("\(Echo.path(file))  \(upright.width)x\(upright.height)  \(header.format.rawValue)\n".utf8)
        if !TerminalScreen.write(bytes) { throw ToolFailure("standard output: the picture could not be written") }
    }
}
