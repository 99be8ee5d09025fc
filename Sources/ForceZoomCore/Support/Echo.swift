/// Values echoed in messages: one line, bounded.
public enum Echo {
    /// At most `limit` characters, control characters escaped (`\n`, `\u{1B}`), so a message
    /// stays one readable line whatever was typed.
    public static func value(_ s: String, limit: Int = 100) -> String {
        var out = ""
        var count = 0
        for scalar in s.unicodeScalars {
            if count >= limit { return out + "…" }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// A number as a person would type it: whole values without `.0`.
    public static func number(_ v: Double) -> String { Coordinate.format(v) }
}
