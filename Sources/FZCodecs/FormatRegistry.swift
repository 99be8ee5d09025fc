import FZFormat
import FZHEIF
import FZJPEG
import FZPNG
import FZSystem
import FZWebP

/// The formats forcezoom reads and writes, in one place: help texts, error messages, the
/// batch walker's extension list and every command's choice of output format come from
/// here, so none of them can name a format the code does not have.
///
/// Adding a decoder: its file declares `static let registration` (name, extensions,
/// capabilities) next to `sniff`, and one line in `ImageDecoders.all` lists it.
/// Adding an encoder: one file plus one line in `ImageEncoders.all` (see there).
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
        sentence(OutputFormat.all.map(\.name), conjunction)
    }

    /// Every file extension a decoder claims (lower case): names that say "image".
    public static var inputExtensions: Set<String> { Set(inputs.flatMap(\.extensions)) }

    /// "a, b and c".
    public static func sentence(_ words: [String], _ conjunction: String) -> String {
        FZFormat.sentence(words, conjunction)
    }
}

/// The encoders' formats by name, and the one place an output's name becomes a format.
extension OutputFormat {
    public static var png: OutputFormat { PNGImageEncoder.registration }
    public static var jpeg: OutputFormat { JPEGImageEncoder.registration }
    public static var webp: OutputFormat { WebPImageEncoder.registration }
    public static var heic: OutputFormat { HEICImageEncoder.registration }
    public static var avif: OutputFormat { AVIFImageEncoder.registration }

    /// Every encoder (`ImageEncoders.all`).
    public static let all: [OutputFormat] = ImageEncoders.all.map { $0.registration }

    /// The first encoder that writes files a reader sniffs as `format` (HEIC for HEIF).
    public static func writing(_ format: ImageFormat) -> OutputFormat? { all.first { $0.format == format } }

    /// What standard output gets without `--format`.
    public static var renderedFormat: OutputFormat { png }

    /// The one place an output's name becomes a format (`OutputChoice` and the checks of every
    /// command use it): `requested` (`--format`) when given,
    /// else the one its extension names; standard output ("-") and a name without an
    /// extension (`/dev/stdout`, a FIFO) are PNG unless `requested`. Fails (with a message
    /// naming what the user typed and the formats there are) for an extension no encoder
    /// claims and for a `requested` format that the extension contradicts.
    public static func chosen(
        forPath path: String, requested: OutputFormat? = nil
    ) -> Result<OutputFormat, OutputFormatProblem> {
        if StandardStream.isNamed(path) { return .success(requested ?? renderedFormat) }
        let ext = FileSystem.fileExtension(path)
        if let named = OutputFormat(forExtension: ext) {
            if let requested, requested != named {
                return .failure(.contradicts(path: path, named: named, requested: requested))
            }
            return .success(named)
        }
        if let requested { return .success(requested) }
        return ext.isEmpty ? .success(renderedFormat) : .failure(.unknownExtension(path: path, ext: ext))
    }

    /// ".png, .jpg, .jpeg, .webp, .heic, .heif, .hif or .avif": the extensions of the formats
    /// `ImageWriter` encodes.
    public static var writableExtensions: [String] { all.flatMap(\.extensions) }

    /// "PNG (.png), JPEG (.jpg, .jpeg), ...": every encoder with its extensions, for messages.
    public static var namesWithExtensions: String {
        FormatRegistry.sentence(
            all.map { "\($0.name) (\($0.extensions.map { "." + $0 }.joined(separator: ", ")))" }, "or")
    }

}

extension OutputFormat {
    /// The encoder that claims `fileExtension` (any case), if any.
    public init?(forExtension fileExtension: String) {
        let ext = fileExtension.lowercased()
        guard let found = Self.all.first(where: { $0.extensions.contains(ext) }) else { return nil }
        self = found
    }

    /// The encoder a `--format` value names: a name ("jpeg", "HEIC") or an extension ("jpg").
    public init?(named name: String) {
        let n = name.lowercased()
        let found = Self.all.first { $0.name.lowercased() == n || $0.extensions.contains(n) }
        guard let found else { return nil }
        self = found
    }
}

/// Why an output's name gives no format (exit 2: a usage error, found before any work).
public enum OutputFormatProblem: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// The extension is none an encoder claims.
    case unknownExtension(path: String, ext: String)
    /// `--format` asks for one format and the extension names another.
    case contradicts(path: String, named: OutputFormat, requested: OutputFormat)

    public var exitCode: Int32 { 2 }

    public var description: String {
        switch self {
        case .unknownExtension(let path, let ext):
            return "'\(Echo.value(path))': forcezoom cannot write .\(Echo.value(ext)) files; "
                + "end the name in \(OutputFormat.namesWithExtensions), or give --format"
        case .contradicts(let path, let named, let requested):
            return "--format \(requested.name.lowercased()) but '\(Echo.value(path))' names \(named.name); "
                + "drop --format or change the extension"
        }
    }
}
