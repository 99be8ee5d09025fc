import FZFormat
import FZGainMap
import FZImage
import FZMetadata
import FZS3
import FZSystem
import FZTerminal
import FZThumbnails
import Geometry
import Glibc

/// `forcezoom thumb`: a batch of thumbnails. The shard is chosen first (a task without its
/// index fails before walking millions of files), the inputs walked, the plan made, this
/// shard's jobs run on the worker pool with a journal, and each result reported as it comes.
public struct ThumbOperation {
    /// Files and folders, and `--from`'s list of paths (`-`: standard input).
    public var inputs: [String]
    public var from: String?
    public var nulSeparated = false
    public var recursive = false
    /// `--out` and `--name`: the folder every thumbnail goes below and the pattern that names
    /// each, with `--format` (else each name's extension chooses), as one target.
    public let target: OutputTarget
    /// What each thumbnail is: size, crop, encoding, colour, metadata.
    public var thumbnailer: ThumbnailSettings
    /// `--size 320,640,1280`: several sizes of each input, from one decode (nil or one
    /// size: the thumbnailer's size).
    public var ladder: ThumbnailLadder?
    public var workers: Int
    public var maxFailures: Int?
    public var shard: ShardRequest?
    public var dryRun = false
    public var journal: String?
    public var resume = false
    public var json = false
    public var quiet = false
    /// `--verbose`: name each file passed over on stderr, with what it is.
    public var verbose = false
    /// Draw the progress line (`--progress`, or standard error is a terminal).
    public var progress = false
    public var display: InlineDisplay?

    /// - Parameter target: a `.folder` target (the batch's outputs are named per input).
    public init(inputs: [String], target: OutputTarget, thumbnailer: ThumbnailSettings, workers: Int) {
        precondition(target.folder != nil, "thumb writes below a folder")
        self.inputs = inputs
        self.target = target
        self.thumbnailer = thumbnailer
        self.workers = workers
    }

    /// The folder every thumbnail goes below, its names' pattern, and `--format`.
    private var out: String { target.folder?.path ?? "" }
    private var name: ThumbnailName { target.folder?.names ?? .standard }
    private var format: OutputFormat? { target.choice.requested }

    /// Processors online: the default number of workers.
    public static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Failed when any input failed or the journal could not be written.
    public func run(_ report: Report) throws -> Outcome {
        let clock = Stopwatch()
        // s3:// inputs, outputs and journal (issue 52): a local staging folder stands for the bucket.
        var bucket = try ThumbBucket(operation: self, out: out)
        defer { bucket.cleanUp() }
        let folder = bucket.folder(out)
        var sharding = try ShardRun(
            request: shard, environment: ShardEngine.environment(), journal: bucket.journalPath(journal),
            resume: resume, budget: thumbnailer.decode.budget)
        (sharding.bucket, sharding.skipExistingInBucket) = (bucket.output, thumbnailer.thumbnailer.skipExisting)
        let listed = try from.map { f throws in try InputWalker.readList(f, nulSeparated: nulSeparated) } ?? []
        var walker = InputWalker(recursive: recursive, excluding: [folder])
        (walker.bucket, walker.excludedPrefixes) = (bucket.client, bucket.output.map { [$0.prefix] } ?? [])
        let walked = walker.collectAll(inputs, listed: listed)
        // Before the plan and any decoding: a Live Photo's movie is its still's, not a video (issue 50).
        let found = LivePhotoPairs.pair(walked, budget: thumbnailer.decode.budget)
        let plan = try bucket.naming { () throws(ThumbnailError) in
            try ThumbnailPlan(
                inputs: found.inputs, folder: folder, name: name, alsoRead: from.map { [$0] } ?? [],
                journal: sharding.journalPath, requested: format, ladder: ladder)
        }
        let jobs = sharding.select(plan.jobs)
        if dryRun {
            dryRunReport(jobs, found, sharding, report)
            return .done
        }
        let maker = try makeThumbnailer(jobs, folder: folder)
        // After the output folder is made (a journal may live in it), before any thumbnail.
        try sharding.openJournal()
        var batch = ThumbnailBatch(thumbnailer: maker, sharding: sharding, jobs: jobs, workers: workers)
        (batch.walkFailures, batch.skippedFiles, batch.maxFailures) = (found.failures, found.skipped, maxFailures)
        (batch.duplicates, batch.unsearchedFolders) = (found.duplicates, found.unsearchedFolders)
        var shown: [String] = []
        // A ladder's sizes fail together when their one decode fails: said once.
        var lastError: (input: String, reason: String)?
        // Failures a later run may not meet (a busy store): all of them so, the exit is 75.
        var failures = Outcome.Failures()
        func count(_ error: ThumbnailError) {
            guard !error.isStop else { return }
            failures.count(temporary: error.isTemporary)
        }
        var journalUpload: S3Failure?
        var line = ProgressLine(enabled: !quiet && progress, redraw: isatty(2) != 0, write: report.stderr)
        let outcome = batch.run(
            onSkip: { file in
                if verbose { line.report { report.note(file.line) } }
                if json { emit(sharding.tag(file.json), report) }
            },
            onFailure: { failure, _ in
                count(failure)
                line.report { report.error(failure.description) }
                if json {
                    emit(
                        sharding.tag(ThumbnailResult(input: failure.path, output: "", outcome: .failed(failure)).json),
                        report)
                }
            },
            onResult: { result, _ in
                if let error = result.error { count(error) }
                let said = result.error.map { (result.input, $0.reason) }
                let repeated = said != nil && lastError?.input == said?.0 && lastError?.reason == said?.1
                if !repeated { reportResult(result, line: &line, report) }
                lastError = said
                if json { emit(sharding.tag(result.json), report) }
                if display != nil, case .made = result.outcome { shown.append(result.output) }
            },
            onTick: { counts in
                line.draw(counts.line(elapsed: clock.elapsed))
                journalUpload = journalUpload ?? bucket.uploadJournal(elapsed: clock.elapsed)
            })
        line.clear()
        journalUpload = bucket.uploadJournal(elapsed: clock.elapsed, force: true) ?? journalUpload
        if let journalUpload { report.error("--journal \(journalUpload.description)") }
        var ended = try finish(outcome, sharding: sharding, elapsed: clock.elapsed, shown: shown, report)
        ended.failed = ended.failed || journalUpload != nil
        ended.retryLater = failures.allTemporary
        return ended
    }

