import ArgumentParser
import FZOperations

/// Where a one-image command writes, in what format, and whether it prints its geometry:
/// `-o`, `--format`, `--quality`, `--lossless` and `--json`, shared by fit, frame and
/// transform (crop and animate write several files and declare their own `-o` pattern).
struct OutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Output path, - for stdout; its extension chooses \(FormatNames.rendered). Default: <input stem>.<command>.png here (the --format's extension with --format).",
            valueName: "path"))
    var output: String?

    @OptionGroup var formats: FormatFlags

    @OptionGroup var encoder: EncoderFlags<RenderedEncoderHelp>

    @Flag(name: .long, help: "Print the geometry as JSON.")
    var json = false

    func validate() throws {
        try Outputs.checkNotEmpty(output, "-o")
        if StandardStream.meansStandardOutput(output) && json {
            // -o /dev/stdout too: the JSON lines would land inside the image.
            throw ValidationError("-o \(output ?? "-") writes the image to stdout; --json cannot share it")
        }
        try formats.check(output)
    }

    /// The output path: -o, or `<stem>.<suffix>.png` (or --format's extension) in the current folder.
    func path(input: String, suffix: String) -> String {
        output ?? "\(StandardStream.stem(of: input)).\(suffix).\(formats.defaultExtension)"
    }

    /// The core's encoding choice; `background` is what JPEG flattens alpha onto.
    func choice(png: PNGSettings, background: Color) -> OutputChoice {
        formats.choice(encoder.settings(png: png, background: background))
    }

    /// Where the command writes: -o or its default name, nowhere with --show and no -o.
    func target(input: String, suffix: String, png: PNGSettings, background: Color, show: ShowFlags) -> OutputTarget {
        let choice = choice(png: png, background: background)
        guard show.writes(output: output) else { return OutputTarget(.none, choice: choice) }
        return OutputTarget(.files([path(input: input, suffix: suffix)]), choice: choice)
    }
}
