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

        /// One cell in pixels (from `pixels`, else `probed`, else a common 8x16).
        public func cell(probed: PixelSize? = nil) -> PixelSize {
            if let pixels, columns > 0, rows > 0 {
                return PixelSize(width: max(1, pixels.width / columns), height: max(1, pixels.height / rows))
            }
            return probed ?? PixelSize(width: 8, height: 16)
        }

        /// The largest picture `graphics` can show leaving `reserve` rows for text: for blocks,
        /// one pixel a column and two a row; else the cells' pixels.
        public func limit(for graphics: GraphicsProtocol, reserve: Int, cell: PixelSize) -> PixelSize {
            let usable = max(1, rows - reserve)
            if graphics == .blocks { return PixelSize(width: max(1, columns), height: 2 * usable) }
            return PixelSize(width: max(1, columns * cell.width), height: max(1, usable * cell.height))
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
