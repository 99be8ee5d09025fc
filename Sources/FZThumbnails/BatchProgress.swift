/// Counts a batch as it goes and words its progress line and final summary. Pure: the
/// caller passes the elapsed time, so the text is testable.
public struct BatchProgress: Hashable, Sendable {
    /// Inputs in the batch.
    public let total: Int
    public private(set) var made = 0
    /// Outputs already there and kept (`--skip-existing`, `--resume`): "already done".
    public private(set) var skipped = 0
    public private(set) var failed = 0
    /// Files of the folders walked and lists read that are no image forcezoom reads: not
    /// attempted (not inputs of `total`), each named, grouped in the summary.
    public var skippedFiles = SkipTally()
    /// Inputs taken once as the same file as another (`DuplicateInput`), named in the summary.
    public var duplicates: [DuplicateInput] = []
    /// Subfolders of the folders named that a walk without -r did not search: the summary says
    /// so (`; 17 subfolders not searched: add -r`).
    public var unsearchedFolders = 0

    public init(total: Int) { self.total = total }

    /// Inputs finished one way or another.
    public var done: Int { made + skipped + failed }

    /// Counts one finished input.
    public mutating func record(_ outcome: ThumbnailResult.Outcome) {
        switch outcome {
        case .made: made += 1
        case .skipped: skipped += 1
        case .failed: failed += 1
        }
    }

    /// Counts an input that failed before it could be planned (an unlistable folder).
    public mutating func recordFailure() { failed += 1 }

    /// The line redrawn on a terminal: `37/120 31% 12.3/s ETA 0:07, 1 failed`.
    /// - Parameter elapsed: seconds since the batch started.
    public func line(elapsed: Double) -> String {
        let percent = total > 0 ? done * 100 / total : 100
        var s = "\(done)/\(total) \(percent)%"
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        if done > 0 && rate > 0 {
            s += " \(Self.oneDecimal(rate))/s ETA \(Self.clock(Double(total - done) / rate))"
        } else {
            s += " ETA --"
        }
        if skipped > 0 { s += ", \(skipped) already done" }
        if failed > 0 { s += ", \(failed) failed" }
        return s
    }

    /// The closing line: `120 thumbnails, 1 failed, 9.8 s` (plus those already done, what was
    /// not done after an interruption, the files passed over: `; skipped 3: 2 videos
    /// (.MOV), 1 sidecar (.AAE)`, and the inputs taken once: `; taken once: b.jpg (given twice)`).
    /// - Parameters:
    ///   - elapsed: seconds the batch took.
    ///   - interrupted: the batch was stopped before the end.
    ///   - stopped: why the batch stopped early (a full disk, `--max-failures`), said first.
    public func summary(elapsed: Double, interrupted: Bool = false, stopped: String? = nil) -> String {
        var parts = ["\(made) thumbnail\(made == 1 ? "" : "s")"]
        if skipped > 0 { parts.append("\(skipped) already done") }
        parts.append("\(failed) failed")
        if interrupted || stopped != nil { parts.append("\(total - done) not done") }
        parts.append("\(Self.oneDecimal(elapsed)) s")
        let prefix = stopped.map { "stopped: \($0): " } ?? (interrupted ? "interrupted: " : "")
        return prefix + parts.joined(separator: ", ") + (skippedFiles.summary.map { "; " + $0 } ?? "")
            + (DuplicateInput.summary(duplicates).map { "; " + $0 } ?? "")
            + (Self.unsearched(unsearchedFolders).map { "; " + $0 } ?? "")
    }

    /// `17 subfolders not searched: add -r`, nil for none.
    public static func unsearched(_ count: Int) -> String? {
        count == 0 ? nil : "\(count) subfolder\(count == 1 ? "" : "s") not searched: add -r"
    }

    /// `12.3`: one decimal, no exponent (no Foundation formatting).
    package static func oneDecimal(_ v: Double) -> String {
        let tenths = Int((max(0, v) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `0:07`, `12:34`, `1:02:03`.
    package static func clock(_ seconds: Double) -> String {
        let t = Int(max(0, seconds).rounded(.up))
        let h = t / 3600
        let m = t / 60 % 60
        let s = t % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
