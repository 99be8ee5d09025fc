#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal what it is: the queries of `ProbeAnswers.query` at once, in raw mode,
/// answers read until DA1's (which every terminal sends, so it ends the wait early) or until
/// the timeout, about 250 ms in all; the mode is restored whatever happens (the signal
/// handlers restore it too). Only when standard input and output are both terminals: a
/// query written into a pipe or a file would be garbage there, and no answer could come;
/// and only in the foreground (a background job changing the mode would be stopped).
public enum TerminalProbe {
    public static let timeout = 250

    /// The answers, or nil when no probe can be made.
    public static func ask(timeout milliseconds: Int = timeout) -> ProbeAnswers? {
        guard TerminalScreen.isTerminal(0), TerminalScreen.isTerminal(TerminalScreen.output),
            TerminalScreen.inForeground,
            TerminalScreen.enterRaw()
        else { return nil }
        defer { TerminalScreen.restore() }
        guard TerminalScreen.write(ProbeAnswers.query) else { return ProbeAnswers() }
        var received: [UInt8] = []
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1_000_000
            let left = milliseconds - elapsed
            if left <= 0 { break }
            guard let chunk = TerminalScreen.read(timeout: left) else { break }
            received += chunk
            if ProbeAnswers(parsing: received).complete { break }
        }
        return ProbeAnswers(parsing: received)
    }
}
