import ArgumentParser
import FZOperations

/// `--format` and `--quality`: how a rendering command's outputs are encoded (crop, fit,
/// frame, transform, animate). The format is the output name's extension
/// (`OutputFormat.chosen`); `--lossless` is each command's own (crop's also copies JPEG
/// blocks), handed to `choice(lossless:png:background:)`.
struct FormatFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The output format where the name does not say it: - for stdout (PNG without --format), or a name without a known extension. Otherwise the extension of the name chooses: \(FormatNames.outputsWithExtensions).",
            valueName: "format"))
    var format: OutputFormat?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "JPEG, WebP, HEIC and AVIF quality 1-100 (default 85; 100 stays lossy: see --lossless).", valueName: "q"))
    var quality: Int = 85

    func validate() throws {
        if !(1...100).contains(quality) { throw ValidationError("--quality must be 1-100, got \(quality)") }
    }

    /// The format `path` is written in, or a usage error naming what was typed and the formats there are.
    func check(_ path: String?) throws {
        guard let path else { return }
        if case .failure(let problem) = OutputFormat.chosen(forPath: path, requested: format) {
            throw ValidationError(problem.description)
        }
    }

    /// The core's encoding choice; `background` is the command's --background, put over
    /// white where it is not opaque (what JPEG flattens onto).
    func choice(lossless: Bool, png: PNGSettings, background: Color) -> OutputChoice {
        var choice = OutputChoice(requested: format, quality: quality, lossless: lossless, png: png)
        choice.background = background.overWhite
        return choice
    }

    /// The default output name's extension: --format's, else png.
    var defaultExtension: String { (format ?? OutputFormat.renderedFormat).extensions[0] }
}

/// `--format png|jpeg|webp|heic|avif` (or an extension: jpg).
extension OutputFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(named: argument) }
    public static var allValueStrings: [String] { all.map { $0.name.lowercased() } }
    public var defaultValueDescription: String { name.lowercased() }
}
