/// The formats forcezoom reads and writes, in one place: help texts, error messages, the
/// batch walker's extension list and every command's choice of output format come from
/// here, so none of them can name a format the code does not have.
///
/// Adding a decoder: its file declares `static let registration` (name, extensions,
/// capabilities) next to `sniff`, and one line in `ImageDecoders.all` lists it.
/// Adding an encoder: one `OutputFormat` constant and one entry in `OutputFormat.all`.
public enum FormatRegistry {
    /// What every decoder reads, in the order the sniffer asks them.
    public static var inputs: [InputFormatInfo] { ImageDecoders.all.map { $0.registration } }

    /// The names of the formats forcezoom reads, as a sentence: "PNG, JPEG, WebP, HEIF/HEIC
    /// and AVIF" (`conjunction` "or" for "a PNG, ... or AVIF file").
    public static func inputNames(_ conjunction: String = "and") -> String {
        sentence(inputs.flatMap(\.names), conjunction)
    }

    /// The names of the formats `ImageWriter` encodes: "PNG, JPEG or WebP".
    public static func outputNames(_ conjunction: String = "or") -> String {
        sentence(OutputFormat.all.filter(\.writtenByImageWriter).map(\.name), conjunction)
    }

    /// Every file extension a decoder claims (lower case): names that say "image".
    public static var inputExtensions: Set<String> { Set(inputs.flatMap(\.extensions)) }

    /// "a, b and c".
    public static func sentence(_ words: [String], _ conjunction: String) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
    }
}

/// One readable format as its decoder declares it.
public struct InputFormatInfo: Hashable, Sendable {
    /// What the sniffer reports (`ImageHeader.format`).
    public let format: ImageFormat
    /// The names users know it by (HEIF's decoder reads "HEIF/HEIC" and "AVIF").
    public let names: [String]
    /// File extensions that say this format, lower case, without the dot.
    public let extensions: [String]
    public let capabilities: DecoderCapabilities
}

/// What a decoder can deliver beyond 8-bit pixels of one still image.
public struct DecoderCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// An alpha channel.
    public static let alpha = DecoderCapabilities(rawValue: 1 << 0)
    /// Samples deeper than 8 bits, kept (`ImageReader.readStored16`).
    public static let deepSamples = DecoderCapabilities(rawValue: 1 << 1)
    /// Animations (the first frame, or `DecodeOptions.frame`).
    public static let frames = DecoderCapabilities(rawValue: 1 << 2)
    /// A smaller image stored beside the primary one.
    public static let embeddedThumbnails = DecoderCapabilities(rawValue: 1 << 3)
    /// EXIF (the orientation).
    public static let exif = DecoderCapabilities(rawValue: 1 << 4)
    /// An ICC profile.
    public static let icc = DecoderCapabilities(rawValue: 1 << 5)
}

/// A format forcezoom writes, and the one place an output's format is chosen from its name.
public struct OutputFormat: Hashable, Sendable, CustomStringConvertible {
    /// The format a reader of the output sniffs.
    public let format: ImageFormat
    /// The name in messages and help ("PNG").
    public let name: String
    /// Extensions that ask for it, lower case, the usual one first.
    public let extensions: [String]
    /// The options that shape it, for help texts.
    public let options: [String]
    /// Whether `ImageWriter` encodes it (every command's output); HEIC and AVIF are written
    /// by `fixture` only.
    public let writtenByImageWriter: Bool

    public static let png = OutputFormat(
        format: .png, name: "PNG", extensions: ["png"], options: ["--compression"], writtenByImageWriter: true)
    public static let jpeg = OutputFormat(
        format: .jpeg, name: "JPEG", extensions: ["jpg", "jpeg"], options: ["--quality"], writtenByImageWriter: true)
    public static let webp = OutputFormat(
        format: .webp, name: "WebP", extensions: ["webp"], options: ["--quality", "--lossless"],
        writtenByImageWriter: true)
    public static let heic = OutputFormat(
        format: .heif, name: "HEIC", extensions: ["heic", "heif", "hif"], options: ["--quality", "--lossless"],
        writtenByImageWriter: false)
    public static let avif = OutputFormat(
        format: .heif, name: "AVIF", extensions: ["avif"], options: ["--quality", "--lossless"],
        writtenByImageWriter: false)

    /// Every encoder.
    public static let all: [OutputFormat] = [png, jpeg, webp, heic, avif]

    /// What a rendering command (crop, fit, frame, transform, animate) writes to `path`.
    /// Today PNG whatever the name says: the one place that changes when those commands
    /// learn to write what the extension asks for.
    public static func rendered(toPath path: String) -> OutputFormat { renderedFormat }

    /// What `rendered(toPath:)` gives for every name today.
    public static let renderedFormat = png

    /// "output name must end in .png, .jpg, .jpeg or .webp": the extensions of the formats
    /// `ImageWriter` encodes.
    public static var writableExtensions: [String] { all.filter(\.writtenByImageWriter).flatMap(\.extensions) }

    /// How `ImageWriter` encodes this format; nil for the formats only `fixture` writes.
    /// - Parameters:
    ///   - png: PNG's compression settings.
    ///   - quality: JPEG's and WebP's quality (1-100).
    ///   - lossless: WebP lossless (also at quality 100).
    public func encoding(png: PNGSettings, quality: Int, lossless: Bool) -> OutputEncoding? {
        switch self {
        case .png: return .png(png)
        case .jpeg: return .jpeg(quality: quality, subsampling: 420, progressive: false, exif: nil)
        case .webp: return .webp(quality: quality, lossless: lossless || quality == 100, exif: nil)
        default: return nil
        }
    }

    public var description: String { name }
}

extension OutputFormat {
    /// The encoder that claims `fileExtension` (any case), if any.
    public init?(forExtension fileExtension: String) {
        let ext = fileExtension.lowercased()
        guard let found = Self.all.first(where: { $0.extensions.contains(ext) }) else { return nil }
        self = found
    }

    /// The encoder that claims the extension of `path`, if any: the one place an output's
    /// name is turned into a format.
    public init?(forPath path: String) { self.init(forExtension: FileSystem.fileExtension(path)) }
}
