/// What `--shard` asks for: a fixed shard (`3/8`), or the index (and count) taken from the
/// job-array engine running the task (`auto`, `auto/N`).
public enum ShardRequest: Hashable, Sendable, CustomStringConvertible {
    /// `--shard K/N`.
    case fixed(Shard)
    /// `--shard auto` (count nil) or `--shard auto/N`.
    case auto(count: Int?)

    /// Parses the option's text.
    /// - Throws: `ShardError.invalid`.
    public init(parsing text: String) throws(ShardError) {
        if text == "auto" {
            self = .auto(count: nil)
        } else if text.hasPrefix("auto/") {
            guard let n = Int(text.dropFirst(5)), n >= 1, n <= Shard.maxCount else {
                throw .invalid(text: text, reason: "auto/N needs a count N of 1-\(Shard.maxCount)", option: "--shard")
            }
            self = .auto(count: n)
        } else {
            self = .fixed(try Shard(parsing: text))
        }
    }

    public var description: String {
        switch self {
        case .fixed(let s): return s.description
        case .auto(let n): return n.map { "auto/\($0)" } ?? "auto"
        }
    }

    /// The shard to run, and in words where it came from (nil for a fixed one).
    /// - Parameter environment: the process environment (a dictionary, so tests pass their own).
    /// - Throws: `ShardError` when no engine is found or its variables make no sense.
    public func resolve(environment: [String: String]) throws(ShardError) -> (shard: Shard, source: String?) {
        switch self {
        case .fixed(let s): return (s, nil)
        case .auto(let count):
            let found = try ShardEngine.detect(environment: environment, count: count)
            return (found.shard, found.source)
        }
    }
}
