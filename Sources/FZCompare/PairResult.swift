import FZImage
import FZSystem

/// How one comparison of two files ended, as a harness branches on it: the verdict, its
/// exit code, the line for standard error, the `--json` record
/// (docs/json/compare.schema.json) and the difference picture when one was asked for.
/// Every outcome has a record, errors included (`"match":false` with the reason).
public struct PairResult: Sendable {
    /// Why the pair did not match; nil when it did.
    public enum Reason: String, Sendable {
        /// The metric is outside the threshold (exit 1).
        case threshold
        /// The two sizes differ and no cut to the smaller was asked for (exit 3).
        case size
        /// An input is missing, not an image, corrupt, over a limit, or its profile
        /// unusable (exit 2).
        case unreadable
        /// The options cannot be applied (exit 2): SSIM of an image under 11x11.
        case usage
        /// The difference picture could not be written (exit 2: the comparison was not
        /// done as asked).
        case output

        /// The exit code a harness branches on: 1 over the threshold, 3 a size mismatch,
        /// 2 anything that kept the comparison from being made.
        public var exitCode: Int32 {
            switch self {
            case .threshold: return 1
            case .size: return 3
            case .unreadable, .usage, .output: return 2
            }
        }
    }

    /// nil: within the threshold, or no threshold to be outside of.
    public var reason: Reason?
    /// The line for standard error (without the program's prefix); nil when matched.
    public var message: String?
    /// The record's members after `match` and `reason`.
    public var members: [(String, JSON)]
    /// The metric's value as the text output prints it; nil when nothing was measured.
    public var value: String?
    /// The picture of the differences, when asked for and measured.
    public var difference: Image?

    public init(
        reason: Reason?, message: String?, members: [(String, JSON)], value: String? = nil,
        difference: Image? = nil
    ) {
        self.reason = reason
        self.message = message
        self.members = members
        self.value = value
        self.difference = difference
    }

    public var match: Bool { reason == nil }
    public var exitCode: Int32 { reason?.exitCode ?? 0 }

    /// The `--json` record: `schemaVersion`, `match`, `reason`, then the members.
    public var record: JSON {
        JSON.record(
            [("match", .bool(match)), ("reason", reason.map { .string($0.rawValue) } ?? .null)] + members
                + (message.map { [("message", JSON.string($0))] } ?? []))
    }

    /// A failure before anything was measured: its reason, message and what is known.
    public static func failure(_ reason: Reason, _ message: String, _ members: [(String, JSON)]) -> PairResult {
        PairResult(reason: reason, message: message, members: members)
    }

    /// A usage error's record, for a `--json` run whose arguments were refused before any
    /// file was read.
    public static func usage(_ message: String) -> PairResult { failure(.usage, message, []) }

    /// This result after its difference picture could not be written to `file`.
    public func failedOutput(file: String, _ message: String) -> PairResult {
        let kept = members.filter { $0.0 == "a" || $0.0 == "b" }
        return .failure(.output, message, kept + [("file", .string(file))])
    }
}
