import ArgumentParser
import ForceZoomCore

/// Where a one-image command writes, and whether it prints its geometry: `-o` and `--json`,
/// shared by fit, frame and transform (crop and animate write several files and declare
/// their own `-o` pattern).
struct OutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Output \(FormatNames.rendered) path, - for stdout. Default: <stem>.<command>.png here.", valueName: "path"))
    var output: String?

    @Flag(name: .long, help: "Print the geometry as JSON.")
    var json = false

    func validate() throws {
        try Outputs.checkNotEmpty(output, "-o")
        if output == "-" && json { throw ValidationError("-o - writes the \(FormatNames.rendered) to stdout; --json cannot share it") }
    }

    /// The output path: -o, or `<stem>.<suffix>.png` in the current folder.
    func path(input: String, suffix: String) -> String {
        output ?? "\(input == "-" ? "stdin" : FileSystem.stem(input)).\(suffix).png"
    }
}
