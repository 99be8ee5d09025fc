import FoundationEssentials

/// Any JSON value, for reading what the binary prints (FoundationEssentials' decoder).
package indirect enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Every line of `text` that is a JSON object (a `--json` stream), in order; a line
    /// that is not one becomes an empty object, so counts and positions still show it.
    package static func objects(_ text: some StringProtocol) -> [[String: JSONValue]] {
        text.split(separator: "\n").map { object($0) ?? [:] }
    }

    /// One JSON object from a line of text, or nil.
    package static func object(_ line: some StringProtocol) -> [String: JSONValue]? {
        guard case .object(let o)? = try? JSONDecoder().decode(JSONValue.self, from: Data(String(line).utf8)) else {
            return nil
        }
        return o
    }
}
