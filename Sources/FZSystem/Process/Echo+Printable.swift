extension Echo {
    /// `text` safe for a terminal: escape sequences (ESC or CSI 0x9B, with their parameters
    /// and final byte; OSC and the other string controls up to BEL or ST) taken out whole,
    /// every other C0/C1 control, DEL and bidirectional control taken out, tabs and line
    /// breaks made spaces, at most `limit` characters. For names read from files that are shown
    /// as they are (a region's name in peek's status line, in `info`).
    public static func printable(_ text: String, limit: Int = .max) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let v = scalars[i].value
            if v == 0x1B || v == 0x9B || v == 0x9D || v == 0x90 || v == 0x9E || v == 0x9F {
                i = Self.endOfEscape(scalars, at: i)
                continue
            }
            let control =
                v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
            if !control {
                out.append(scalars[i])
            } else if v == 0x09 || v == 0x0A || v == 0x0D {
                out.append(" ")
            }
            i += 1
        }
        return limit == .max ? String(out) : String(String(out).prefix(limit))
    }

    /// The index just past the escape sequence starting at `i`.
    private static func endOfEscape(_ s: [Unicode.Scalar], at start: Int) -> Int {
        var i = start
        var kind = s[i].value
        if kind == 0x1B {
            guard i + 1 < s.count else { return i + 1 }
            i += 1
            // ESC [ is CSI, ESC ] OSC, ESC P DCS, ESC ^ PM, ESC _ APC; anything else is a two-byte escape.
            switch s[i].value {
            case 0x5B: kind = 0x9B
            case 0x5D: kind = 0x9D
            case 0x50: kind = 0x90
            case 0x5E: kind = 0x9E
            case 0x5F: kind = 0x9F
            default: return i + 1
            }
        }
        i += 1
        if kind == 0x9B {
            // Parameters and intermediates, then one final byte 0x40...0x7E.
            while i < s.count, (0x20...0x3F).contains(s[i].value) { i += 1 }
            return min(s.count, i + 1)
        }
        // A string: up to BEL, ST (0x9C) or ESC \.
        while i < s.count {
            let v = s[i].value
            if v == 0x07 || v == 0x9C { return i + 1 }
            if v == 0x1B { return i + 1 < s.count && s[i + 1].value == 0x5C ? i + 2 : i + 1 }
            i += 1
        }
        return i
    }
}
