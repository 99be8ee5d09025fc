import FZSystem
import FoundationEssentials

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
    public enum ParseError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
        /// A CSV line that is not `x,y[,label]`.
        case badLine(file: String, line: Int, text: String)
        /// JSON that is not an array of `{"x":..,"y":..,"label":..}` or `[x, y]`.
        case badJSON(file: String, reason: String)
        /// A label longer than `maxLabel` characters.
        case longLabel(file: String, line: Int, limit: Int)
        /// More than `maxCount` pins.
        case tooMany(file: String, limit: Int)

        public var description: String {
            switch self {
            case .badLine(let f, let n, let t): return "\(f): line \(n): expected x,y[,label], got '\(t)'"
            case .longLabel(let f, let n, let limit):
                return "\(f): line \(n): the label is longer than \(limit) characters"
            case .tooMany(let f, let limit): return "\(f): more than \(limit) pins"
            case .badJSON(let f, let r):
                return "\(f): \(r) (expected a JSON array of {\"x\":..,\"y\":..,\"label\":..} or [x,y])"
            }
        }
    }

    /// Parses a marker file: a JSON array, or CSV lines `x,y[,label]` (blank lines and
    /// lines starting with # are skipped; a header line `x,y,...` is allowed).
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: its name, for messages.
    /// The longest label drawn (a pin's label is one line of the 5x7 font).
    public static let maxLabel = 200
    /// The most pins in one list.
    public static let maxCount = 100_000
    /// The largest marker file read.
    public static let maxFileBytes = 16 << 20

    public static func parseList(_ text: String, file: String) throws(ParseError) -> [Marker] {
        // A UTF-8 byte order mark (Windows editors write one) is not part of the text.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        if trimmed.first == "[" {
            // FoundationEssentials' decoder (already linked through swift-argument-parser;
            // launch time measured the same with and without it, see BENCHMARKS.md).
            let items: [JSONMarker]
            do { items = try JSONDecoder().decode([JSONMarker].self, from: Data(text.utf8)) } catch {
                throw .badJSON(file: file, reason: "not a JSON array")
            }
            var out: [Marker] = []
            if items.count > maxCount { throw .tooMany(file: file, limit: maxCount) }
            for (i, item) in items.enumerated() {
                switch item {
                case .marker(let m):
                    if (m.label?.count ?? 0) > maxLabel {
                        throw .badJSON(
                            file: file, reason: "item \(i + 1) has a label longer than \(maxLabel) characters")
                    }
                    out.append(m)
                case .bad(let what): throw .badJSON(file: file, reason: "item \(i + 1) \(what)")
                }
            }
            return out
        }
        var out: [Marker] = []
        // "\r\n" is one Character
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let t = line.trimmingSpaces
            if t.isEmpty || t.hasPrefix("#") { continue }
            let parts = t.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            if n == 0, parts.count >= 2, parts[0].trimmingSpaces.lowercased() == "x" { continue }
            guard parts.count >= 2, let x = Double(parts[0].trimmingSpaces), let y = Double(parts[1].trimmingSpaces),
                x.isFinite, y.isFinite
            else {
                throw .badLine(file: file, line: n + 1, text: Echo.value(String(t)))
            }
            let label = parts.count > 2 ? String(parts[2].trimmingSpaces) : nil
            if (label?.count ?? 0) > maxLabel { throw .longLabel(file: file, line: n + 1, limit: maxLabel) }
            if out.count >= maxCount { throw .tooMany(file: file, limit: maxCount) }
            out.append(Marker(x: x, y: y, label: label?.isEmpty == true ? nil : label))
        }
        return out
    }
}

/// One item of a JSON marker list: `{"x":..,"y":..,"label":..}` or `[x, y]`. Decoding never
/// fails on an item, so the error can name which one is wrong.
private enum JSONMarker: Decodable {
    case marker(Marker)
    case bad(String)

    private enum Key: String, CodingKey { case x, y, label }

    init(from decoder: any Decoder) throws {
        if let pair = try? decoder.singleValueContainer().decode([Double].self) {
            self = pair.count >= 2 ? .marker(Marker(x: pair[0], y: pair[1])) : .bad("is not [x, y]")
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            guard let x = try? object.decode(Double.self, forKey: .x),
                let y = try? object.decode(Double.self, forKey: .y)
            else {
                self = .bad("lacks numeric x and y")
                return
            }
            self = .marker(Marker(x: x, y: y, label: try? object.decodeIfPresent(String.self, forKey: .label)))
        } else if (try? decoder.singleValueContainer().decode([JSONValueIgnored].self)) != nil {
            self = .bad("is not [x, y]")
        } else {
            self = .bad("is neither an object nor [x, y]")
        }
    }
}

/// Any JSON value, read and dropped.
private struct JSONValueIgnored: Decodable {
    init(from decoder: any Decoder) throws {}
}
