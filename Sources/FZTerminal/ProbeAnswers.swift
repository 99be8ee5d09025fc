import Geometry

/// What a terminal answered to the probe (`TerminalProbe`): the kitty graphics query, XTVERSION,
/// the cell size (`ESC [16t`) and the primary device attributes (DA1), parsed from the raw
/// bytes it sent back. Pure, so detection is tested without a terminal.
public struct ProbeAnswers: Sendable, Hashable {
    /// The kitty query came back OK.
    public var kitty = false
    /// XTVERSION's name and version ("XTerm(390)", "WezTerm 20240203", "foot(1.16.2)").
    public var version: String?
    /// DA1's attributes (4 = sixel), nil when it did not answer.
    public var attributes: [Int]?
    /// One cell in pixels (`ESC [6;h;w t`), only when plausible (`TerminalScreen.Window.cellRange`).
    public var cell: PixelSize?
    /// A cell-size reply that was no plausible size (as sent, cut to 40 characters): the
    /// terminal's answers are not to be trusted, so pictures fall back to blocks.
    public var rejectedCell: String?

    public init() {}

    /// Whether the answers are complete: DA1 comes last and every terminal answers it.
    public var complete: Bool { attributes != nil }

    /// The queries, in the order they are sent: kitty's, XTVERSION, the cell size, DA1 last.
    public static let query = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>q\u{1B}[16t\u{1B}[c".utf8)

    /// Parses everything in `bytes` (answers may come in any number of pieces; parse the
    /// concatenation). Unknown sequences are skipped.
    public init(parsing bytes: [UInt8]) {
        var i = 0
        let esc: UInt8 = 0x1B
        func stringEnd(from start: Int) -> (Int, Int)? {
            // ST is ESC \ (or BEL); returns (end of payload, index after the terminator).
            var j = start
            while j < bytes.count {
                if bytes[j] == 7 { return (j, j + 1) }
                if bytes[j] == esc && j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: "\\") { return (j, j + 2) }
                j += 1
            }
            return nil
        }
        while i + 1 < bytes.count {
            guard bytes[i] == esc else {
                i += 1
                continue
            }
            let kind = bytes[i + 1]
            if kind == UInt8(ascii: "_") || kind == UInt8(ascii: "P") {
                guard let (end, next) = stringEnd(from: i + 2) else { break }
                let payload = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
                if kind == UInt8(ascii: "_"), payload.hasPrefix("G"), payload.contains("i=31"), payload.hasSuffix(";OK")
                {
                    kitty = true
                }
                if kind == UInt8(ascii: "P"), payload.hasPrefix(">|") { version = String(payload.dropFirst(2)) }
                i = next
            } else if kind == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                let body = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                let final = bytes[j]
                if final == UInt8(ascii: "c"), body.hasPrefix("?") {
                    attributes = body.dropFirst().split(separator: ";").compactMap { Int($0) }
                } else if final == UInt8(ascii: "t"), body.hasPrefix("6;") {
                    if let size = Self.cellSize(body) { cell = size } else { rejectedCell = String(body.prefix(40)) }
                }
                i = j + 1
            } else {
                i += 2
            }
        }
    }

    /// The cell of a `6;h;w` reply: each number at most 6 digits (no arithmetic can
    /// overflow), the size within `TerminalScreen.Window.cellRange`; nil otherwise.
    package static func cellSize(_ body: String) -> PixelSize? {
        let parts = body.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "6" else { return nil }
        var n: [Int] = []
        for part in parts.dropFirst() {
            guard (1...6).contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int(part)
            else { return nil }
            n.append(value)
        }
        let size = PixelSize(width: n[1], height: n[0])
        return TerminalScreen.Window.plausible(cell: size) ? size : nil
    }
}
