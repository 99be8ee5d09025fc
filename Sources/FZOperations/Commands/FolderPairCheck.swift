import FZCodecs
import FZCompare
import FZImage
import FZSystem
import Geometry

/// One image of a folder comparison, checked on a worker thread: the pair read and measured
/// as `compare A B` measures it (`measure`, the one call a change of the pair comparison
/// touches), and, for a report, what it shows written as PNGs into the report's folder.
struct FolderPairCheck: Sendable {
    var expectedRoot: String
    var actualRoot: String
    var metric: ImageComparison.Metric
    var threshold: Double?
    var cropToSmaller: Bool
    var icc: ColorPolicy.Mode
    /// Each running pair's share of the limits (`FolderCompareOperation`).
    var decoding: DecodeOptions
    /// `images/` of --report; nil: no pictures are written.
    var pictures: OutputFolder?

    /// The verdict on pair `index`.
    func check(_ pair: FolderPairing.Pair, index: Int) -> FolderImage {
        let e = pair.expected.map { FileSystem.join(expectedRoot, $0) }
        let a = pair.actual.map { FileSystem.join(actualRoot, $0) }
        guard let e, let a else {
            // New or missing: the one side is shown in the report when it can be read.
            var image = FolderImage(pair: pair, status: e == nil ? .new : .missing)
            let path = e ?? a!
            let role = e == nil ? "actual" : "expected"
            do {
                guard pictures != nil else {
                    // No report: the header says the size; nothing is decoded.
                    let size = try ImageReader(path: path, options: decoding).header.uprightSize
                    if e == nil { image.actualSize = size } else { image.expectedSize = size }
                    return image
                }
                let decoded = try decodeUpright(path)
                if e == nil { image.actualSize = decoded.size } else { image.expectedSize = decoded.size }
                let written = try write(decoded, role, index: index)
                if e == nil { image.pictures.actual = written } else { image.pictures.expected = written }
            } catch { image.message = "\(error)" }
            return image
        }
        return measure(pair, e, a, index: index)
    }

    /// Both sides: read as `ComparedPair` reads them, measured, judged.
    private func measure(_ pair: FolderPairing.Pair, _ e: String, _ a: String, index: Int) -> FolderImage {
        let read: ComparedPair
        do {
            read = try ComparedPair.read(
                e, a, policy: ColorPolicy(mode: icc), cropToSmaller: cropToSmaller, decoding: decoding,
                withDifference: pictures != nil)
        } catch {
            if case .sizesDiffer(_, let se, _, let sa) = error {
                var image = FolderImage(pair: pair, status: .size, message: "sizes differ: \(se) and \(sa)")
                (image.expectedSize, image.actualSize) = (se, sa)
                showApart(&image, e, a, index: index)
                return image
            }
            return FolderImage(pair: pair, status: .unreadable, message: error.description)
        }
        let (measures, pairRecord, message) = judge(read)
        var image = FolderImage(pair: pair, status: measures.pass ? .passed : .changed, message: message)
        image.measures = measures
        image.pairRecord = pairRecord
        image.expectedSize = read.sizes.first
        image.actualSize = read.sizes.second
        guard !measures.pass, pictures != nil else { return image }
        do {
            image.pictures.expected = try write(read.first, "expected", index: index)
            image.pictures.actual = try write(read.second, "actual", index: index)
            image.pictures.diff = try write(DifferenceImage.render(read.first, read.second), "diff", index: index)
        } catch { image.message = "\(error)" }
        return image
    }

    /// The pair comparison proper, the one place that knows the metrics: the verdict as the
    /// reports show it, the record `compare EXPECTED ACTUAL --json` prints for the pair
    /// (`CompareOperation.record`), and a note when the metric could not be measured.
    private func judge(_ read: ComparedPair) -> (FolderImage.Measures, JSON, String?) {
        let comparison = ImageComparison(read.first, read.second, structural: metric == .ssim)
        let pass = threshold.map { comparison.within($0, metric: metric) } ?? (comparison.pae == 0)
        var verdict = "\(metric.rawValue) \(comparison.text(metric))"
        if let threshold {
            verdict += " (\(metric.higherIsCloser ? "at least" : "at most") \(JSON.format(threshold)))"
        } else if !pass {
            verdict += " (must be identical: no --threshold)"
        }
        let details = ImageComparison.Metric.allCases.map { "\($0.rawValue) \(comparison.text($0))" }
        let operation = CompareOperation(
            first: read.paths.first, second: read.paths.second, metric: metric, threshold: threshold,
            cropToSmaller: cropToSmaller, icc: icc, json: true, diff: nil, decoding: decoding)
        let record = operation.record(
            read, comparison, pass: threshold.map { comparison.within($0, metric: metric) }, diffBytes: nil)
        let side = StructuralSimilarity.window
        let note = metric == .ssim && comparison.ssim == nil ? "ssim needs at least \(side)x\(side) pixels" : nil
        return (
            FolderImage.Measures(pass: pass, verdict: verdict, details: details.joined(separator: ", ")), record, note
        )
    }

    /// A size mismatch: each side decoded alone for the report (the pair was never held).
    private func showApart(_ image: inout FolderImage, _ e: String, _ a: String, index: Int) {
        guard pictures != nil else { return }
        do {
            image.pictures.expected = try write(decodeUpright(e), "expected", index: index)
            image.pictures.actual = try write(decodeUpright(a), "actual", index: index)
        } catch { image.message = (image.message ?? "") + "; \(error)" }
    }

    /// One image upright (and converted with --icc srgb), within the limits.
    private func decodeUpright(_ path: String) throws -> Image {
        let policy = ColorPolicy(mode: icc)
        var options = decoding
        options.intent = policy.intent
        options.strictProfiles = policy.mode == .srgb && !decoding.lenient
        let reader = try ImageReader(path: path, options: options)
        try options.budget.check("\(path) for the report", size: reader.header.uprightSize)
        var image = try reader.readImage()
        _ = try policy.convert(&image, from: reader.header.color, path: reader.path, lenient: false)
        return image
    }

    /// Writes `image` as `images/NNNNNN/ROLE.png` below the report; returns that relative
    /// path, or nil without a report.
    private func write(_ image: Image, _ role: String, index: Int) throws -> String? {
        guard let pictures else { return nil }
        let folderName = String(repeating: "0", count: max(0, 6 - String(index).count)) + String(index)
        let folder = try pictures.subfolder(folderName, create: true)
        let name = role + ".png"
        let out = try OutputFile(
            in: folder, name: name, path: FileSystem.join(FileSystem.join(pictures.path, folderName), name))
        do {
            try ImageWriter.encode(image, into: out, encoding: .png(.default), threads: 1)
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
        return "images/\(folderName)/\(name)"
    }
}
