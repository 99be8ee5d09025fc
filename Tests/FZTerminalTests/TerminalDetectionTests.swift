import Testing

@testable import FZImage
@testable import FZTerminal
@testable import Geometry

/// Detection is a pure function of the environment and the probe's answers.
struct TerminalDetectionTests {
    @Test func environmentNamesTheTerminal() {
        #expect(TerminalDetection.fromEnvironment(["KITTY_WINDOW_ID": "1", "TERM": "xterm-kitty"]) == .kitty)
        #expect(TerminalDetection.fromEnvironment(["TERM_PROGRAM": "ghostty"]) == .kitty)
        #expect(TerminalDetection.fromEnvironment(["TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(TerminalDetection.fromEnvironment(["LC_TERMINAL": "iTerm2"]) == .iterm)
        #expect(TerminalDetection.fromEnvironment(["WEZTERM_PANE": "0"]) == .iterm)
        #expect(TerminalDetection.fromEnvironment(["KONSOLE_VERSION": "230401"]) == .kitty)
        #expect(TerminalDetection.fromEnvironment(["TERM": "dumb"]) == .blocks)
        #expect(TerminalDetection.fromEnvironment(["TERM": "xterm-256color"]) == nil)
        // Inside tmux the inner TERM says nothing of the terminal outside.
        #expect(TerminalDetection.fromEnvironment(["TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "1"]) == nil)
        #expect(TerminalDetection.fromEnvironment(["TMUX": "/tmp/t,1,0", "LC_TERMINAL": "iTerm2"]) == .iterm)
    }

    @Test func answersParse() {
        let kitty = ProbeAnswers(
            parsing: Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;22c".utf8))
        #expect(kitty.kitty && kitty.version == "kitty(0.35.2)" && kitty.attributes == [62, 22])
        #expect(kitty.cell == PixelSize(width: 10, height: 20))
        let xterm = ProbeAnswers(parsing: Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6c".utf8))
        #expect(!xterm.kitty && xterm.attributes == [63, 1, 2, 4, 6] && xterm.complete)
        let partial = ProbeAnswers(parsing: Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?6".utf8))
        #expect(partial.kitty && !partial.complete)
        #expect(!ProbeAnswers(parsing: []).complete)
    }

    @Test func answersChoose() {
        let env = ["TERM": "xterm-256color"]
        var a = ProbeAnswers()
        #expect(TerminalDetection.choose(environment: env, answers: nil) == .blocks)
        #expect(TerminalDetection.choose(environment: env, answers: a) == .blocks)
        a.attributes = [62, 22]
        #expect(TerminalDetection.choose(environment: env, answers: a) == .blocks)
        a.attributes = [63, 4, 22]
        #expect(TerminalDetection.choose(environment: env, answers: a) == .sixel)
        a.kitty = true
        #expect(TerminalDetection.choose(environment: env, answers: a) == .kitty)
        var w = ProbeAnswers()
        w.version = "WezTerm 20240203"
        w.attributes = [65, 4]
        #expect(TerminalDetection.choose(environment: env, answers: w) == .iterm)
        // tmux with sixel: its own DA1 says so; a kitty answer from tmux is not trusted.
        var t = ProbeAnswers()
        t.kitty = true
        t.attributes = [61, 4]
        #expect(TerminalDetection.choose(environment: ["TMUX": "x"], answers: t) == .sixel)
        #expect(TerminalDetection.colorDepth(["COLORTERM": "truecolor"]) == .trueColor)
        #expect(TerminalDetection.colorDepth([:]) == .palette256)
    }

    @Test func keys() {
        let keys = PeekKeys.parse(Array("\u{1B}[A\u{1B}[1;2C\u{1B}OBhJ+-s\u{1B}[<0;12;5M\u{1B}[<0;12;5mq".utf8))
        #expect(
            keys == [
                .move(dx: 0, dy: -1), .move(dx: 10, dy: 0), .move(dx: 0, dy: 1), .move(dx: -1, dy: 0),
                .move(dx: 0, dy: 10),
                .zoomIn, .zoomOut, .save, .click(column: 12, row: 5), .quit,
            ])
        #expect(PeekKeys.parse([0x1B]) == [.quit])
        #expect(PeekKeys.parse([3]) == [.quit])
    }

    @Test func peekScreenMatchesCropGeometry() {
        var image = Image(width: 300, height: 200, format: .rgb)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8(i % 251) }
        var screen = PeekScreen(image: image, columns: 80, rows: 24, cell: PixelSize(width: 1, height: 2))
        #expect(screen.side == 38 && screen.canvas == PixelSize(width: 80, height: 46))
        let before = screen.point
        let moved = screen.apply(.move(dx: 1, dy: 0))
        #expect(moved)
        #expect(screen.point.x > before.x && screen.point.y == before.y)
        let g = screen.geometry
        #expect(screen.peek() == image.cropped(to: g.coveredRect))
        let zoomed = screen.apply(.zoomIn)
        #expect(zoomed && screen.zoom == 2)
        let clicked = screen.apply(.click(column: 1, row: 1))
        #expect(clicked && screen.point.x < 10)
    }
}

/// What `s` saves in a small window: the peek at crop's side, not the pane's (issue 51: 58x58
/// files came out of a small terminal). The command line gives crop's default, 390.
struct SavedPeekSizeTests {
    @Test func aSavedPeekHasCropsSideWhateverThePane() {
        var image = Image(width: 800, height: 600, format: .rgb)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8(i % 251) }
        var screen = PeekScreen(image: image, columns: 80, rows: 24, cell: PixelSize(width: 1, height: 2))
        screen.size(side: 390, zoom: 1)
        #expect(screen.side == 38)
        let saved = screen.peek()
        #expect(saved.size == PixelSize(width: 390, height: 390))
        // At 1x inside the image, the pixels crop --at gives: the source's own, one to one.
        #expect(saved == image.cropped(to: screen.geometry.coveredRect))
        #expect(screen.shownPeek().size == PixelSize(width: 38, height: 38))
    }
}

/// `peek` redraws only the cells that changed.
struct PeekRedrawTests {
    @Test func changedCellsCoverTheDifferenceOnTheCellGrid() {
        let a = Image(width: 50, height: 40, format: .rgb, fill: .black)
        var b = a
        for k in 0..<3 { b.pixels[(13 * 50 + 21) * 3 + k] = 200 }
        let cell = PixelSize(width: 8, height: 16)
        #expect(PeekSession.changedCells(a, b, cell: cell) == PixelRect(x: 16, y: 0, width: 8, height: 16))
        for k in 0..<3 { b.pixels[(39 * 50 + 49) * 3 + k] = 200 }
        // The last, partial cells are cut at the picture's edge.
        #expect(PeekSession.changedCells(a, b, cell: cell) == PixelRect(x: 16, y: 0, width: 34, height: 40))
        #expect(PeekSession.changedCells(nil, b, cell: cell) == PixelRect(size: b.size))
        #expect(PeekSession.changedCells(a, a, cell: cell).isEmpty)
    }
}
