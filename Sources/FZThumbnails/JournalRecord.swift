import FZSystem

/// One line of a `--journal`: what became of one input, written when it finished.
///
/// The file is JSON Lines so that `jq`, a spreadsheet or a shell loop can read it, and so
/// that a line cut short by a crash spoils only itself. `sha256` and `bytes` are the
/// output's, so `--resume` can tell a finished output from one replaced or cut since.
public struct JournalRecord: Hashable, Sendable {
    /// How the input ended.
    public enum Status: String, Sendable {
        /// The output was written; `bytes` and `sha256` describe it.
        case ok
        /// The input failed (`error` says why); a resume does it again.
        case failed
        /// A file of a folder or list that is no image forcezoom reads, passed over
        /// (`reason` says what it is); never done, and a resume passes it over again.
        case skipped
    }

    /// The input path as found (the key `--resume` matches on).
    public let input: String
    /// The output path.
    public let output: String
    public let status: Status
    /// The output's size, for `ok`.
    public let bytes: Int64?
    /// The output's SHA-256 in lowercase hex, for `ok`.
    public let sha256: String?
    /// The shard that did it (`3/8`).
    public let shard: String
    /// Why it failed, for `failed`.
    public let error: String?
    /// What the file is, for `skipped`.
    public let reason: String?

    public init(
        input: String, output: String, status: Status, bytes: Int64?, sha256: String?, shard: String,
        error: String? = nil, reason: String? = nil
    ) {
        self.input = input
        self.output = output
        self.status = status
        self.bytes = bytes
        self.sha256 = sha256
        self.shard = shard
        self.error = error
        self.reason = reason
    }

    /// The line (without its newline). A skipped file has no output (null) and a `reason`;
    /// `ok` and `failed` lines are as they were before skipped files were recorded.
    public var json: JSON {
        let skipped = status == .skipped
        var members: [(String, JSON)] = [
            ("input", .string(input)),
            ("output", skipped ? .null : .string(output)),
            ("status", .string(status.rawValue)),
            ("bytes", bytes.map { .int($0) } ?? .null),
            ("sha256", sha256.map { .string($0) } ?? .null),
            ("shard", .string(shard)),
            ("error", error.map { .string($0) } ?? .null),
        ]
        if skipped { members.append(("reason", .string(reason ?? ""))) }
        return .object(members)
    }

    /// Reads a line back; nil for anything that is not a whole record (a torn line, another
    /// file's text). Only what `json` writes is understood: one flat object of strings,
    /// whole numbers and nulls.
    public init?(line: some StringProtocol) {
        guard let fields = FlatObject.parse(Array(String(line).unicodeScalars)),
            case .text(let input)? = fields["input"], case .text(let s)? = fields["status"],
            let status = Status(rawValue: s), case .text(let shard)? = fields["shard"]
        else { return nil }
        // A skipped file's output is null; every other record names one.
        let output: String
        switch fields["output"] {
        case .text(let o)?: output = o
        case .null? where status == .skipped: output = ""
        default: return nil
        }
        var reason: String?
        if case .text(let r)? = fields["reason"] { reason = r }
        var bytes: Int64?
        var sha256: String?
        var error: String?
        if case .number(let n)? = fields["bytes"] { bytes = n }
        if case .text(let h)? = fields["sha256"] { sha256 = h }
        if case .text(let e)? = fields["error"] { error = e }
        if status == .ok && (bytes == nil || sha256 == nil) { return nil }
        self.init(
            input: input, output: output, status: status, bytes: bytes, sha256: sha256, shard: shard, error: error,
            reason: reason)
    }
}

/// A parser for one flat JSON object (no Foundation: `JSON` only writes).
private enum FlatObject {
    enum Value {
        case text(String)
        case number(Int64)
        case null
        case other
    }

    static func parse(_ s: [Unicode.Scalar]) -> [String: Value]? {
        var i = 0
        func skip() { while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\r" || s[i] == "\n" { i += 1 } }
        func string() -> String? {
            guard i < s.count, s[i] == "\"" else { return nil }
            i += 1
            var out = String.UnicodeScalarView()
            while i < s.count {
                let c = s[i]
                i += 1
                if c == "\"" { return String(out) }
                if c != "\\" {
                    out.append(c)
                    continue
                }
                guard i < s.count else { return nil }
                let e = s[i]
                i += 1
                switch e {
                case "\"", "\\", "/": out.append(e)
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "b": out.append("\u{8}")
                case "f": out.append("\u{C}")
                case "u":
                    guard i + 4 <= s.count, let v = UInt32(String(String.UnicodeScalarView(s[i..<(i + 4)])), radix: 16),
                        let u = Unicode.Scalar(v)
                    else { return nil }
                    out.append(u)
                    i += 4
                default: return nil
                }
            }
            return nil
        }
        func value() -> Value? {
            guard i < s.count else { return nil }
            if s[i] == "\"" { return string().map { .text($0) } }
            var word = ""
            while i < s.count, s[i] != ",", s[i] != "}", s[i] != " " {
                word.unicodeScalars.append(s[i])
                i += 1
            }
            if word == "null" { return .null }
            if let n = Int64(word) { return .number(n) }
            return word == "true" || word == "false" || Double(word) != nil ? .other : nil
        }
        var fields: [String: Value] = [:]
        skip()
        guard i < s.count, s[i] == "{" else { return nil }
        i += 1
        skip()
        if i < s.count, s[i] == "}" {
            i += 1
        } else {
            while true {
                skip()
                guard let key = string() else { return nil }
                skip()
                guard i < s.count, s[i] == ":" else { return nil }
                i += 1
                skip()
                guard let v = value() else { return nil }
                fields[key] = v
                skip()
                guard i < s.count else { return nil }
                if s[i] == "," {
                    i += 1
                    continue
                }
                guard s[i] == "}" else { return nil }
                i += 1
                break
            }
        }
        skip()
        return i == s.count ? fields : nil
    }
}
