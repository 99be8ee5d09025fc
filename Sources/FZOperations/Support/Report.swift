import FZSystem

/// Where an operation's words go. The core prints nothing itself: the command line hands
/// each operation a report whose closures write records to standard output and messages to
/// standard error, in the order the work meets them (tests can collect them instead).
public struct Report {
    /// One line on standard output (a JSON record or a text line), written as it happens.
    public var line: (String) -> Void
    /// Warnings on standard error (`once`: the same warning said once per run).
    public var warnings: Warnings
    /// An error about one input, when the command goes on with the next one.
    public var error: (String) -> Void
    /// Text for standard error exactly as given (a progress line redrawn in place).
    public var stderr: (String) -> Void

    public init(
        line: @escaping (String) -> Void, warnings: Warnings, error: @escaping (String) -> Void,
        stderr: @escaping (String) -> Void
    ) {
        self.line = line
        self.warnings = warnings
        self.error = error
        self.stderr = stderr
    }

    /// One JSON record on standard output.
    public func record(_ json: JSON) { line(json.description) }

    /// A line of its own on standard error, `forcezoom: ` first (a batch's summary, a
    /// comparison's verdict), escaped as every message is.
    public func note(_ text: String) { stderr("forcezoom: \(Echo.line(text))\n") }
}

/// How an operation ended when it ran to its end: `failed` when some input failed and the
/// others were done (the command line exits 1 without a message of its own: each failure
/// was reported as it happened).
public struct Outcome: Sendable {
    public var failed: Bool
    /// Every failure may pass on a later try (a busy store): exit 75, not 1 (issue 52).
    public var retryLater = false

    public init(failed: Bool) { self.failed = failed }

    public static let done = Outcome(failed: false)

    /// A failed run's exit code: 75 (`EX_TEMPFAIL`) when `retryLater`, else 1.
    public var exitCode: Int32 { retryLater ? RemoteFailure.retryExitCode : 1 }

    /// The failures of a run, counted for `retryLater`: all of them, and those a later run
    /// may not meet (a busy store, a dropped connection).
    public struct Failures: Sendable {
        public private(set) var all = 0
        public private(set) var temporary = 0

        public init() {}

        public mutating func count(temporary: Bool) {
            all += 1
            if temporary { self.temporary += 1 }
        }

        /// Some failed, and every one may pass on a later try.
        public var allTemporary: Bool { all > 0 && temporary == all }
    }
}
