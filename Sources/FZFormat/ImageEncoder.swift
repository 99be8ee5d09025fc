import FZImage
import FZMetadata
import FZSystem
import Geometry

/// One output format's encoder: what it declares (`registration`: names, extensions, alpha,
/// depth, metadata containers, options) and how it writes an image into an open output.
/// `ImageWriter.encode` dispatches through `OutputFormat.encoder`, so no switch anywhere
/// names the formats. See `ImageEncoders` for adding one.
package protocol ImageEncoder: Sendable {
    /// What this encoder writes, as help texts, messages and `--format` see it.
    static var registration: OutputFormat { get }
    /// Encodes `image` into `request.out` (not committed: `ImageWriter` renames it into place).
    static func encode(_ image: Image, _ request: EncodeRequest) throws(OutputError)
    /// Encodes 16-bit samples, for an encoder whose `registration` says `writes16Bit`
    /// (PNG's own path is `ImageWriter.write(_: Image16, ...)`).
    static func encode16(_ image: Image16, _ request: EncodeRequest) throws(OutputError)
}

extension ImageEncoder {
    package static func encode16(_ image: Image16, _ request: EncodeRequest) throws(OutputError) {
        throw .writeFailed(path: request.out.path, reason: "\(registration.name) is written at 8 bits only")
    }
}

/// What one encode call gets besides the pixels, everything already settled for this output.
package struct EncodeRequest {
    package var out: OutputFile
    package var settings: EncodeSettings
    /// Threads a large PNG may be compressed on (1: serial).
    package var threads: Int
    /// The colour description the output carries, already matched to its pixels.
    package var color: ColorDescription?
    /// What transparent pixels are composited over where the format has no alpha.
    package var background: Color
    /// The EXIF (TIFF bytes) and XMP (XML bytes) written for the image's size.
    package var exif: [UInt8]?
    package var xmp: [UInt8]?
    /// The whole carried metadata, for containers beyond EXIF and XMP (JPEG's IPTC APP13).
    package var metadata: CarriedMetadata?

    package init(
        out: OutputFile, settings: EncodeSettings, threads: Int, color: ColorDescription?, background: Color,
        exif: [UInt8]?, xmp: [UInt8]?, metadata: CarriedMetadata?
    ) {
        self.out = out
        self.settings = settings
        self.threads = threads
        self.color = color
        self.background = background
        self.exif = exif
        self.xmp = xmp
        self.metadata = metadata
    }
}

/// How outputs are encoded, whatever their format: each encoder reads the fields its
/// `options` name and ignores the rest. The defaults are stated here once (and shown in
/// help through `EncoderOption`).
public struct EncodeSettings: Hashable, Sendable {
    /// JPEG's, WebP's, HEIC's and AVIF's quality when none is asked for.
    public static let defaultQuality = 85
    /// Every quality an encoder takes (libjpeg's, libwebp's and libheif's scale).
    public static let qualityRange = 1...100

    /// JPEG, WebP, HEIC and AVIF quality, 1-100.
    public var quality = defaultQuality
    /// WebP, HEIC and AVIF lossless. Quality 100 stays lossy, as cwebp and vips have it:
    /// lossless is asked for by name only.
    public var lossless = false
    /// PNG's compression settings.
    public var png = PNGSettings.default
    /// What transparent pixels are composited over in a format without alpha (JPEG).
    public var background = Color.white

    public init(
        quality: Int = defaultQuality, lossless: Bool = false, png: PNGSettings = .default, background: Color = .white
    ) {
        self.quality = quality
        self.lossless = lossless
        self.png = png
        self.background = background
    }
}

/// An option an encoder takes, as the command line spells it: which formats list it
/// decides where help says it applies and whether `--lossless` asks for anything.
public struct EncoderOption: Hashable, Sendable, CustomStringConvertible {
    /// The flag ("--quality").
    public let flag: String
    /// The default of a valued option (nil for a flag).
    public let defaultValue: Int?
    /// The values a valued option accepts.
    public let range: ClosedRange<Int>?

    /// Lossy quality, 1-100.
    public static let quality = EncoderOption(
        flag: "--quality", defaultValue: EncodeSettings.defaultQuality, range: EncodeSettings.qualityRange)
    /// Lossless instead of lossy.
    public static let lossless = EncoderOption(flag: "--lossless", defaultValue: nil, range: nil)
    /// PNG's compression level (`PNGSettings.compression`).
    public static let compression = EncoderOption(
        flag: "--compression", defaultValue: PNGSettings.defaultCompression, range: 0...9)

    /// The usage error for `value`, nil when it is in range: "--quality must be 1-100, got 0".
    public func problem(_ value: Int) -> String? {
        guard let range, !range.contains(value) else { return nil }
        return "\(flag) must be \(range.lowerBound)-\(range.upperBound), got \(value)"
    }

    public var description: String { flag }
}
