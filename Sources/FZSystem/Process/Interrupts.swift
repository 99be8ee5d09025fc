import CFZProcess

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C, SIGTERM and SIGHUP during a batch, for the command line (which imports no C):
/// a batch defers them, stops taking work when one came, and ends by that signal at the
/// end, as a shell expects of an interrupted program. The handlers are fz_cleanup.c's.
public enum Interrupts {
    /// From now on an interrupting signal only removes registered temporary outputs and
    /// is remembered (`signal`); the process goes on to finish cleanly.
    public static func deferSignals() { fz_defer_interrupts() }

    /// The deferred signal that came, or nil.
    public static var signal: Int32? {
        let s = fz_interrupted_signal()
        return s == 0 ? nil : s
    }

    /// Whether a deferred signal came (workers poll this to stop).
    public static var interrupted: Bool { fz_interrupted_signal() != 0 }

    /// Ends the process by `signal`, its default action restored (fz_cleanup.c).
    public static func end(by signal: Int32) { fz_end_by_signal(signal) }
}

/// Standard output as the C side buffers it (`print` writes through the same FILE).
public enum StandardOutput {
    /// Hands what is buffered to the system, so a reading script sees a record at once.
    public static func flush() { fflush(fz_stdout()) }

    /// Flushes and reports a write that failed: the errno of the first write that failed
    /// (ENOSPC on /dev/full), or nil when everything was delivered.
    public static func finish() -> Int32? {
        let status = fz_flush_stdout()
        return status == 0 ? nil : status
    }

    /// Whether descriptor 1 was closed when the process started (/dev/full was put there).
    public static var wasClosedAtStart: Bool { fz_stdout_closed_at_start() != 0 }
}
