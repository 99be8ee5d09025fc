import Geometry

/// The interactive loop of `forcezoom peek`: the alternate screen, raw keys and SGR mouse
/// reports, redraws of what changed only, and everything put back on the way out (also by
/// the signal and crash handlers, which write the same leave bytes: `TerminalScreen.enterRaw`).
public struct PeekSession {
    public var screen: PeekScreen
    public let target: InlineImage.Target
    public let columns: Int
    public let rows: Int

    /// Entering: the alternate screen, cursor hidden, mouse presses reported in SGR form.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[2J"
    /// Leaving undoes each, in reverse.
    static let leave = "\u{1B}[0m\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"
    /// Kitty keeps pictures apart from the text: delete them all (q=2: no answer).
    static let kittyClear = "\u{1B}_Ga=d,q=2\u{1B}\\"

    public init(screen: PeekScreen, target: InlineImage.Target, columns: Int, rows: Int) {
        self.screen = screen
        self.target = target
        self.columns = columns
        self.rows = rows
    }

    /// Runs until q, Esc, Ctrl-C or the end of input. `save` is called for `s` with the
    /// geometry and pixels of the peek, and returns the status line's note.
    public mutating func run(save: (PeekGeometry, Image) throws -> String) throws {
        let clear = target.graphics == .kitty ? Self.kittyClear : ""
        guard TerminalScreen.enterRaw(leave: Array((clear + Self.leave).utf8)) else {
            throw ToolFailure("peek needs a terminal on standard input")
        }
        defer { TerminalScreen.restore() }
        TerminalScreen.write(Array(Self.enter.utf8))
        var drawn = Drawn()
        var note = ""
        draw(&drawn, note: note)
        loop: while let input = TerminalScreen.read(timeout: -1) {
            for event in PeekKeys.parse(input) {
                switch event {
                case .quit: break loop
                case .save: note = try save(screen.geometry, screen.peek())
                default: _ = screen.apply(event)
                }
            }
            draw(&drawn, note: note)
        }
    }

    /// What is on the screen now, to draw only the difference.
    struct Drawn {
        var canvas: Image?
        var view: Image?
        var peek: Image?
        var status = ""
    }

    func draw(_ drawn: inout Drawn, note: String) {
        var out: [UInt8] = []
        if target.graphics == .blocks {
            let canvas = screen.composed()
            out += BlockCanvas.update(from: drawn.canvas, to: canvas, depth: target.depth)
            drawn.canvas = canvas
        } else {
            let view = screen.view(), peek = screen.peek()
            let redrawAll = target.graphics == .kitty && (view != drawn.view || peek != drawn.peek)
            if redrawAll { out += Array(Self.kittyClear.utf8) }
            for (pane, old, column) in [(view, drawn.view, 1), (peek, drawn.peek, screen.peekX / screen.cell.width + 1)]
            where redrawAll || pane != old {
                out += Array("\u{1B}[1;\(column)H".utf8)
                out += (try? InlineImage.encode(pane, for: InlineImage.Target(limit: nil, graphics: target.graphics, tmux: target.tmux), newline: false)) ?? []
            }
            drawn.view = view
            drawn.peek = peek
        }
        let p = screen.point
        var status = "\(p.x),\(p.y)  \(Int(screen.zoom))x  \(note)  arrows/hjkl move (shift x10), click, +/- zoom, s save, q quit"
        if status.count > columns { status = String(status.prefix(max(0, columns - 1))) }
        if status != drawn.status {
            out += Array("\u{1B}[\(rows);1H\u{1B}[0m\u{1B}[2K\(status)".utf8)
            drawn.status = status
        }
        if !out.isEmpty { TerminalScreen.write(out) }
    }
}
