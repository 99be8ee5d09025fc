import FZImage
import FZSystem
import Geometry

/// The interactive loop of `forcezoom peek`: the alternate screen, raw keys and SGR mouse
/// reports, redraws of what changed only, and everything put back on the way out (also by
/// the signal and crash handlers, which write the same leave bytes: `TerminalScreen.enterRaw`).
public struct PeekSession {
    public var screen: PeekScreen
    public let target: InlineImage.Target
    public var columns: Int
    public var rows: Int
    /// What a new window's screen is checked against (`PeekScreen.check`).
    public var budget: Budget

    /// Entering: the alternate screen, cursor hidden, mouse presses reported in SGR form.
    package static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[2J"
    /// Leaving undoes each, in reverse.
    package static let leave = "\u{1B}[0m\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"
    /// Kitty keeps pictures apart from the text: delete them all (q=2: no answer).
    package static let kittyClear = "\u{1B}_Ga=d,q=2\u{1B}\\"

    public init(screen: PeekScreen, target: InlineImage.Target, columns: Int, rows: Int, budget: Budget = Budget()) {
        self.screen = screen
        self.budget = budget
        self.target = target
        self.columns = columns
        self.rows = rows
    }

    /// Runs until q, Esc, Ctrl-C or the end of input (Ctrl-Z stops it, as in a shell). `save`
    /// is called for `s` with the geometry and pixels of the peek and the pane's side (which
    /// shows the peek scaled when they differ), and returns the status line's note.
    public mutating func run(save: (PeekGeometry, Image, _ pane: Int) throws -> String) throws {
        let clear = target.graphics == .kitty ? Self.kittyClear : ""
        guard TerminalScreen.enterRaw(leave: Array((clear + Self.leave).utf8)) else {
            throw ToolFailure("peek needs a terminal on standard input")
        }
        defer { TerminalScreen.restore() }
        // Ctrl-Z or SIGTSTP gives the terminal back and stops; a continue enters it again.
        TerminalScreen.watchStop(enter: Array(Self.enter.utf8))
        defer { TerminalScreen.unwatchStop() }
        TerminalScreen.write(Array(Self.enter.utf8))
        TerminalScreen.watchResize()
        var drawn = Drawn()
        var note = ""
        draw(&drawn, note: note)
        loop: while let input = TerminalScreen.read(timeout: -1) {
            // Both asked (each clears its flag): back from a stop, the screen is redrawn whole.
            let (resized, continued) = (TerminalScreen.resized(), TerminalScreen.continued())
            if resized || continued { note = resize(&drawn) ?? note }
            for event in PeekKeys.parse(input) {
                switch event {
                case .quit: break loop
                case .save: note = try save(screen.geometry, screen.peek(), screen.side)
                case .suspend: TerminalScreen.suspend()
                case .nextRegion, .previousRegion:
                    if screen.stops.isEmpty { note = "no faces or named regions in its metadata" }
                    _ = screen.apply(event)
                default: _ = screen.apply(event)
                }
            }
            draw(&drawn, note: note)
        }
    }

    /// A new window size: the layout made again (the decoded image kept), the screen cleared.
    /// A window whose screen would exceed the budget keeps the last layout: the note says so.
    package mutating func resize(_ drawn: inout Drawn) -> String? {
        var note: String?
        var window = TerminalScreen.window() ?? TerminalScreen.Window(columns: columns, rows: rows, pixels: nil)
        var cell = target.graphics == .blocks ? PixelSize(width: 1, height: 2) : window.cell(probed: target.cell)
        do { try PeekScreen.check(columns: window.columns, rows: window.rows, cell: cell, budget: budget) } catch {
            note = "window of \(window.columns)x\(window.rows) cells too large, layout kept"
            (window.columns, window.rows, cell) = (columns, rows, screen.cell)
        }
        var next = PeekScreen(image: screen.image, columns: window.columns, rows: window.rows, cell: cell)
        next.size(side: screen.fixedSide, zoom: screen.zoom)
        (next.stops, next.stopIndex) = (screen.stops, screen.stopIndex)
        next.point = screen.point
        (screen, columns, rows, drawn) = (next, window.columns, window.rows, Drawn())
        TerminalScreen.write(Array(("\u{1B}[0m\u{1B}[2J" + (target.graphics == .kitty ? Self.kittyClear : "")).utf8))
        return note
    }

    /// What is on the screen now, to draw only the difference.
    package struct Drawn {
        var canvas: Image?
        var view: Image?
        var peek: Image?
        var status = ""
    }

    /// The smallest rectangle on whole cells holding every pixel where `old` and `new`
    /// differ (all of `new` when there is no `old` of its size).
    package static func changedCells(_ old: Image?, _ new: Image, cell: PixelSize) -> PixelRect {
        guard let old, old.size == new.size, old.format == new.format else { return PixelRect(size: new.size) }
        let c = new.format.channels
        let stride = new.width * c
        var x0 = new.width
        var y0 = new.height
        var x1 = -1
        var y1 = -1
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                for y in 0..<new.height {
                    let row = y * stride
                    var first = -1
                    var last = -1
                    for i in 0..<stride where a[row + i] != b[row + i] {
                        if first < 0 { first = i }
                        last = i
                    }
                    if first < 0 { continue }
                    (x0, x1) = (min(x0, first / c), max(x1, last / c))
                    (y0, y1) = (min(y0, y), y)
                }
            }
        }
        if x1 < 0 { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        let left = x0 - x0 % cell.width
        let top = y0 - y0 % cell.height
        let right = min(new.width, (x1 / cell.width + 1) * cell.width)
        let bottom = min(new.height, (y1 / cell.height + 1) * cell.height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The status line: the point, the zoom, the region it is on, the last note, the keys.
    package static func status(_ screen: PeekScreen, note: String) -> String {
        let p = screen.point
        let region = screen.stopStatus.map { "  \($0)" } ?? ""
        let keys = "arrows/hjkl move (shift x10), click, +/- zoom, r/R regions, s save, q quit"
        return "\(p.x),\(p.y)  \(Int(screen.zoom))x\(region)  \(note)  \(keys)"
    }

    package func draw(_ drawn: inout Drawn, note: String) {
        var out: [UInt8] = []
        if target.graphics == .blocks {
            let canvas = screen.composed()
            out += BlockCanvas.update(from: drawn.canvas, to: canvas, depth: target.depth)
            drawn.canvas = canvas
        } else {
            let view = screen.view()
            let peek = screen.shownPeek()
            let redrawAll = target.graphics == .kitty && (view != drawn.view || peek != drawn.peek)
            if redrawAll { out += Array(Self.kittyClear.utf8) }
            let plain = InlineImage.Target(limit: nil, graphics: target.graphics, tmux: target.tmux)
            for (pane, old, column) in [
                (view, drawn.view, 1), (peek, drawn.peek, screen.peekX / screen.cell.width + 1),
            ]
            where redrawAll || pane != old {
                // Only the cells that changed (the box's old and new place), unless kitty,
                // which stacks pictures: there everything was cleared and is drawn again.
                let rect = redrawAll ? PixelRect(size: pane.size) : Self.changedCells(old, pane, cell: screen.cell)
                let part = rect.size == pane.size ? pane : pane.cropped(to: rect)
                out += Array("\u{1B}[\(rect.y / screen.cell.height + 1);\(column + rect.x / screen.cell.width)H".utf8)
                out += (try? InlineImage.encode(part, for: plain, newline: false)) ?? []
            }
            drawn.view = view
            drawn.peek = peek
        }
        var status = Self.status(screen, note: note)
        if status.count > columns { status = String(status.prefix(max(0, columns - 1))) }
        if status != drawn.status {
            out += Array("\u{1B}[\(rows);1H\u{1B}[0m\u{1B}[2K\(status)".utf8)
            drawn.status = status
        }
        if !out.isEmpty { TerminalScreen.write(out) }
    }
}
