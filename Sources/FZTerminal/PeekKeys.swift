/// What a key or a click in `forcezoom peek` asks for.
public enum PeekEvent: Hashable, Sendable {
    /// Move the touch point by cells (a shifted key moves ten).
    case move(dx: Int, dy: Int)
    /// A mouse press at a cell, 1-based as SGR mouse mode reports it.
    case click(column: Int, row: Int)
    case zoomIn, zoomOut, save, quit
    /// r or Tab: the next face or named region; R or Shift-Tab: the one before.
    case nextRegion, previousRegion
    /// Ctrl-Z: raw mode turns off the key's signal, so peek stops itself (`TerminalScreen.suspend`).
    case suspend
}

/// Reads the bytes a terminal sends for keys: arrows (`ESC [ A`, `ESC O A` in application
/// mode, `ESC [ 1 ; 2 A` shifted), hjkl and HJKL, + = and -, r R Tab and Shift-Tab (`ESC [ Z`), s, q, Ctrl-C, Ctrl-Z, a lone Esc, and SGR
/// mouse presses (`ESC [ < b ; x ; y M`). Pure, so the key map is tested without a terminal.
public enum PeekKeys {
    public static func parse(_ bytes: [UInt8]) -> [PeekEvent] {
        var events: [PeekEvent] = []
        var i = 0
        func arrow(_ final: UInt8, _ n: Int) -> PeekEvent? {
            switch final {
            case UInt8(ascii: "A"): return .move(dx: 0, dy: -n)
            case UInt8(ascii: "B"): return .move(dx: 0, dy: n)
            case UInt8(ascii: "C"): return .move(dx: n, dy: 0)
            case UInt8(ascii: "D"): return .move(dx: -n, dy: 0)
            default: return nil
            }
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                guard i + 1 < bytes.count else {
                    events.append(.quit)  // Esc alone
                    break
                }
                let kind = bytes[i + 1]
                if kind == UInt8(ascii: "O"), i + 2 < bytes.count {
                    if let e = arrow(bytes[i + 2], 1) { events.append(e) }
                    i += 3
                    continue
                }
                if kind == UInt8(ascii: "[") {
                    var j = i + 2
                    while j < bytes.count && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    guard j < bytes.count else { break }
                    let body = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                    let final = bytes[j]
                    if body.hasPrefix("<") {
                        let n = body.dropFirst().split(separator: ";").compactMap { Int($0) }
                        // A press (M) of the left button, without motion: set the point.
                        if final == UInt8(ascii: "M"), n.count == 3, n[0] & 3 == 0, n[0] & 32 == 0 {
                            events.append(.click(column: n[1], row: n[2]))
                        }
                    } else if final == UInt8(ascii: "Z") && body.isEmpty {
                        events.append(.previousRegion)  // Shift-Tab (back-tab)
                    } else {
                        let shifted =
                            body.split(separator: ";").last.flatMap { Int($0) }.map { ($0 - 1) & 1 == 1 } ?? false
                        if let e = arrow(final, shifted ? 10 : 1) { events.append(e) }
                    }
                    i = j + 1
                    continue
                }
                events.append(.quit)
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "h"): events.append(.move(dx: -1, dy: 0))
            case UInt8(ascii: "l"): events.append(.move(dx: 1, dy: 0))
            case UInt8(ascii: "k"): events.append(.move(dx: 0, dy: -1))
            case UInt8(ascii: "j"): events.append(.move(dx: 0, dy: 1))
            case UInt8(ascii: "H"): events.append(.move(dx: -10, dy: 0))
            case UInt8(ascii: "L"): events.append(.move(dx: 10, dy: 0))
            case UInt8(ascii: "K"): events.append(.move(dx: 0, dy: -10))
            case UInt8(ascii: "J"): events.append(.move(dx: 0, dy: 10))
            case UInt8(ascii: "+"), UInt8(ascii: "="): events.append(.zoomIn)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): events.append(.zoomOut)
            case UInt8(ascii: "s"): events.append(.save)
            case UInt8(ascii: "r"), 0x09: events.append(.nextRegion)
            case UInt8(ascii: "R"): events.append(.previousRegion)
            case UInt8(ascii: "q"), 3, 4: events.append(.quit)
            case 0x1A: events.append(.suspend)
            default: break
            }
            i += 1
        }
        return events
    }
}
