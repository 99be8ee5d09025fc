import FZSystem

/// A batch's progress on stderr. On a terminal, one line redrawn in place (carriage
/// return, erase to end of line) at most ten times a second and moved out of the way of
/// messages; elsewhere (`--progress` into a log) plain lines, one a second, with no
/// control characters for a log to keep.
struct ProgressLine {
    let enabled: Bool
    /// Where it is drawn: standard error.
    let write: (String) -> Void
    /// Redraw in place (a terminal), or print plain lines.
    let redraw: Bool
    private var shown = false
    private var lastDraw = -1.0

    init(enabled: Bool, redraw: Bool = true, write: @escaping (String) -> Void) {
        self.enabled = enabled
        self.write = write
        self.redraw = redraw
    }

    /// Redraws (or prints a line), unless it did so less than 0.1 s (1 s for lines) ago.
    mutating func draw(_ text: String) {
        guard enabled else { return }
        let now = Stopwatch.now()
        if lastDraw >= 0 && now - lastDraw < (redraw ? 0.1 : 1) && (shown || !redraw) { return }
        lastDraw = now
        if redraw {
            shown = true
            write("\r\u{1B}[K" + Echo.line(text))
        } else {
            write("forcezoom: " + Echo.line(text) + "\n")
        }
    }

    /// Prints messages on a line of their own; the next draw puts the line back.
    mutating func report(_ messages: () -> Void) {
        clear()
        messages()
    }

    mutating func clear() {
        guard enabled && shown && redraw else { return }
        write("\r\u{1B}[K")
        shown = false
    }
}
