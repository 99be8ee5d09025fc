import FZFormat
import FZImage
import FZSystem
import Geometry

/// One comparison of two image files, as `compare A B` makes it and as a folder comparison
/// makes it per pair: the options in, a `PairResult` out (verdict, exit code, message,
/// JSON record, difference picture). Nothing is printed or written here.
public struct PairComparison: Sendable {
    public var metric: CompareMetric = .psnr
    /// nil: the metric's default (`CompareMetric.defaultThreshold`).
    public var threshold: CompareThreshold?
    /// nil: none for `ae` (any difference counts), 0.1 for `pixelmatch`.
    public var fuzz: PixelFuzz?
    /// pixelmatch: count anti-aliased pixels as differences.
    public var includeAA = false
    public var icc: ColorPolicy.Mode = .keep
    public var cropToSmaller = false
    /// Regions left out of every measure (`--mask`): the second image takes the first's
    /// pixels there, so they count as equal (and in the ratios' total).
    public var masks: [PixelRect] = []
    /// Limits and how files are read (`--max-pixels`, `--max-memory`, `--no-auto-orient`).
    public var decoding = DecodeOptions()
    /// Make the difference picture (`--diff`): it meets the budget with the two images.
    public var drawsDifference = false
    /// Measure SSIM when it is not the metric too (the JSON record has every measure).
    public var structural = true

    public init() {}

    /// The threshold in force.
    public var effectiveThreshold: CompareThreshold? { threshold ?? metric.defaultThreshold }

    /// Reads `a` and `b` and measures them; every failure is a result, never a throw.
    public func compare(_ a: String, _ b: String) -> PairResult {
        do throws(ComparedPair.Failure) {
            return measure(try read(a, b))
        } catch {
            return failure(error, a, b)
        }
    }

    /// Reads `a` and `b` as `compare` does (upright, converted with --icc srgb, cut with
    /// --crop-to-smaller, within the limits), for a caller that needs the pair too (the
    /// folder comparison writes both sides into its report).
    public func read(_ a: String, _ b: String) throws(ComparedPair.Failure) -> ComparedPair {
        try ComparedPair.read(
            a, b, policy: ColorPolicy(mode: icc), cropToSmaller: cropToSmaller, decoding: decoding,
            withDifference: drawsDifference)
    }

    /// The result of a pair `read` refused: a size mismatch or an unreadable input.
    public func failure(_ error: ComparedPair.Failure, _ a: String, _ b: String) -> PairResult {
        let names: [(String, JSON)] = [
            ("a", .string(StandardStream.inputName(a))), ("b", .string(StandardStream.inputName(b))),
        ]
        switch error {
        case .sizesDiffer(_, let sa, _, let sb):
            return .failure(.size, error.description, names + [("aSize", sa.json), ("bSize", sb.json)])
        case .unreadable(let path, _), .color(let path, _), .overBudget(let path, _):
            return .failure(.unreadable, error.description, names + [("file", .string(path))])
        }
    }

