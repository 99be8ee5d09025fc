/// A map pin at an image point, optionally labelled.
public struct Marker: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var label: String?

    public init(x: Double, y: Double, label: String? = nil) {
        self.x = x
        self.y = y
        self.label = label
    }

    /// Why a marker list could not be read.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A CSV line that is not `x,y[,label]`.
        case badLine(file: String, line: Int, text: String)
        /// JSON that is not an array of `{"x":..,"y":..,"label":..}` or `[x, y]`.
        case badJSON(file: String, reason: String)

        public var description: String {
            switch self {
            case .badLine(let f, let n, let t): return "\(f): line \(n): expected x,y[,label], got '\(t)'"
            case .badJSON(let f, let r): return "\(f): \(r) (expected a JSON array of {\"x\":..,\"y\":..,\"label\":..} or [x,y])"
            }
        }
    }

    /// Parses a marker file: a JSON array, or CSV lines `x,y[,label]` (blank lines and
    /// lines starting with # are skipped; a header line `x,y,...` is allowed).
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: its name, for messages.
    public static func parseList(_ text: String, file: String) throws(ParseError) -> [Marker] {
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        if trimmed.first == "[" {
            var parser = MiniJSON(Array(text.utf8))
            guard let value = parser.parse(), case .array(let items) = value else {
                throw .badJSON(file: file, reason: "not a JSON array")
            }
            var out: [Marker] = []
            for (i, item) in items.enumerated() {
                switch item {
                case .array(let a) where a.count >= 2:
                    guard case .number(let x) = a[0], case .number(let y) = a[1] else { throw .badJSON(file: file, reason: "item \(i + 1) is not [x, y]") }
                    out.append(Marker(x: x, y: y))
                case .object(let o):
                    guard case .number(let x)? = o["x"], case .number(let y)? = o["y"] else {
                        throw .badJSON(file: file, reason: "item \(i + 1) lacks numeric x and y")
                    }
                    var label: String?
                    if case .string(let s)? = o["label"] { label = s }
                    out.append(Marker(x: x, y: y, label: label))
                default: throw .badJSON(file: file, reason: "item \(i + 1) is neither an object nor [x, y]")
                }
            }
            return out
        }
        var out: [Marker] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let t = line.trimmingSpaces
            if t.isEmpty || t.hasPrefix("#") { continue }
            let parts = t.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            if n == 0, parts.count >= 2, parts[0].trimmingSpaces.lowercased() == "x" { continue }
            guard parts.count >= 2, let x = Double(parts[0].trimmingSpaces), let y = Double(parts[1].trimmingSpaces),
                  x.isFinite, y.isFinite else {
                throw .badLine(file: file, line: n + 1, text: String(t))
            }
            let label = parts.count > 2 ? String(parts[2].trimmingSpaces) : nil
            out.append(Marker(x: x, y: y, label: label?.isEmpty == true ? nil : label))
        }
        return out
    }
}
