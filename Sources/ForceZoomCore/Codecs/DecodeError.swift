/// Why an input image could not be read. Each message names the file and says what to do.
public enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened (missing, no permission...): the system's reason.
    case cannotOpen(path: String, reason: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// The file has no bytes.
    case empty(path: String)
    /// A known format forcezoom does not read.
    case unsupportedFormat(path: String, format: String)
    /// Not an image at all (text or unknown bytes).
    case notAnImage(path: String, what: String)
    /// A PNG or JPEG that forcezoom does not handle (12-bit JPEG...).
    case unsupportedVariant(path: String, what: String)
    /// The image has more pixels than the limit.
    case tooManyPixels(path: String, size: PixelSize, limit: Int64)
    /// The file ends before the image data does.
    case truncated(path: String, detail: String)
    /// The data is damaged: the codec's own message.
    case corrupt(path: String, detail: String)
    /// Reading failed (I/O error).
    case readFailed(path: String, reason: String)

    public var path: String {
        switch self {
        case .cannotOpen(let p, _), .isDirectory(let p), .empty(let p), .unsupportedFormat(let p, _),
             .notAnImage(let p, _), .unsupportedVariant(let p, _), .tooManyPixels(let p, _, _),
             .truncated(let p, _), .corrupt(let p, _), .readFailed(let p, _):
            return p
        }
    }

    /// The reason without the file name.
    public var reason: String {
        switch self {
        case .cannotOpen(_, let reason): return "cannot open: \(reason)"
        case .isDirectory: return "is a directory, not an image file"
        case .empty: return "file is empty (0 bytes)"
        case .unsupportedFormat(_, let format):
            return "\(format) is not supported; forcezoom reads PNG and JPEG (convert it first, e.g. with `vips copy in.x out.png`)"
        case .notAnImage(_, let what): return "not an image (\(what)); forcezoom reads PNG and JPEG"
        case .unsupportedVariant(_, let what): return "unsupported \(what)"
        case .tooManyPixels(_, let size, let limit):
            return "image is \(size) (\(size.area) pixels), over the limit of \(limit); raise it with --max-pixels N (0 = no limit)"
        case .truncated(_, let detail): return "file is truncated (\(detail)); use --lenient to keep what decoded"
        case .corrupt(_, let detail): return "corrupt image data (\(detail)); use --lenient to keep what decoded"
        case .readFailed(_, let reason): return "read failed: \(reason)"
        }
    }

    public var description: String { "\(path): \(reason)" }
}