    /// Measures a pair already read.
    public func measure(_ read: ComparedPair) -> PairResult {
        var second = read.second
        let masked = Self.mask(&second, from: read.first, masks)
        let first = read.first
        let names: [(String, JSON)] = [("a", .string(read.paths.first)), ("b", .string(read.paths.second))]
        let result = ImageComparison(first, second, structural: structural || metric == .ssim)
        if metric == .ssim && result.ssim == nil {
            let side = StructuralSimilarity.window
            return .failure(
                .usage,
                "\(read.paths.first): ssim needs at least \(side)x\(side) pixels, the images are \(first.size); use --metric psnr",
                names)
        }
        let pixels = first.width * first.height
        var count: (different: Int, antialiased: Int?)?
        var picture: Image?
        switch metric {
        case .ae:
            var marks: [Bool]? = drawsDifference ? [] : nil
            let n = AbsoluteErrorCount.count(first, second, fuzz: fuzz?.quantum16 ?? 0, marks: &marks)
            count = (different: n, antialiased: nil)
            if let marks { picture = DifferenceImage.render(first, marked: marks) }
        case .pixelmatch:
            let (r, image) = Pixelmatch.compare(
                first, second, threshold: fuzz?.yiqThreshold ?? Pixelmatch.defaultThreshold, includeAA: includeAA,
                draw: drawsDifference)
            count = (different: r.different, antialiased: Optional(r.antialiased))
            picture = image
        default:
            if drawsDifference { picture = DifferenceImage.render(first, second) }
        }
        var value = JSON.null
        var text = ""
        if let count {
            value = .int(count.different)
            text = String(count.different)
        } else if let m = metric.measure {
            text = result.text(m)
            if let v = result.value(m) { value = v.isInfinite ? .string("inf") : .number(v) }
        }
        let threshold = effectiveThreshold
        let pass = threshold.map { within($0, result: result, count: count?.different, pixels: pixels) }
        var members =
            names + [
                ("aSize", read.sizes.first.json), ("bSize", read.sizes.second.json),
                ("comparedSize", first.size.json), ("channels", .int(result.channels)),
                ("icc", .string(icc.rawValue)), ("metric", .string(metric.rawValue)), ("value", value),
            ]
        members += result.jsonMembers
        members += [
            ("pixels", .int(pixels)), ("maskedPixels", .int(masked)),
            ("differentPixels", count.map { .int($0.different) } ?? .null),
            ("differentRatio", count.map { .number(Double($0.different) / Double(max(1, pixels))) } ?? .null),
            ("antialiasedPixels", count?.antialiased.map { .int($0) } ?? .null),
            ("fuzz", fuzzText.map { .string($0) } ?? .null),
            ("threshold", threshold.map { .number($0.number) } ?? .null),
            ("thresholdType", Self.kind(threshold)),
            ("pass", pass.map { .bool($0) } ?? .null),
        ]
        guard pass == false, let threshold else {
            return PairResult(reason: nil, message: nil, members: members, value: text, difference: picture)
        }
        let side = metric.measure?.higherIsCloser == true ? "under" : "over"
        var shown = text
        if count != nil, case .ratio = threshold {
            shown += " pixels (\(JSON.format(Double(count!.different) / Double(max(1, pixels)) * 100))%)"
        }
        let message =
            "\(read.paths.first) and \(read.paths.second) differ: \(metric.rawValue) \(shown) is \(side) --threshold \(Self.text(threshold))"
        return PairResult(reason: .threshold, message: message, members: members, value: text, difference: picture)
    }

    /// The per-pixel tolerance in force, as written: nil for the measures.
    var fuzzText: String? {
        switch metric {
        case .ae: return (fuzz ?? PixelFuzz(value: 0, percent: false)).text
        case .pixelmatch: return (fuzz ?? PixelFuzz(value: Pixelmatch.defaultThreshold, percent: false)).text
        default: return nil
        }
    }

    /// Whether the pair is within `threshold`: a count at most it (or its ratio of the
    /// pixels at most the ratio, as jest-image-snapshot's `diffRatio <= failureThreshold`),
    /// PSNR and SSIM at least it, PAE and MAE at most it.
    func within(_ threshold: CompareThreshold, result: ImageComparison, count: Int?, pixels: Int) -> Bool {
        switch threshold {
        case .value(let v):
            if let count { return Double(count) <= v }
            return metric.measure.map { result.within(v, metric: $0) } ?? false
        case .ratio(let r):
            guard let count else { return false }
            return Double(count) / Double(max(1, pixels)) <= r
        }
    }

    /// `thresholdType`: value, ratio or null.
    static func kind(_ threshold: CompareThreshold?) -> JSON {
        switch threshold {
        case .value?: return .string("value")
        case .ratio?: return .string("ratio")
        case nil: return .null
        }
    }

    /// A threshold as the option writes it.
    public static func text(_ threshold: CompareThreshold) -> String {
        switch threshold {
        case .value(let v): return JSON.format(v)
        case .ratio(let r): return JSON.format(r * 100) + "%"
        }
    }

    /// Copies `source`'s pixels into `image` inside each of `masks` (clipped to the image)
    /// and returns how many pixels the masks cover (overlaps counted once).
    static func mask(_ image: inout Image, from source: Image, _ masks: [PixelRect]) -> Int {
        let bounds = PixelRect(size: image.size)
        let rects = masks.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        guard !rects.isEmpty else { return 0 }
        let c = image.format.channels
        var covered = 0
        for y in 0..<image.height {
            // The row's covered spans, merged, so an overlap is counted once.
            let spans = rects.filter { y >= $0.y && y < $0.maxY }.map { ($0.x, $0.maxX) }.sorted { $0.0 < $1.0 }
            var end = 0
            for (x0, x1) in spans {
                let start = max(x0, end)
                if x1 > start { covered += x1 - start }
                end = max(end, x1)
                let row = (y * image.width + x0) * c
                image.pixels.replaceSubrange(
                    row..<(row + (x1 - x0) * c), with: source.pixels[row..<(row + (x1 - x0) * c)])
            }
        }
        return covered
    }
}
