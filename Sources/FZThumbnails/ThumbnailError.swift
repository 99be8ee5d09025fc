import FZCodecs
import FZFormat
import FZImage
import FZS3
import FZSystem
import Geometry

/// Why a thumbnail batch, or one thumbnail in it, cannot be made. Each message names the
/// file (or the option) and says what to do.
public enum ThumbnailError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// A `--size` spec that does not parse (the spec, what is wrong with it).
    case invalidSize(spec: String, reason: String)
    /// A `--size` list of several sizes that is wrong as a list (the list, what is wrong).
    case invalidSizeList(spec: String, reason: String)
    /// A `--name` pattern that does not parse (the pattern, what is wrong with it).
    case invalidPattern(pattern: String, reason: String)
    /// Two or more inputs would be written to one output path.
    case collision(output: String, inputs: [String])
    /// An output path names one of the inputs: forcezoom never overwrites an input.
    case wouldOverwriteInput(input: String, output: String)
    /// The `--journal` file is one of the batch's inputs, its `--from` list or one of its
    /// outputs (the journal, the file, which of them it is).
    case journalIsBatchFile(journal: String, file: String, role: String)
    /// An output would land outside `--out` (a `%d` holding `..`).
    case outsideOutputFolder(input: String, output: String)
    /// An output name whose extension is neither `.png` nor `.jpg`/`.jpeg`.
    case unsupportedOutputFormat(output: String)
    /// The `--from` list cannot be read.
    case cannotReadList(path: String, reason: String)
    /// A folder given as input cannot be listed.
    case cannotListFolder(path: String, reason: String)
    /// The input could not be decoded.
    case decode(DecodeError)
    /// The crop point does not fit the input.
    case geometry(path: String, GeometryError)
    /// `--crop-at` names what the input does not have (a region, faces): the message.
    case place(path: String, String)
    /// The output could not be written.
    case output(OutputError)
    /// A bucket could not be listed, or an output not uploaded (issue 52): S3's words, and
    /// its exit code (75 when a retry later may help).
    case bucket(S3Failure)
    /// The input's ICC profile cannot be used for --icc srgb.
    case color(ColorError)
    /// The thumbnail itself (an enlargement, < or !) would be over the budget.
    case thumbnailTooLarge(path: String, BudgetError)
    /// Stopped by Ctrl-C (or SIGTERM/SIGHUP) before the output was in place.
    case interrupted(path: String)
    /// Not made because the batch stopped first (a full disk, `--max-failures`; the reason).
    case notDone(path: String, because: String)

    /// The file the message is about (the option text for spec and pattern errors).
    public var path: String {
        switch self {
        case .invalidSize(let s, _), .invalidSizeList(let s, _): return "--size \(s)"
        case .invalidPattern(let p, _): return "--name \(p)"
        case .collision(let o, _): return o
        case .journalIsBatchFile(let j, _, _): return "--journal \(j)"
        case .wouldOverwriteInput(_, let o), .outsideOutputFolder(_, let o), .unsupportedOutputFormat(let o): return o
        case .cannotReadList(let p, _), .cannotListFolder(let p, _), .geometry(let p, _), .interrupted(let p),
            .place(let p, _),
            .notDone(let p, _),
            .thumbnailTooLarge(let p, _):
            return p
        case .decode(let e): return e.path
        case .color(.unusableProfile(let p, _)), .color(.cmykProfile(let p, _)): return p
        case .output(let e): return e.path
        case .bucket(let e): return e.url
        }
    }

    /// The reason without the file name.
    public var reason: String {
        switch self {
        case .invalidSize(_, let r):
            return
                "\(r) (write N for the longest side, WxH for a box, Wx or xH for one side; add > to only shrink, < to only enlarge, ! for exactly that size)"
        case .invalidSizeList(_, let r): return r
        case .invalidPattern(_, let r):
            return
                "\(r) (use %s stem, %e extension, %d folder, %i index, %z size, %w width, %h height, %% for a percent sign)"
        case .collision(_, let inputs):
            return
                "\(inputs.joined(separator: ", ")) would \(inputs.count == 2 ? "both" : "all") be written here; add %d (mirror folders), %e or %i to --name"
        case .wouldOverwriteInput(let input, _):
            return
                "would overwrite the input \(input); forcezoom never overwrites an input (choose another --out or --name)"
        case .journalIsBatchFile(_, let file, let role):
            return
                "is \(role) \(file); the journal must be a file of its own, outside the batch's inputs and outputs (nothing was written)"
        case .outsideOutputFolder(let input, _):
            return
                "the folder of \(input) leaves --out through '..'; name inputs below the current folder, or drop %d from --name"
        case .unsupportedOutputFormat:
            let names = OutputFormat.namesWithExtensions
            return "output name must end in \(names) (the extension picks the format; check --name and --format)"
        case .cannotReadList(_, let r): return "cannot read the input list: \(r)"
        case .cannotListFolder(_, let r): return "cannot list the folder: \(r)"
        case .decode(let e): return e.reason
        case .geometry(_, let e): return e.description
        case .place(_, let m): return m
        case .output(let e): return e.reason
        case .bucket(let e):
            let said = [e.code, e.status.map { "HTTP \($0)" }].compactMap { $0 }.joined(separator: ", ")
            return said.isEmpty ? e.message : "\(said): \(e.message)"
        case .thumbnailTooLarge(_, let e): return e.description
        case .color(.unusableProfile(_, let r)):
            return
                "the ICC profile cannot be used (\(r)); use --lenient to take the pixels as sRGB, or --icc keep or --icc strip"
        case .color(.cmykProfile(_, let r)): return "cannot be used as --cmyk-profile: \(r)"
        case .interrupted: return "interrupted before the output was written; nothing was left behind"
        case .notDone(_, let because): return "not done: the batch stopped (\(because))"
        }
    }

    public var description: String { "\(path): \(reason)" }
}

extension ThumbnailError {
    /// A job the batch did not do because it stopped (Ctrl-C, a full disk, --max-failures):
    /// no failure of its input. The summary says it once; it is neither reported per input
    /// nor counted towards --max-failures.
    public var isStop: Bool {
        switch self {
        case .interrupted, .notDone: true
        default: false
        }
    }

    /// A batch whose plan is wrong (a size, a pattern, two inputs on one output) is bad
    /// usage, found before any work: exit 2. An input or output that fails: exit 1.
    public var exitCode: Int32 {
        switch self {
        case .bucket(let e): e.exitCode
        case .invalidSize, .invalidSizeList, .invalidPattern, .collision, .wouldOverwriteInput, .journalIsBatchFile,
            .outsideOutputFolder, .unsupportedOutputFormat:
            2
        case .cannotReadList, .cannotListFolder, .decode, .geometry, .place, .output, .color, .thumbnailTooLarge,
            .interrupted,
            .notDone:
            1
        }
    }

    /// A failure a later run may not meet (a busy or unreachable store or server): a batch
    /// whose every failure is one exits 75, which a scheduler retries (docs/clusters.md).
    public var isTemporary: Bool {
        switch self {
        case .bucket(let e): e.exitCode == S3Failure.temporaryExitCode
        case .decode(.remote(_, _, let retryable)): retryable
        default: false
        }
    }
}