    /// An input's warnings and error, on lines of their own; "interrupted" and "not done"
    /// are left to the summary, which says them once.
    private func reportResult(_ result: ThumbnailResult, line: inout ProgressLine, _ report: Report) {
        let reported = result.error.flatMap { $0.isStop ? nil : $0 }
        guard reported != nil || !result.warnings.isEmpty else { return }
        line.report {
            for w in result.warnings { report.warnings.say("\(result.input): \(w)") }
            if let reported { report.error(reported.description) }
        }
    }

    /// The summary, the end by a signal, the contact strip of `--show`.
    private func finish(
        _ outcome: ThumbnailBatch.Outcome, sharding: ShardRun, elapsed: Double, shown: [String], _ report: Report
    ) throws -> Outcome {
        if let journalFailure = outcome.journalFailure { report.error(journalFailure.description) }
        let label = sharding.label.isEmpty ? "" : sharding.label + ": "
        if !quiet || outcome.stop != nil {
            let summary = outcome.counts.summary(
                elapsed: elapsed, interrupted: outcome.signal != nil, stopped: outcome.stop?.description)
            let rest = outcome.stop == nil ? "" : outcome.firstNotDone.map { "; the first not done: \($0)" } ?? ""
            report.note(label + summary + rest)
        }
        StandardOutput.flush()
        if let signal = outcome.signal { Interrupts.end(by: signal) }
        if let display, let strip = try ThumbnailStrip.make(shown, options: thumbnailer.decode) {
            try display.show([strip])
        }
        return Outcome(failed: outcome.counts.failed > 0 || outcome.journalFailure != nil)
    }

    /// The thumbnailer, writing into `out`. `out` is opened once; every output and subfolder
    /// is made relative to it, never through a link (see OutputFolder), so swapping it
    /// mid-batch changes nothing. A subfolder that cannot be made (a link where `%d` wants a
    /// folder) fails only the outputs that go in it, when they are written: the batch goes on.
    private func makeThumbnailer(_ jobs: [ThumbnailPlan.Job], folder: String) throws -> Thumbnailer {
        let outputFolder = try OutputFolder.make(folder)
        try outputFolder.checkWritable()
        for folder in ThumbnailPlan.folders(of: jobs) { _ = try? outputFolder.subfolder(folder, create: true) }
        var made = thumbnailer.thumbnailer
        made.outputFolder = outputFolder
        return made
    }

