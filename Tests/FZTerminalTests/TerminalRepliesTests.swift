import Testing

@testable import FZSystem
@testable import FZTerminal
@testable import Geometry

/// What the terminal says is input like any other (issue 40, reproducers 4 and 5): a reply
/// or a window report is parsed with checked arithmetic and plausible ranges, and the sizes
/// made from it are bounded before anything is allocated.
struct TerminalRepliesTests {
    static func answers(_ text: String) -> ProbeAnswers { ProbeAnswers(parsing: Array(text.utf8)) }

    @Test(arguments: [
        "6;9223372036854775807;9223372036854775807", "6;99999999999999999999999;10", "6;4000;4000", "6;0;10",
        "6;20;0", "6;-20;10", "6;20;+10", "6;20;10;5", "6;20", "6;;10", "6;20;1000000", "6;513;8",
    ])
    func implausibleCellRepliesAreRejected(_ body: String) {
        let a = Self.answers("\u{1B}[\(body)t\u{1B}[?62;22c")
        #expect(a.cell == nil, "\(body)")
        #expect(a.rejectedCell == String(body.prefix(40)))
        #expect(a.complete)
    }

    @Test func plausibleCellRepliesAreKept() {
        let a = Self.answers("\u{1B}[6;20;10t\u{1B}[?62;22c")
        #expect(a.cell == PixelSize(width: 10, height: 20) && a.rejectedCell == nil)
        let largest = Self.answers("\u{1B}[6;512;512t")
        #expect(largest.cell == PixelSize(width: 512, height: 512))
        // Other `t` reports (the window in cells, 8;rows;cols) are not the cell.
        let other = Self.answers("\u{1B}[8;24;80t")
        #expect(other.cell == nil && other.rejectedCell == nil)
    }

    /// The reply that trapped in `Window.limit` (cell * columns overflowed) gives a size.
    @Test func limitIsCheckedArithmetic() {
        let huge = PixelSize(width: .max, height: .max)
        let w = TerminalScreen.Window(columns: 65535, rows: 65535, pixels: nil)
        for graphics in GraphicsProtocol.allCases {
            let limit = w.limit(for: graphics, reserve: 2, cell: huge)
            #expect(limit.width >= 1 && limit.width <= Budget.maxSide && limit.height <= Budget.maxSide)
        }
        #expect(
            w.limit(for: .sixel, reserve: 2, cell: PixelSize(width: 8, height: 16))
                == PixelSize(width: 524_280, height: 1_048_528))
        let tiny = TerminalScreen.Window(columns: 80, rows: 1, pixels: nil)
        #expect(
            tiny.limit(for: .blocks, reserve: Int.max, cell: PixelSize(width: 1, height: 2))
                == PixelSize(width: 80, height: 2))
    }

    /// An 80x24 window that says 65535x65535 pixels has no 819x2730 cell: the probe's, or 8x16.
    @Test func implausibleWindowPixelsAreIgnored() {
        let lying = TerminalScreen.Window(columns: 80, rows: 24, pixels: PixelSize(width: 65535, height: 65535))
        #expect(lying.cell() == PixelSize(width: 8, height: 16))
        #expect(lying.cell(probed: PixelSize(width: 10, height: 20)) == PixelSize(width: 10, height: 20))
        #expect(lying.cell(probed: PixelSize(width: 4000, height: 4000)) == PixelSize(width: 8, height: 16))
        let honest = TerminalScreen.Window(columns: 80, rows: 24, pixels: PixelSize(width: 800, height: 480))
        #expect(honest.cell() == PixelSize(width: 10, height: 20))
        let narrow = TerminalScreen.Window(columns: 80, rows: 24, pixels: PixelSize(width: 40, height: 480))
        #expect(narrow.cell() == PixelSize(width: 8, height: 16))
    }

    /// peek's screen is checked against the budget before it is made: a 65535x65535 window
    /// (blocks: 65535x131068 pixels) is refused; an ordinary one is not.
    @Test func peekScreenIsBudgeted() {
        let blocks = PixelSize(width: 1, height: 2)
        #expect(
            PeekScreen.canvas(columns: 65535, rows: 65535, cell: blocks) == PixelSize(width: 65535, height: 131_068))
        #expect(throws: BudgetError.self) {
            try PeekScreen.check(columns: 65535, rows: 65535, cell: blocks, budget: Budget())
        }
        #expect(throws: BudgetError.self) {
            try PeekScreen.check(columns: 300, rows: 100, cell: PixelSize(width: 512, height: 512), budget: Budget())
        }
        #expect(throws: Never.self) {
            try PeekScreen.check(columns: 400, rows: 120, cell: PixelSize(width: 10, height: 20), budget: Budget())
        }
        #expect(throws: Never.self) { try PeekScreen.check(columns: 80, rows: 24, cell: blocks, budget: Budget()) }
        let saturated = PeekScreen.canvas(columns: .max, rows: .max, cell: PixelSize(width: .max, height: .max))
        #expect(saturated == PixelSize(width: Budget.maxSide, height: Budget.maxSide))
    }

    /// Replies built from the pieces a reply has (ESC, [, _, P, digits, ;, t, c, ST, long
    /// digit runs) in random order: the parser never traps, and a cell it keeps is plausible.
    @Test func randomRepliesNeverTrap() {
        let pieces: [[UInt8]] = [
            [0x1B], Array("[".utf8), Array("_".utf8), Array("P".utf8), Array("6;".utf8), Array(";".utf8),
            Array("t".utf8), Array("?".utf8), Array("c".utf8), Array("\u{1B}\\".utf8), [7],
            Array("9223372036854775807".utf8), Array("99999999999999999999".utf8), Array("-1".utf8),
            Array("20".utf8), Array("512".utf8), Array("513".utf8), Array("0".utf8), [0xFF], [0],
        ]
        var state: UInt64 = 40
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<20000 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + next(12)) { bytes += pieces[next(pieces.count)] }
            let a = ProbeAnswers(parsing: bytes)
            if let cell = a.cell { #expect(TerminalScreen.Window.plausible(cell: cell), "\(bytes)") }
            _ = PeekKeys.parse(bytes)
        }
    }

    @Test func ctrlZSuspends() {
        #expect(PeekKeys.parse([0x1A]) == [.suspend])
        #expect(PeekKeys.parse(Array("l".utf8) + [0x1A, UInt8(ascii: "q")]) == [.move(dx: 1, dy: 0), .suspend, .quit])
    }
}
