import FZCompare
import FZFormat
import FZImage
import FZSystem

/// `forcezoom compare EXPECTED_DIR ACTUAL_DIR`: every image of two folders paired
/// (`FolderPairing`), each pair measured as `compare A B` measures it on `jobs` threads,
/// the baselines updated with `update`, and with `reportFolder` report.json, junit.xml and
/// index.html written there.
///
/// Exit status: 0 when every pair is within and nothing is new or missing; 1 when any
/// image changed, differs in size, is new, missing or unreadable (an unreadable image is a
/// failed pair: the others are still compared and reported); 2 when a folder cannot be
/// walked (as an unreadable input in `compare A B`).
public struct FolderCompareOperation {
    public var expected: String
    public var actual: String
    /// What is asked of each pair, as `compare A B` asks it (metric, threshold, fuzz, masks,
    /// colour mode, limits); its limits are shared by the running pairs: each gets 1/jobs of
    /// --max-memory.
    public var comparison: PairComparison
    public var json: Bool
    public var jobs: Int
    public var update: Bool
    public var prune: Bool
    /// --report: the folder report.json, junit.xml, index.html and images/ go in.
    public var reportFolder: String?

    public init(
        expected: String, actual: String, comparison: PairComparison, json: Bool, jobs: Int, update: Bool,
        prune: Bool, reportFolder: String?
    ) {
        self.expected = expected
        self.actual = actual
        self.comparison = comparison
        self.json = json
        self.jobs = jobs
        self.update = update
        self.prune = prune
        self.reportFolder = reportFolder
    }

    /// Failed (exit 1) when any image fails; throws `FolderPairing.Failure` (exit 2) for a
    /// folder that cannot be walked or a report folder inside a compared one, and
    /// `OutputError` (exit 1) when a report file or a baseline cannot be written.
    public func run(_ report: Report) throws -> Outcome {
        try checkReportOutside()
        let pairing = try FolderPairing(expected: expected, actual: actual)
        var root: OutputFolder?
        if let reportFolder {
            let folder = try OutputFolder.make(reportFolder)
            try folder.checkWritable()
            root = folder
        }
        var images = try measure(pairing.pairs, pictures: root.map { try $0.subfolder("images", create: true) })
        if update { try FolderUpdate.apply(&images, expected: expected, actual: actual, prune: prune) }
        let result = FolderReport(
            expected: expected, actual: actual, metric: comparison.metric.rawValue,
            threshold: comparison.effectiveThreshold, icc: comparison.icc.rawValue, images: images)
        if let root { try write(result, into: root) }
        if json {
            report.record(result.json)
        } else {
            for image in images where image.status.fails { report.line(Echo.line(image.summary)) }
        }
        report.note(result.summaryLine + (reportFolder.map { "; report in \($0)/index.html" } ?? ""))
        // After --update the changed and new images are baselines now; what still fails is
        // what was not accepted (unreadable, missing without --prune).
        let failing = images.contains { $0.status.fails && $0.update == nil }
        return Outcome(failed: failing)
    }

    /// Every pair on `jobs` threads; results in pairing order.
    private func measure(_ pairs: [FolderPairing.Pair], pictures: OutputFolder?) throws -> [FolderImage] {
        var each = comparison
        each.decoding.threads = max(1, Threads.perImage / max(1, jobs))
        if each.decoding.maxMemory > 0 {
            each.decoding.maxMemory = max(1, each.decoding.maxMemory / Int64(max(1, jobs)))
        }
        // Every measure in each pair's record (as `compare E A --json`), the difference
        // picture only for a report.
        each.structural = true
        each.drawsDifference = pictures != nil
        let checker = FolderPairCheck(
            expectedRoot: expected, actualRoot: actual, comparison: each, pictures: pictures)
        var results = [FolderImage?](repeating: nil, count: pairs.count)
        WorkerPool<FolderImage>.run(
            count: pairs.count, threads: jobs, work: { checker.check(pairs[$0], index: $0) },
            onResult: { results[$0] = $1 }, onTick: { true })
        return results.enumerated().map { i, r in
            r ?? FolderImage(pair: pairs[i], status: .unreadable, message: "not compared")
        }
    }

    /// report.json, junit.xml and index.html, each through OutputFile.
    private func write(_ result: FolderReport, into root: OutputFolder) throws(OutputError) {
        for (name, text) in [
            ("report.json", result.json.description + "\n"), ("junit.xml", JUnitReport.xml(result)),
            ("index.html", HTMLReport.html(result)),
        ] {
            let out = try OutputFile(in: root, name: name, path: FileSystem.join(root.path, name))
            do {
                try ImageWriter.writeBytes(Array(text.utf8), into: out)
                try out.commit()
            } catch {
                out.discard()
                throw error
            }
        }
    }

    /// The report folder may not be, or be inside, a compared folder: its pictures would be
    /// walked as images next time, and writing there would change an input. Nor may a
    /// compared folder be, or be inside, the folder the report writes its pictures to
    /// (`REPORT/images`): `--report .` beside `./images` would put them among the baselines.
    /// A compared folder elsewhere inside the report folder (`--report .` over `./expected`)
    /// is left alone: the report writes only `images/` and its three files there.
    private func checkReportOutside() throws(FolderPairing.Failure) {
        guard let reportFolder else { return }
        let target = Self.absolute(reportFolder)
        let pictures = Self.absolute(FileSystem.join(reportFolder, "images"))
        func within(_ path: String, _ folder: String) -> Bool {
            path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        }
        for folder in [expected, actual] {
            guard let inside = FileSystem.resolved(folder) else { continue }
            if within(target, inside) {
                throw FolderPairing.Failure(
                    message:
                        "--report \(Echo.line(reportFolder)) is inside the compared folder \(Echo.line(folder)); write the report elsewhere"
                )
            }
            if within(inside, pictures) {
                throw FolderPairing.Failure(
                    message:
                        "--report \(Echo.line(reportFolder)) would write its pictures into the compared folder \(Echo.line(folder)) (the report's images/ folder); write the report elsewhere"
                )
            }
        }
    }

    /// `path` made absolute with every existing link resolved, the missing tail appended.
    static func absolute(_ path: String) -> String {
        if let resolved = FileSystem.resolved(path) { return resolved }
        let parent = FileSystem.directory(of: path)
        let base = FileSystem.basename(path)
        if parent == path || base.isEmpty { return path }
        let up = absolute(parent)
        return up.hasSuffix("/") ? up + base : up + "/" + base
    }
}
