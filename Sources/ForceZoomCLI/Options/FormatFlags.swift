import ArgumentParser
import FZOperations

/// `--format`: what a rendering command's outputs are written in (crop, fit, frame,
/// transform, animate) where the output name's extension does not say (`OutputFormat.chosen`).
/// The encoders' options are `EncoderFlags`', handed to `choice(_:)`.
struct FormatFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The output format where the name does not say it: - for stdout (PNG without --format), or a name without a known extension. Otherwise the extension of the name chooses: \(FormatNames.outputsWithExtensions).",
            valueName: "format"))
    var format: OutputFormat?

    /// The format `path` is written in, or a usage error naming what was typed and the formats there are.
    func check(_ path: String?) throws {
        guard let path else { return }
        if case .failure(let problem) = OutputFormat.chosen(forPath: path, requested: format) {
            throw ValidationError(problem.description)
        }
    }

    /// The core's encoding choice: `settings` (`EncoderFlags.settings`) with their
    /// background, the command's --background, put over white where it is not opaque (what
    /// JPEG flattens onto).
    func choice(_ settings: EncodeSettings) -> OutputChoice {
        var choice = OutputChoice(requested: format, settings: settings)
        choice.background = settings.background.overWhite
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
