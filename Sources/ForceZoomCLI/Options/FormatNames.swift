import FZOperations

/// Format names for help texts and messages, from the registry (`FormatRegistry`,
/// `OutputFormat`), so no help text lists a stale set of formats.
enum FormatNames {
    /// "PNG, JPEG, WebP, HEIF/HEIC or AVIF".
    static var inputs: String { FormatRegistry.inputNames("or") }
    /// "PNG, JPEG, WebP, HEIF/HEIC and AVIF".
    static var allInputs: String { FormatRegistry.inputNames("and") }
    /// What crop, fit, frame, transform and animate write: "PNG, JPEG, WebP, HEIC or AVIF".
    static var rendered: String { FormatRegistry.sentence(OutputFormat.all.map(\.name), "or") }
    /// "PNG (.png), JPEG (.jpg, .jpeg), ... or AVIF (.avif)".
    static var outputsWithExtensions: String { OutputFormat.namesWithExtensions }
    /// --format's values: "png, jpeg, webp, heic or avif".
    static var optionValues: String { FormatRegistry.sentence(OutputFormat.allValueStrings, "or") }
    /// What fixture writes: "PNG, JPEG, WebP, HEIC or AVIF".
    static var fixtureOutputs: String { FormatRegistry.sentence(OutputFormat.all.map(\.name), "or") }
    /// One extension for each: ".png, .jpg, .webp, .heic or .avif".
    static var fixtureExtensions: String {
        FormatRegistry.sentence(OutputFormat.all.map { ".\($0.extensions[0])" }, "or")
    }
}

extension FormatNames {
    /// "PNG, JPEG, WebP, ...": the formats whose encoders write an ICC profile.
    static var carryingICC: String {
        FormatRegistry.sentence(OutputFormat.all.filter { $0.metadata.icc }.map(\.name), "or")
    }

    /// "PNG, HEIC and AVIF": the formats whose encoders declare an HDR rendition (`--gain-map apply`).
    static var renderingHDR: String {
        FormatRegistry.sentence(OutputFormat.all.filter { $0.hdrRendition != .none }.map(\.name), "and")
    }

    /// "PNG, WebP, HEIC, AVIF and JPEG XL": the formats whose encoders keep alpha.
    static func keepingAlpha(_ conjunction: String = "and") -> String {
        FormatRegistry.sentence(OutputFormat.all.filter(\.keepsAlpha).map(\.name), conjunction)
    }

    /// "JPEG": the formats whose encoders flatten alpha onto the background.
    static func withoutAlpha(_ conjunction: String = "or") -> String {
        FormatRegistry.sentence(OutputFormat.all.filter { !$0.keepsAlpha }.map(\.name), conjunction)
    }

    /// What `--background` means to the formats: "A JPEG output, which has no alpha, also
    /// flattens transparent pixels onto it (onto white where it is transparent); PNG, WebP,
    /// HEIC, AVIF and JPEG XL keep them."
    static var flattening: String {
        "A \(withoutAlpha()) output, which has no alpha, also flattens transparent pixels onto it (onto white where it is transparent); \(keepingAlpha()) keep them."
    }

    /// ".webp, .heic, ...": the usual extension of each format `option` applies to.
    static func extensions(taking option: EncoderOption, _ conjunction: String = "or") -> String {
        FormatRegistry.sentence(
            OutputFormat.all.filter { $0.encoderOptions.contains(option) }.map { ".\($0.extensions[0])" }, conjunction)
    }

    /// The formats an option applies to, as their encoders declare: "JPEG, WebP, HEIC and
    /// AVIF" for --quality.
    static func taking(_ option: EncoderOption, _ conjunction: String = "and") -> String {
        FormatRegistry.sentence(OutputFormat.all.filter { $0.encoderOptions.contains(option) }.map(\.name), conjunction)
    }

    /// A valued option's range: "1-100".
    static func range(_ option: EncoderOption) -> String {
        option.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? ""
    }
}
