import Geometry

/// A JSON value with deterministic, ordered output (no Foundation: launch cost matters).
public indirect enum JSON: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Keys keep the order given.
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool { a.description == b.description }

    public static func int(_ v: Int) -> JSON { .int(Int64(v)) }

    /// The version of every command's JSON records (docs/json/*.schema.json): raised when
    /// a field changes meaning or goes away, so scripts can tell.
    public static let schemaVersion = 2

    /// A top-level record a command prints: `schemaVersion` first, then `members`.
    public static func record(_ members: [(String, JSON)]) -> JSON {
        .object([("schemaVersion", .int(schemaVersion))] + members)
    }

    /// This object as a top-level record (`record(_:)`); other values unchanged.
    public var versioned: JSON {
        guard case .object(let members) = self else { return self }
        return members.first?.0 == "schemaVersion" ? self : JSON.record(members)
    }

    /// Compact, one line (JSON Lines friendly).
    public var description: String {
        var out = ""
        write(into: &out)
        return out
    }

    package func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d): out += JSON.format(d)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    /// Numbers: integers without a fraction, others with up to 6 decimals, no exponent;
    /// magnitudes of 1e15 and more (where 6 decimals no longer fit an Int64) in Swift's
    /// shortest round-trip form, which JSON accepts (`1e+300`).
    public static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if abs(d) >= 1e15 { return d.description }
        if d == d.rounded() { return String(Int64(d)) }
        let scaled = (d * 1_000_000).rounded()
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = String(magnitude / 1_000_000)
        return (negative ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }

    package static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}

extension Rect {
    /// `{"x":..,"y":..,"width":..,"height":..}`
    public var json: JSON {
        .object([("x", .number(x)), ("y", .number(y)), ("width", .number(width)), ("height", .number(height))])
    }
}

extension PixelRect {
    public var json: JSON {
        .object([("x", .int(x)), ("y", .int(y)), ("width", .int(width)), ("height", .int(height))])
    }
}

extension PixelSize {
    public var json: JSON { .object([("width", .int(width)), ("height", .int(height))]) }
}

extension AffineTransform {
    /// `[a, b, c, d, tx, ty]`.
    public var json: JSON { .array([a, b, c, d, tx, ty].map { .number($0) }) }
}
