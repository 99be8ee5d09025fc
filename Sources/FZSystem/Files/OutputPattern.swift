/// The path pattern of a command that writes several files (`crop` with several --at,
/// `animate -o`): `%d` is the output's number from 1, with an optional printf width
/// (`%03d` zero-padded, `%3d` space-padded, at most 9), `%%` a percent sign. Anything else
/// after `%` (`%n`, `%s`, `%x`, `%-5d`), a second counter or a lone `%` at the end is an
/// error, so a pattern means one thing and its numbers stay bounded.
public struct OutputPattern: Hashable, Sendable, CustomStringConvertible {
    package enum Piece: Hashable, Sendable {
        case text(String)
        case counter(width: Int, zero: Bool)
    }

    /// The pattern as given.
    public let text: String
    package let pieces: [Piece]

    /// The widest counter accepted.
    public static let maxWidth = 9

    public init(parsing text: String) throws(OutputPatternError) {
        self.text = text
        if text.isEmpty { throw .empty }
        var pieces: [Piece] = []
        var literal = ""
        var counters = 0
        var chars = Array(text)[...]
        while let ch = chars.popFirst() {
            guard ch == "%" else {
                literal.append(ch)
                continue
            }
            guard let next = chars.first else {
                throw .invalid(pattern: text, reason: "it ends with a lone %; write %% for a percent sign")
            }
            if next == "%" {
                chars.removeFirst()
                literal.append("%")
                continue
            }
            var digits = ""
            while let d = chars.first, d.isASCII, d.isNumber {
                digits.append(d)
                chars.removeFirst()
            }
            guard chars.first == "d" else {
                let code = digits + (chars.first.map(String.init) ?? "")
                throw .invalid(
                    pattern: text,
                    reason: "%\(code) is not a code here; use %d (or %03d) for the number, %% for a percent sign")
            }
            chars.removeFirst()
            let width = digits.isEmpty ? 0 : Int(digits.prefix(18)) ?? .max
            if width > Self.maxWidth || digits.count > 18 {
                throw .invalid(
                    pattern: text, reason: "the width of %\(Echo.value(digits, limit: 20))d is over \(Self.maxWidth)")
            }
            counters += 1
            if counters > 1 { throw .invalid(pattern: text, reason: "it has two counters; give one %d") }
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
            pieces.append(.counter(width: width, zero: digits.hasPrefix("0")))
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    /// Whether the pattern numbers its outputs.
    public var hasCounter: Bool { pieces.contains { if case .counter = $0 { return true } else { return false } } }

    /// The path of output `n` (from 1).
    public func path(_ n: Int) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let s): out += s
            case .counter(let width, let zero):
                let digits = String(n)
                if digits.count < width { out += String(repeating: zero ? "0" : " ", count: width - digits.count) }
                out += digits
            }
        }
        return out
    }

    public var description: String { text }
}

/// A pattern that cannot be used.
public enum OutputPatternError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// The pattern is empty.
    case empty
    /// An unknown code, a width over the limit, two counters or a lone `%`.
    case invalid(pattern: String, reason: String)

    public var description: String {
        switch self {
        case .empty: return "the output path is empty"
        case .invalid(let pattern, let reason): return "'\(Echo.value(pattern))': \(reason)"
        }
    }
}
