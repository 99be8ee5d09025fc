import FZSystem
import Geometry

/// One image of a folder comparison and its verdict: what `report.json`, `junit.xml` and
/// `index.html` each show of it (`FolderReport`).
public struct FolderImage: Sendable {
    /// What became of it.
    public enum Status: String, CaseIterable, Sendable {
        /// Both sides read, the same size, within the threshold.
        case passed
        /// Over the threshold.
        case changed
        /// Both sides read but of different upright sizes (and no --crop-to-smaller).
        case size
        /// A side could not be read (missing, corrupt, over a limit, a profile unusable).
        case unreadable
        /// Only in ACTUAL_DIR: no baseline yet.
        case new
        /// Only in EXPECTED_DIR: the baseline has no actual image.
        case missing

        /// Whether it fails the run (exit 1): everything but passed.
        public var fails: Bool { self != .passed }

        /// The HTML report's filter it shows under: changed covers size and unreadable too.
        public var filter: String {
            switch self {
            case .passed: "passed"
            case .changed, .size, .unreadable: "changed"
            case .new: "new"
            case .missing: "missing"
            }
        }
    }

    /// A measured pair as the reports show it, whatever the metric: made by the pair
    /// comparison (`FolderPairCheck.judge`), so nothing here knows a metric.
    public struct Measures: Sendable {
        /// Within the threshold (no differing pixel when none was given).
        public var pass: Bool
        /// The metric, its value and the threshold: "psnr 4.261257 (at least 40)".
        public var verdict: String
        /// Every measure, for the report's details: "pae 255, psnr 4.261257, ...".
        public var details: String

        public init(pass: Bool, verdict: String, details: String) {
            self.pass = pass
            self.verdict = verdict
            self.details = details
        }
    }

    /// The pictures of it written into the report folder: paths relative to it.
    public struct Pictures: Sendable, Equatable {
        public var expected: String?
        public var actual: String?
        public var diff: String?

        public init(expected: String? = nil, actual: String? = nil, diff: String? = nil) {
            self.expected = expected
            self.actual = actual
            self.diff = diff
        }
    }

    /// What `--update` did with it.
    public enum Update: String, Sendable {
        /// The actual image was copied over (or beside) its baseline.
        case copied
        /// The baseline without an actual image was deleted (`--prune`).
        case pruned
    }

    public var pair: FolderPairing.Pair
    public var status: Status
    /// Why it failed, in words (nil when passed).
    public var message: String?
    public var measures: Measures?
    /// The upright sizes as read (nil: that side is absent or unreadable).
    public var expectedSize: PixelSize?
    public var actualSize: PixelSize?
    public var pictures = Pictures()
    public var update: Update?

    public init(pair: FolderPairing.Pair, status: Status, message: String? = nil) {
        self.pair = pair
        self.status = status
        self.message = message
    }

    /// The pair's own record, as `compare EXPECTED ACTUAL --json` prints it with the same
    /// options (docs/json/compare.schema.json); nil when the pair was not measured.
    public var pairRecord: JSON?

    /// Its record in report.json (docs/json/compare-folder.schema.json, `image`).
    public var json: JSON {
        .object([
            ("path", .string(pair.key)), ("status", .string(status.rawValue)),
            ("expected", pair.expected.map { .string($0) } ?? .null),
            ("actual", pair.actual.map { .string($0) } ?? .null),
            ("expectedSize", expectedSize.map(\.json) ?? .null), ("actualSize", actualSize.map(\.json) ?? .null),
            ("message", message.map { .string($0) } ?? .null), ("pair", pairRecord ?? .null),
            (
                "pictures",
                .object([
                    ("expected", pictures.expected.map { .string($0) } ?? .null),
                    ("actual", pictures.actual.map { .string($0) } ?? .null),
                    ("diff", pictures.diff.map { .string($0) } ?? .null),
                ])
            ),
            ("update", update.map { .string($0.rawValue) } ?? .null),
        ])
    }

    /// One line for the text output and JUnit's failure message: status, path, the measure.
    public var summary: String {
        var text = "\(status.rawValue) \(pair.key)"
        if let e = pair.expected, let a = pair.actual, e != a { text += " (\(e) vs \(a))" }
        if let m = measures { text += ": \(m.verdict)" }
        if let message { text += ": \(message)" }
        if let update { text += update == .copied ? " (baseline updated)" : " (baseline pruned)" }
        return text
    }
}
