import ArgumentParser
import FZOperations

/// `--quality` and `--lossless`, declared once for every command that writes images (crop,
/// fit, frame, transform, animate, thumb, fixture). The formats each applies to, the default
/// and the range come from the encoders (`OutputFormat.encoderOptions`, `EncoderOption`);
/// `Help` lets a command say what the flags mean for it (crop's --lossless also copies
/// JPEG blocks; fixture's quality defaults higher) without declaring them again.
struct EncoderFlags<Help: EncoderFlagsHelp>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(Help.qualityHelp, valueName: "q"))
    var quality: Int = Help.defaultQuality

    @Flag(name: .long, help: ArgumentHelp(Help.losslessHelp))
    var lossless = false

    func validate() throws {
        if let problem = EncoderOption.quality.problem(quality) { throw ValidationError(problem) }
    }

    /// The encoders' settings these flags choose, with PNG's `png` and JPEG's `background`.
    func settings(png: PNGSettings, background: Color = .white) -> EncodeSettings {
        EncodeSettings(quality: quality, lossless: lossless, png: png, background: background)
    }
}

/// What `--quality` and `--lossless` say in one command's help (and fixture's own default).
protocol EncoderFlagsHelp {
    static var defaultQuality: Int { get }
    static var qualityHelp: String { get }
    static var losslessHelp: String { get }
}

extension EncoderFlagsHelp {
    static var defaultQuality: Int { EncodeSettings.defaultQuality }
    /// "JPEG, WebP, HEIC and AVIF quality 1-100 (default 85; 100 stays lossy: see --lossless)."
    static var qualityHelp: String {
        "\(FormatNames.taking(.quality)) quality \(FormatNames.range(.quality)) (default \(defaultQuality); 100 stays lossy: see --lossless)."
    }
    /// "WebP, HEIC and AVIF: lossless (PNG always is; JPEG cannot be)."
    static var losslessHelp: String { "\(FormatNames.taking(.lossless)): lossless (PNG always is; JPEG cannot be)." }
}

/// fit, frame and transform (`OutputOptions`).
enum RenderedEncoderHelp: EncoderFlagsHelp {}

/// animate's frames and contact sheet.
enum AnimateEncoderHelp: EncoderFlagsHelp {
    static var losslessHelp: String {
        "\(FormatNames.taking(.lossless)) frames and contact sheet: lossless (PNG always is; JPEG cannot be)."
    }
}

/// crop: --lossless is first a copy of a JPEG's blocks.
enum CropEncoderHelp: EncoderFlagsHelp {
    static var losslessHelp: String {
        "JPEG input: copy the square's DCT blocks into a JPEG (-o x.jpg), bit-exact, widened out to the 8/16-pixel block grid (deliveredRect in --json); EXIF, ICC and the orientation tag copied as they are. With a \(FormatNames.taking(.lossless, "or")) output: encode it lossless."
    }
}

/// thumb.
enum ThumbEncoderHelp: EncoderFlagsHelp {
    static var qualityHelp: String {
        "\(FormatNames.taking(.quality)) quality \(FormatNames.range(.quality)) (100 stays lossy: see --lossless)."
    }
    static var losslessHelp: String {
        "Write \(FormatNames.taking(.lossless)) outputs lossless (--quality is then not used)."
    }
}

/// fixture: reference files, at a higher quality than outputs by default.
enum FixtureEncoderHelp: EncoderFlagsHelp {
    static var defaultQuality: Int { 92 }
    static var qualityHelp: String { "JPEG and lossy WebP quality \(FormatNames.range(.quality))." }
    static var losslessHelp: String {
        "\(FormatNames.taking(.lossless)): lossless; without it, lossy at --quality."
    }
}
