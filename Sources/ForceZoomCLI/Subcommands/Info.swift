import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom info`: what a file is, as text or JSON Lines.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Show what image files are: format, size, orientation, colour, coding.",
        discussion: """
            Reads headers only. With --formats (no files): every format forcezoom reads and writes, the library each is opened with and whether it loads here. A bad file prints its error (on stderr, and as an {"file":..,"error":..} record with --json) and the others still print; the exit code is 1 if any file failed, or 75 when every failure was a remote one worth a retry (a busy store, a timeout, a dropped connection).

            Examples:
              forcezoom info photo.jpg
              forcezoom info --json *.png | jq .uprightWidth
              forcezoom info --formats
            """)

    @Argument(help: ArgumentHelp("\(FormatNames.inputs) files, or - to read standard input.", valueName: "file"))
    var files: [String] = []

    @Flag(name: .long, help: "List every format, its library and whether that loads here (no files).")
    var formats = false

    @Flag(name: .long, help: "One JSON object per file (JSON Lines).")
    var json = false

    @OptionGroup var decode: DecodeFlags

    func validate() throws {
        if formats {
            if !files.isEmpty { throw ValidationError("--formats lists the formats; name no files with it") }
            return
        }
        if files.isEmpty { throw ValidationError("name at least one file, or give --formats") }
        if files.filter(StandardStream.isNamed).count > 1 {
            throw ValidationError("standard input (-) can be read once")
        }
    }

    func run() throws {
        if formats { return FormatsReport().run(Report.terminal, json: json) }
        let outcome = InfoOperation(files: files, decode: decode.options, json: json).run(Report.terminal)
        if outcome.failed { throw ExitCode(outcome.exitCode) }
    }
}
