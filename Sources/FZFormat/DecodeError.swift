import FZSystem
import Geometry

/// Why an input image could not be read. Each message names the file and says what to do.
public enum DecodeError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened (missing, no permission...): the system's reason.
    case cannotOpen(path: String, reason: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// The file has no bytes.
    case empty(path: String)
    /// A known format forcezoom does not read; `reads` names those it does (the registry's).
    case unsupportedFormat(path: String, format: String, reads: String)
    /// Not an image at all (text or unknown bytes); `reads` as above.
    case notAnImage(path: String, what: String, reads: String)
    /// A file of a supported format in a form forcezoom does not handle (12-bit JPEG...).
    case unsupportedVariant(path: String, what: String)
    /// The image has more pixels than the limit.
    case tooManyPixels(path: String, size: PixelSize, limit: Int64)
    /// Decoding would need more memory (bytes) than the limit allows, as worked out from
    /// the header before anything is allocated.
    case overMemoryLimit(path: String, needed: Int64, limit: Int64)
    /// A progressive JPEG with more scans than the limit: each scan revisits the whole
    /// image, so thousands of tiny scans make a small file take minutes.
    case tooManyScans(path: String, limit: Int)
    /// The file ends inside its header: there is nothing to decode.
    case truncatedHeader(path: String, detail: String)
    /// The header is damaged: the codec's own message.
    case corruptHeader(path: String, detail: String)
    /// The file ends before the image data does.
    case truncated(path: String, detail: String)
    /// The data is damaged: the codec's own message.
    case corrupt(path: String, detail: String)
    /// Reading failed (I/O error).
    case readFailed(path: String, reason: String)
    /// `--frame` asks for a frame the file does not have. `option` is the option as typed
    /// (`--page` or `--frame`, `DecodeOptions.frameOption`); `atLeast` when `frames` is only
    /// what forcezoom reads of a file that has more (a TIFF past its directory limit).
    case noSuchFrame(path: String, frame: Int, frames: Int, option: String = "--frame", atLeast: Bool = false)
    /// The embedded ICC profile cannot be used to convert the pixels (damaged, of another
    /// colour space, or APP2 segments that do not fit together), and the run asked for a
    /// conversion without `--lenient`.
    case unusableProfile(path: String, reason: String)
    /// The format's library cannot be loaded (`FormatLibrary`): only this file fails.
    case missingLibrary(path: String, reason: String)
    /// Truncated or corrupt data (`problem`: that error's words, without its hint) where
    /// `--lenient` was given and still nothing could be kept (`given(lenient:)`).
    case nothingKept(path: String, problem: String)
    /// A URL that could not be read (issue 52, `RemoteFailure`): `retryable` when trying again
    /// later may help (a 503, a timeout), which exit 75 tells a scheduler.
    case remote(path: String, reason: String, retryable: Bool)

    public var path: String {
        switch self {
        case .cannotOpen(let p, _), .isDirectory(let p), .empty(let p), .unsupportedFormat(let p, _, _),
            .notAnImage(let p, _, _), .unsupportedVariant(let p, _), .tooManyPixels(let p, _, _),
            .overMemoryLimit(let p, _, _), .tooManyScans(let p, _), .truncatedHeader(let p, _),
            .corruptHeader(let p, _),
            .truncated(let p, _), .corrupt(let p, _), .readFailed(let p, _), .noSuchFrame(let p, _, _, _, _),
            .unusableProfile(let p, _), .missingLibrary(let p, _), .nothingKept(let p, _), .remote(let p, _, _):
            return p
        }
    }

    /// The reason without the file name.
    public var reason: String {
        switch self {
        case .cannotOpen(_, let reason): return "cannot open: \(reason)"
        case .isDirectory: return "is a directory, not an image file"
        case .empty: return "file is empty (0 bytes)"
        case .unsupportedFormat(_, let format, let reads):
            return
                "\(format) is not supported; forcezoom reads \(reads) (convert it first, e.g. with `vips copy in.x out.png`)"
        case .notAnImage(_, let what, let reads): return "not an image (\(what)); forcezoom reads \(reads)"
        case .unsupportedVariant(_, let what): return "unsupported \(what)"
        case .tooManyPixels(_, let size, let limit):
            return
                "image is \(size) (\(size.area == .max ? "over 9.2e18" : String(size.area)) pixels), over the limit of \(limit); raise it with --max-pixels N (0 = no limit)"
        case .overMemoryLimit(_, let needed, let limit):
            if MemoryLimit.perImage == limit {
                return
                    "decoding would need about \(Self.mebibytes(needed)) MiB, over \(MemoryLimit.describe(limit)); raise that limit"
            }
            return "decoding would need about \(Self.mebibytes(needed)) MiB, over the memory limit of "
                + "\(Self.mebibytes(limit)) MiB; raise it with --max-memory MIB (0 = no limit)"
        case .tooManyScans(_, let limit):
            return "progressive JPEG has more than \(limit) scans, over the scan limit (a scan bomb: real files have "
                + "a few dozen at most); if it is genuine, re-encode it (e.g. jpegtran -progressive)"
        case .truncatedHeader(_, let detail):
            return "file is truncated inside its header (\(detail)); there is nothing to decode, get a complete copy"
        case .corruptHeader(_, let detail): return "corrupt image header (\(detail)); the file cannot be decoded"
        case .truncated, .corrupt: return (problem ?? "") + "; use --lenient to keep what decoded"
        case .nothingKept(_, let problem): return problem + "; nothing decoded to keep, even with --lenient"
        case .readFailed(_, let reason): return "read failed: \(reason)"
        case .missingLibrary(_, let reason), .remote(_, let reason, _): return reason
        case .noSuchFrame(_, let frame, let frames, let option, let atLeast):
            let unit = option == "--page" || atLeast ? "page" : "frame"
            if atLeast {
                return "has at least \(frames) \(unit)s and forcezoom reads the first \(frames); "
                    + "\(option) \(frame) is past them"
            }
            return
                "has \(frames) \(unit)\(frames == 1 ? "" : "s"); \(option) \(frame) is past the last (\(unit)s count from 1)"
        case .unusableProfile(_, let reason):
            return
                "the embedded ICC profile cannot be used (\(reason)); use --lenient to convert without it, or --icc keep"
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// 75 (EX_TEMPFAIL) for a remote failure worth a retry, else 1 (README "Exit codes").
    public var exitCode: Int32 {
        if case .remote(_, _, true) = self { return RemoteFailure.retryExitCode }
        return 1
    }

    /// What a truncated or corrupt file's data is, without the hint to add --lenient; nil
    /// for any other error.
    private var problem: String? {
        switch self {
        case .truncated(_, let detail): "file is truncated (\(detail))"
        case .corrupt(_, let detail): "corrupt image data (\(detail))"
        default: nil
        }
    }

    /// This error as said where --lenient was given (`lenient`): truncated or corrupt data
    /// that still failed says so instead of asking for --lenient (`nothingKept`).
    public func given(lenient: Bool) -> DecodeError {
        guard lenient, let problem else { return self }
        return .nothingKept(path: path, problem: problem)
    }

    /// The warning of a decoder that --lenient let go on past this error: the problem and
    /// that what decoded is kept (`reason` asks for --lenient, given already).
    public var keptReason: String {
        guard let problem else { return reason }
        return problem + "; kept what decoded (--lenient)"
    }

    /// Bytes as whole MiB, rounded up (a limit of 1 byte over shows as one more MiB).
    package static func mebibytes(_ bytes: Int64) -> Int64 { bytes / (1 << 20) + (bytes % (1 << 20) == 0 ? 0 : 1) }
}
