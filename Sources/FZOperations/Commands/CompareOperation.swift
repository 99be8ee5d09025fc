import FZCompare
import FZImage
import FZSystem

/// `forcezoom compare A B`: the pair compared (`PairComparison`), the difference picture
/// written with `--diff`, and the outcome said the way a harness branches on it: the exit
/// code (0 within, 1 over the threshold, 2 unreadable input or unusable options, 3 sizes
/// differ) and, with `--json`, one record on every outcome, errors included.
public struct CompareOperation {
    public var first: String
    public var second: String
    /// The metric, threshold, fuzz, masks, colour mode and limits.
    public var comparison: PairComparison
    public var json: Bool
    /// `--diff`: where the difference image goes (PNG unless the name says otherwise).
    public var diff: String?

    public init(first: String, second: String, comparison: PairComparison, json: Bool, diff: String?) {
        self.first = first
        self.second = second
        self.comparison = comparison
        self.json = json
        self.diff = diff
        self.comparison.drawsDifference = diff != nil
        self.comparison.structural = json
    }

    /// Ends as the result says: within, `Outcome(failed: true)` over the threshold (the
    /// verdict on standard error, exit 1), and a `ToolFailure` with the exit code otherwise
    /// (its message on standard error). The record or the value is printed first.
    public func run(_ report: Report) throws -> Outcome {
        var result = comparison.compare(first, second)
        if let diff, let picture = result.difference {
            do {
                let target = OutputTarget(.files([diff]))
                try target.checkNotInputs([first, second])
                let bytes = try target.write(picture, protecting: [first, second])
                result.members += [("diff", .string(diff)), ("diffBytes", bytes.map { .int($0) } ?? .null)]
            } catch {
                result = result.failedOutput(file: diff, "\(error)")
            }
        }
        if json {
            report.record(result.record)
        } else if result.reason == nil || result.reason == .threshold, let value = result.value {
            report.line(value)
        }
        switch result.reason {
        case nil: return .done
        case .threshold?:
            report.note(result.message ?? "the images differ")
            return Outcome(failed: true)
        case let reason?:
            throw ToolFailure(result.message ?? reason.rawValue, exitCode: reason.exitCode)
        }
    }
}
