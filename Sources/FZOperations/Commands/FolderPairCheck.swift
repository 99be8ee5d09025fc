import FZCodecs
import FZCompare
import FZFormat
import FZImage
import FZSystem
import Geometry

/// One image of a folder comparison, checked on a worker thread: the pair read and measured
/// by the same `PairComparison` `compare A B` uses, and, for a report, what it shows written
/// as PNGs into the report's folder.
struct FolderPairCheck: Sendable {
    var expectedRoot: String
    var actualRoot: String
    /// What is asked of each pair; its `decoding` is each running pair's share of the limits
    /// (`FolderCompareOperation`).
    var comparison: PairComparison
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
                    let size = try ImageReader(path: path, options: comparison.decoding).header.uprightSize
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

    /// Both sides: read and measured by the pair comparison, its record kept.
    private func measure(_ pair: FolderPairing.Pair, _ e: String, _ a: String, index: Int) -> FolderImage {
        let read: ComparedPair
        do throws(ComparedPair.Failure) {
            read = try comparison.read(e, a)
        } catch {
            let result = comparison.failure(error, e, a)
            guard case .sizesDiffer(_, let se, _, let sa) = error else {
                var image = FolderImage(pair: pair, status: .unreadable, message: error.description)
                image.pairRecord = result.record
                return image
            }
            var image = FolderImage(pair: pair, status: .size, message: "sizes differ: \(se) and \(sa)")
            (image.expectedSize, image.actualSize) = (se, sa)
            image.pairRecord = result.record
            showApart(&image, e, a, index: index)
            return image
        }
        let result = comparison.measure(read)
        var image = FolderImage(pair: pair, status: Self.status(result.reason))
        image.pairRecord = result.record
        image.expectedSize = read.sizes.first
        image.actualSize = read.sizes.second
        // A pair that could not be measured (ssim of an image under 11x11) says why.
        guard result.reason == nil || result.reason == .threshold else {
            image.message = result.message
            return image
        }
        image.measures = measures(result)
        guard result.reason != nil, pictures != nil else { return image }
        do {
            image.pictures.expected = try write(read.first, "expected", index: index)
            image.pictures.actual = try write(read.second, "actual", index: index)
            if let difference = result.difference { image.pictures.diff = try write(difference, "diff", index: index) }
        } catch { image.message = "\(error)" }
        return image
    }

    /// A measured pair's status: within (or no threshold) passed, over it changed, and one
    /// the options could not be applied to unreadable (it was not compared).
    static func status(_ reason: PairResult.Reason?) -> FolderImage.Status {
        switch reason {
        case nil: .passed
        case .threshold?: .changed
        case .size?: .size
        case .unreadable?, .usage?, .output?: .unreadable
        }
    }

    /// The verdict as the reports show it: the metric's value against the threshold, and
    /// every measure the record has.
    private func measures(_ result: PairResult) -> FolderImage.Measures {
        let metric = comparison.metric
        var verdict = "\(metric.rawValue) \(result.value ?? "?")"
        if let threshold = comparison.effectiveThreshold {
            let closer = metric.measure?.higherIsCloser == true ? "at least" : "at most"
            verdict += " (\(closer) \(PairComparison.text(threshold)))"
        }
        let shown = ["pae", "psnr", "mae", "ssim", "differentPixels"]
        // Text, not JSON: identical images' PSNR is the word inf (JSON's "inf" has quotes).
        let details = result.members.filter { shown.contains($0.0) && $0.1 != .null }.map { name, value in
            if case .string(let word) = value { return "\(name) \(word)" }
            return "\(name) \(value)"
        }
        return FolderImage.Measures(
            pass: result.reason == nil, verdict: verdict, details: details.joined(separator: ", "))
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
        let policy = ColorPolicy(mode: comparison.icc)
        var options = comparison.decoding
        options.intent = policy.intent
        options.strictProfiles = policy.mode == .srgb && !comparison.decoding.lenient
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
