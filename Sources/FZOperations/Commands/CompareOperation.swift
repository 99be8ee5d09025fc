import FZCodecs
import FZCompare
import FZImage
import FZSystem

/// `forcezoom compare`: two images decoded upright (and with `--icc srgb` converted), their
/// distance measured, a difference image written with `--diff`, and the verdict against a
/// threshold.
public struct CompareOperation {
    public var first: String
    public var second: String
    public var metric: ImageComparison.Metric
    public var threshold: Double?
    public var cropToSmaller: Bool
    public var icc: ColorPolicy.Mode
    public var json: Bool
    /// `--diff`: where the difference image goes (PNG unless the name says otherwise).
    public var diff: String?
    /// How both inputs are read: their limits (`--max-pixels`, `--max-memory`) bound the two
    /// decoded images and the difference image together.
    public var decoding: DecodeOptions

    public init(
        first: String, second: String, metric: ImageComparison.Metric, threshold: Double?, cropToSmaller: Bool,
        icc: ColorPolicy.Mode, json: Bool, diff: String?, decoding: DecodeOptions = DecodeOptions()
    ) {
        self.decoding = decoding
        self.first = first
        self.second = second
        self.metric = metric
        self.threshold = threshold
        self.cropToSmaller = cropToSmaller
        self.icc = icc
        self.json = json
        self.diff = diff
    }

    /// Failed when the images differ beyond the threshold (the verdict is on standard error).
    public func run(_ report: Report) throws -> Outcome {
        let pair: ComparedPair
        do {
            pair = try ComparedPair.read(
                first, second, policy: ColorPolicy(mode: icc), cropToSmaller: cropToSmaller, decoding: decoding,
                withDifference: diff != nil)
        } catch { throw ToolFailure(error.description) }
        let result = ImageComparison(pair.first, pair.second, structural: json || metric == .ssim)
        if metric == .ssim && result.ssim == nil {
            throw ToolFailure(
                "\(pair.paths.first): ssim needs at least \(StructuralSimilarity.window)x\(StructuralSimilarity.window) pixels, the images are \(pair.first.size); use --metric psnr"
            )
        }
        var bytes: Int64?
        if let diff {
            let target = OutputTarget(.files([diff]))
            try target.checkNotInputs([first, second])
            bytes = try target.write(DifferenceImage.render(pair.first, pair.second), protecting: [first, second])
        }
        let pass = threshold.map { result.within($0, metric: metric) }
        if json {
            report.record(record(pair, result, pass: pass, diffBytes: bytes))
        } else {
            report.line(result.text(metric))
        }
        guard let threshold, pass == false else { return .done }
        let side = metric.higherIsCloser ? "under" : "over"
        report.note(
            "\(pair.paths.first) and \(pair.paths.second) differ: \(metric.rawValue) \(result.text(metric)) is \(side) --threshold \(Echo.number(threshold))"
        )
        return Outcome(failed: true)
    }

    /// The --json record: both inputs, every measure, the verdict and the difference image.
    /// A folder comparison embeds it per pair (`FolderPairCheck`).
    func record(_ pair: ComparedPair, _ result: ImageComparison, pass: Bool?, diffBytes: Int64?) -> JSON {
        var members: [(String, JSON)] = [
            ("a", .string(pair.paths.first)), ("b", .string(pair.paths.second)),
            ("aSize", pair.sizes.first.json), ("bSize", pair.sizes.second.json),
            ("comparedSize", pair.first.size.json), ("channels", .int(result.channels)),
            ("icc", .string(icc.rawValue)), ("metric", .string(metric.rawValue)),
        ]
        members += result.jsonMembers
        members += [
            ("threshold", threshold.map { .number($0) } ?? .null), ("pass", pass.map { .bool($0) } ?? .null),
        ]
        if let diff { members += [("diff", .string(diff)), ("diffBytes", diffBytes.map { .int($0) } ?? .null)] }
        return JSON.record(members)
    }
}