    /// --dry-run: each input this shard would do and its output (`input -> output`, or JSON
    /// objects with `input` and `output`), minus what --resume would skip, and the files the
    /// batch would pass over (grouped on stderr, each with `--verbose`); nothing written.
    private func dryRunReport(
        _ jobs: [ThumbnailPlan.Job], _ found: InputWalker.Collected, _ sharding: ShardRun, _ report: Report
    ) {
        let (skipped, duplicates) = (found.skipped, found.duplicates)
        let todo = resume ? jobs.filter { !sharding.isDone($0) } : jobs
        for job in todo {
            if json {
                var members: [(String, JSON)] = [
                    ("input", .string(job.input.path)), ("output", .string(sharding.shown(job.output))),
                ]
                if let size = job.size { members.append(("size", .string(size.asTyped))) }
                emit(sharding.tag(.object(members)), report)
            } else {
                report.line("\(Echo.line(job.input.path)) -> \(Echo.line(sharding.shown(job.output)))")
            }
        }
        let label = sharding.label.isEmpty ? "" : sharding.label + ": "
        let mine = skipped.filter { sharding.shard.contains($0.input) }
        if verbose { for file in mine { report.note(file.line) } }
        if !quiet {
            let skips = SkipTally(mine).summary.map { "; " + $0 } ?? ""
            let once = DuplicateInput.summary(duplicates.filter { sharding.shard.contains($0.input) }).map { "; " + $0 }
            let unsearched = BatchProgress.unsearched(found.unsearchedFolders).map { "; " + $0 } ?? ""
            report.note(
                "\(label)dry run: \(todo.count) of \(jobs.count) input\(jobs.count == 1 ? "" : "s") to do\(skips)\(once ?? "")\(unsearched)"
            )
        }
        StandardOutput.flush()
    }

    /// One JSON Lines record, flushed at once so a reading script sees it as it happens.
    private func emit(_ record: JSON, _ report: Report) {
        report.line(record.versioned.description)
        StandardOutput.flush()
    }
}

/// What each thumbnail is: its box and crop, how it is decoded and encoded, its colour and
/// metadata (`Thumbnailer`'s settings, filled by the command line from its options).
public struct ThumbnailSettings: Sendable {
    package var thumbnailer: Thumbnailer

    public init(size: ThumbnailSize, decode: DecodeOptions, encode: EncodeSettings, skipExisting: Bool) {
        thumbnailer = Thumbnailer(size: size, decode: decode, encode: encode, skipExisting: skipExisting)
    }

    public var decode: DecodeOptions { thumbnailer.decode }
    /// `--explain`: the heat map's path (`%s`: the input's stem), `Thumbnailer.explain`.
    public var explain: String? {
        get { thumbnailer.explain }
        set { thumbnailer.explain = newValue }
    }
    /// How each thumbnail is encoded (its format is the target's choice, per name).
    public var encode: EncodeSettings { thumbnailer.encode }

    /// Fill the box, cutting evenly (`centre`) or around a point; nil: fit inside it.
    /// The place is found per input (`Thumbnailer.place`), so its record says how.
    public mutating func crop(centre: Bool, at place: Where?) {
        switch place {
        case .point(let t)?:
            thumbnailer.crop = .point(t)
            thumbnailer.place = .point(t)
        case let word?:
            thumbnailer.crop = .centre
            thumbnailer.place = word
        case nil: if centre { thumbnailer.crop = .centre }
        }
    }

    public var colorPolicy: ColorPolicy {
        get { thumbnailer.colorPolicy }
        set { thumbnailer.colorPolicy = newValue }
    }

    public var metadata: MetadataPolicy {
        get { thumbnailer.metadata }
        set { thumbnailer.metadata = newValue }
    }

    public var gainMap: GainMapPolicy {
        get { thumbnailer.gainMap }
        set { thumbnailer.gainMap = newValue }
    }

    public var hdrHeadroom: HDRHeadroom {
        get { thumbnailer.hdrHeadroom }
        set { thumbnailer.hdrHeadroom = newValue }
    }

    public var useEmbeddedThumbnail: Bool {
        get { thumbnailer.useEmbeddedThumbnail }
        set { thumbnailer.useEmbeddedThumbnail = newValue }
    }
}
