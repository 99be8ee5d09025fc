import CFZProcess
import FZSystem
import Geometry
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal, through fz_terminal.c (the one Swift file that calls it): its
/// window size, raw mode with the restore the signal handlers share, bounded reads, writes
/// that bypass stdio (flushed first, so JSON lines and pictures keep their order).
public enum TerminalScreen {
    /// The window: cells, and pixels when the terminal reports them.
    public struct Window: Sendable, Hashable {
        public var columns: Int
        public var rows: Int
        /// The whole text area in pixels, nil when the terminal says 0.
        public var pixels: PixelSize?

        public init(columns: Int, rows: Int, pixels: PixelSize?) {
            self.columns = columns
            self.rows = rows
            self.pixels = pixels
        }

        /// The sizes a cell may have a side, in pixels: terminal fonts run from about 5 to 100
        /// pixels a cell even on 8K screens; "a few hundred" is generous. A reply or a window
        /// report outside it is no measurement to size pictures by.
        public static let cellRange = 1...512

        public static func plausible(cell: PixelSize) -> Bool {
            cellRange.contains(cell.width) && cellRange.contains(cell.height)
        }

        /// One cell in pixels: from `pixels` when that gives a plausible cell, else `probed`
        /// when plausible, else a common 8x16.
        public func cell(probed: PixelSize? = nil) -> PixelSize {
            if let pixels, columns > 0, rows > 0 {
                let derived = PixelSize(width: pixels.width / columns, height: pixels.height / rows)
                if Self.plausible(cell: derived) { return derived }
            }
            if let probed, Self.plausible(cell: probed) { return probed }
            return PixelSize(width: 8, height: 16)
        }

        /// The largest picture `graphics` can show leaving `reserve` rows for text: for blocks,
        /// one pixel a column and two a row; else the cells' pixels. Checked arithmetic, each
        /// side at most `Budget.maxSide` (a window or cell of any size gives a size the budget
        /// can judge).
        public func limit(for graphics: GraphicsProtocol, reserve: Int, cell: PixelSize) -> PixelSize {
            let usable = max(1, rows.subtractingReportingOverflow(reserve).partialValue)
            let c = graphics == .blocks ? PixelSize(width: 1, height: 2) : cell
            return PixelSize(width: Self.product(columns, c.width), height: Self.product(usable, c.height))
        }

        /// a * b within 1...Budget.maxSide (saturating, never trapping).
        static func product(_ a: Int, _ b: Int) -> Int {
            let (p, overflow) = max(1, a).multipliedReportingOverflow(by: max(1, b))
            return overflow ? Budget.maxSide : min(p, Budget.maxSide)
        }
    }

    /// Where pictures and screens are written: standard output, or the controlling terminal
    /// when `peek`'s standard output is redirected (its JSON goes there).
    private static let screen = Atomic<Int32>(1)
    public static var output: Int32 { screen.load(ordering: .relaxed) }

    /// Draws on /dev/tty from now on; false when there is none.
    public static func useControllingTerminal() -> Bool {
        let fd = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return false }
        screen.store(fd, ordering: .relaxed)
        return true
    }

    /// Whether this process is in the terminal's foreground: a background job that touches
    /// the terminal's mode is stopped (SIGTTOU), so only the foreground probes.
    public static var inForeground: Bool { tcgetpgrp(0) == getpgrp() }

    /// Whether descriptor `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// The window of the terminal on `fd`, nil when it is none.
    public static func window(_ fd: Int32 = output) -> Window? {
        var c: Int32 = 0
        var r: Int32 = 0
        var w: Int32 = 0
        var h: Int32 = 0
        guard isTerminal(fd), fz_term_window(fd, &c, &r, &w, &h) == 0, c > 0, r > 0 else { return nil }
        return Window(
            columns: Int(c), rows: Int(r), pixels: w > 0 && h > 0 ? PixelSize(width: Int(w), height: Int(h)) : nil)
    }

    /// Makes the terminal on standard input raw; `leave` is written to `output` when
    /// it is restored (by `restore()`, or by the signal and crash handlers). false when
    /// standard input is no terminal.
    public static func enterRaw(leave: [UInt8] = []) -> Bool {
        leave.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { fz_term_enter_raw(0, output, $0.baseAddress, $0.count) == 0 }
        }
    }

    /// From now on a window resize ends a wait in `read` (which returns no bytes).
    public static func watchResize() { fz_term_watch_resize() }

    /// Whether the window was resized since the last call.
    public static func resized() -> Bool { fz_term_resized() != 0 }

    /// From now on SIGTSTP gives the terminal back (the leave bytes, the saved mode) and
    /// stops; after SIGCONT the mode is raw again, `enter` is written, and `read` returns no
    /// bytes with `continued()` true, so the caller redraws (fz_terminal.c, in the handler).
    public static func watchStop(enter: [UInt8]) {
        _ = enter.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { fz_term_watch_stop($0.baseAddress, $0.count) }
        }
    }

    /// Puts back the SIGTSTP handler `watchStop` found.
    public static func unwatchStop() { fz_term_unwatch_stop() }

    /// Whether the process was stopped and continued since the last call.
    public static func continued() -> Bool { fz_term_continued() != 0 }

    /// Stops the process as the shell's Ctrl-Z would (raw mode sends the key as a byte).
    public static func suspend() { fz_term_suspend() }

    /// Restores the mode saved by `enterRaw` and writes its leave bytes (once).
    public static func restore() { fz_term_restore() }

    /// What standard input holds within `milliseconds` (empty on timeout), nil at its end.
    public static func read(timeout milliseconds: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBufferPointer {
            fz_term_read(0, $0.baseAddress, Int32($0.count), Int32(milliseconds))
        }
        if n < 0 { return nil }
        return Array(buffer[0..<Int(n)])
    }

    /// Writes `bytes` to `output` after what stdio holds: false when it failed.
    @discardableResult
    public static func write(_ bytes: [UInt8]) -> Bool {
        StandardOutput.flush()
        return bytes.withUnsafeBufferPointer { fz_term_write(output, $0.baseAddress, $0.count) } == 0
    }

    /// The variables `TerminalDetection` reads, and every `WEZTERM_*` one.
    public static func environment() -> [String: String] {
        var found: [String: String] = [:]
        for name in TerminalDetection.variables { if let v = getenv(name) { found[name] = String(cString: v) } }
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if text.hasPrefix("WEZTERM_"), let eq = text.firstIndex(of: "=") {
                found[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            p += 1
        }
        return found
    }
}
