import Testing

@testable import FZSystem

@Suite struct WhitespaceTests {
    /// Text trimmed as bytes (`trimmingWhitespace`) is trimmed as characters are: ASCII padding,
    /// Unicode's other spaces, a combining mark on a space, CR LF, nothing but spaces.
    @Test func trimsAsCharactersDo() {
        let samples = [
            "", " ", "\n\t  \r\n", "1.5", "  2.25\n", "\u{A0}3\u{A0}", " \u{301}x ", "x\u{2028}", "\u{85}\n",
            "\r\ntrue\r\n", "  é  ", String(repeating: " ", count: 4096) + "4" + String(repeating: "\n", count: 99),
            "a b", "\u{B}\u{C}v\u{C}",
        ]
        for s in samples {
            let reference = String(
                s.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
            #expect(s.trimmingWhitespace == reference, "\(Array(s.unicodeScalars))")
        }
    }
}
