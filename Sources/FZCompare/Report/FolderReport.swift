import FZSystem

/// A folder comparison's outcome as a whole: its settings and every image's verdict. The
/// writers (`report.json` here, `JUnitReport`, `HTMLReport`) all read it.
public struct FolderReport: Sendable {
    /// The folders as named.
    public var expected: String
    public var actual: String
    /// The metric's name ("psnr").
    public var metric: String
    /// The threshold in force (the folder mode's default when none was given).
    public var threshold: CompareThreshold?
    /// "keep" or "srgb".
    public var icc: String
    public var images: [FolderImage]

    public init(
        expected: String, actual: String, metric: String, threshold: CompareThreshold?, icc: String,
        images: [FolderImage]
    ) {
        self.expected = expected
        self.actual = actual
        self.metric = metric
        self.threshold = threshold
        self.icc = icc
        self.images = images
    }

    /// How many images have each status.
    public func count(_ status: FolderImage.Status) -> Int { images.filter { $0.status == status }.count }

    /// Whether every pair is within and nothing is new or missing (exit 0).
    public var passed: Bool { images.allSatisfy { !$0.status.fails } }

    /// "12 images: 9 passed, 1 changed, 1 new, 1 missing" (statuses with none left out).
    public var summaryLine: String {
        let parts = FolderImage.Status.allCases.compactMap { s -> String? in
            let n = count(s)
            return n == 0 ? nil : "\(n) \(s == .size ? "size mismatch" : s.rawValue)"
        }
        let updates = images.filter { $0.update == .copied }.count
        let pruned = images.filter { $0.update == .pruned }.count
        var line = "\(images.count) image\(images.count == 1 ? "" : "s")"
        if !parts.isEmpty { line += ": " + parts.joined(separator: ", ") }
        if updates > 0 { line += "; \(updates) baseline\(updates == 1 ? "" : "s") updated" }
        if pruned > 0 { line += "; \(pruned) pruned" }
        return line
    }

    /// report.json and `compare --json`'s one record for folders
    /// (docs/json/compare-folder.schema.json).
    public var json: JSON {
        var counts: [(String, JSON)] = [("total", .int(images.count))]
        counts += FolderImage.Status.allCases.map { s -> (String, JSON) in (s.rawValue, .int(count(s))) }
        counts += [
            ("updated", .int(images.filter { $0.update == .copied }.count)),
            ("pruned", .int(images.filter { $0.update == .pruned }.count)),
        ]
        return .object([
            ("schemaVersion", .int(1)), ("mode", .string("folders")),
            ("expected", .string(expected)), ("actual", .string(actual)),
            ("metric", .string(metric)), ("threshold", threshold.map { .number($0.number) } ?? .null),
            ("thresholdType", PairComparison.kind(threshold)),
            ("icc", .string(icc)), ("pass", .bool(passed)), ("counts", .object(counts)),
            ("images", .array(images.map(\.json))),
        ])
    }
}
