import Geometry

/// Values echoed in messages: one line, bounded.
public enum Echo {
    /// At most `limit` characters, control characters escaped (`\n`, `\u{1B}`), so a message
    /// stays one readable line whatever was typed.
    public static func value(_ s: String, limit: Int = 100) -> String {
        var out = ""
        var count = 0
        for scalar in s.unicodeScalars {
            if count >= limit { return out + "…" }
            append(scalar, to: &out)
            count += 1
        }
        return out
    }

    /// A whole message line as it may reach a terminal: every control character escaped
    /// (a file named `x\e]0;PWNED\a\n...` neither retitles the terminal nor forges a
    /// line), bytes that are not UTF-8 shown as `\xFF`; nothing cut.
    public static func line(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        for scalar in s.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// A path for a message: `<stdin>` for "-", escaped as `line`.
    public static func path(_ p: String) -> String { StandardStream.isNamed(p) ? StandardStream.inputLabel : line(p) }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
            || PathBytes.carriedByte(scalar) != nil
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        if let byte = PathBytes.carriedByte(scalar) {
            let hex = String(byte, radix: 16, uppercase: true)
            out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        } else if needsEscape(scalar) {
            out += scalar.escaped(asASCII: true)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }

    /// A number as a person would type it: whole values without `.0`.
    public static func number(_ v: Double) -> String { Coordinate.format(v) }
}
