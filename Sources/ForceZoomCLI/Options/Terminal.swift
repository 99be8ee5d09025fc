import FZOperations
import Geometry
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// stderr helpers: one line per message, unbuffered.
enum Terminal {
    /// Through `StandardError`: the real stderr even while libjxl's messages are held back.
    static func writeError(_ text: String) { StandardError.write(text) }

    /// Messages are escaped whole (`Echo.line`): a file name can hold any byte, and none
    /// of them may move the cursor, retitle the terminal or start a line of its own.
    static func error(_ message: String) { writeError("forcezoom: error: \(Echo.line(message))\n") }
    static func warning(_ message: String) { writeError("forcezoom: warning: \(Echo.line(message))\n") }

    /// The same warning said once per run (a profile left out of every output of a crop).
    static func warningOnce(_ message: String) {
        let first = said.withLock { $0.insert(message).inserted }
        if first { warning(message) }
    }

    private static let said = Mutex<Set<String>>([])

    /// Whether standard error is a terminal (progress lines only then).
    static var stderrIsTerminal: Bool { isatty(2) != 0 }
}

extension Report {
    /// Records to standard output, messages to standard error, as a command prints them.
    static var terminal: Report {
        Report(
            line: { print($0) }, warnings: Terminal.warnings, error: { Terminal.error($0) },
            stderr: { Terminal.writeError($0) })
    }
}

extension Terminal {
    /// Warnings written to standard error (`once`: the same one said once per run).
    static var warnings: Warnings { Warnings(say: { Terminal.warning($0) }, once: { Terminal.warningOnce($0) }) }
}
