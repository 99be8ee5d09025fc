import FZSystem

/// One task's part of a sharded batch: which shard it is, which planned jobs are its own,
/// which of those a journal says are done, and the journal it appends to.
///
/// Why the whole batch is planned first and cut after: every task then checks the same
/// collisions and numbers `%i` the same way, so shard 3's outputs are exactly the ones a
/// one-machine run would make for those inputs.
public struct ShardRun: Sendable {
    public let shard: Shard
    /// Where the shard came from (`Slurm array task 5`), nil for `--shard K/N` or none.
    public let source: String?
    /// The journal appended to (nil without `--journal`, for a dry run, and until
    /// `openJournal()`).
    public private(set) var journal: Journal?
    /// The journal's path after `%k` (nil without `--journal`).
    public let journalPath: String?
    /// `--resume`: the last record of each input in the journal.
    package let done: [String: JournalRecord]
    /// Whether `--shard` was given (even 1/1): the summary and `--json` then name the shard.
    private let requested: Bool
    /// `--out s3://...`: each finished output is uploaded there (BucketOutput), and what is
    /// done or existing is asked of the bucket.
    public var bucket: BucketOutput?
    /// `--skip-existing` against the bucket: an object under the output's key is kept.
    public var skipExistingInBucket = false

    /// Works out the shard and reads the journal for `--resume`; `openJournal()` opens it
    /// for appending once the plan has checked it is none of the batch's files.
    /// - Parameters:
    ///   - request: `--shard`, nil when not given (the whole batch).
    ///   - environment: the process environment, for `--shard auto`.
    ///   - journal: `--journal`'s pattern (`%k`: the shard index).
    ///   - resume: skip what the journal says is done.
    ///   - budget: what the table of done inputs may take (`Journal.read`).
    /// - Throws: `ShardError`.
    public init(
        request: ShardRequest?, environment: [String: String], journal: String?, resume: Bool,
        budget: Budget = Budget()
    ) throws(ShardError) {
        let (shard, source) = try request?.resolve(environment: environment) ?? (.whole, nil)
        let path = journal.map { Journal.path(pattern: $0, shard: shard) }
        // Read before opening: a journal must not be read while this run appends to it.
        let done =
            resume
            ? try path.map { p throws(ShardError) in try Journal.read(p, budget: budget, key: Journal.outputKey) }
                ?? [:] : [:]
        (self.shard, self.source, self.journalPath, self.done, self.journal) = (shard, source, path, done, nil)
        requested = request != nil
    }

    /// Opens the journal for appending (creating it when missing); nothing without `--journal`.
    /// Call it after `ThumbnailPlan` has checked the journal against every input and output:
    /// opening writes (a newline closing a torn line, or a new empty file).
    /// - Throws: `ShardError.journal` when it cannot be opened or is not a regular file.
    public mutating func openJournal() throws(ShardError) {
        guard let journalPath, journal == nil else { return }
        journal = try Journal.open(appendingTo: journalPath)
    }

    /// `shard 3/8 (Slurm array task 3)`, for the summary; "" for the whole batch.
    public var label: String {
        guard requested else { return "" }
        return "shard \(shard)" + (source.map { " (\($0))" } ?? "")
    }

    /// This shard's jobs, in plan order.
    public func select(_ jobs: [ThumbnailPlan.Job]) -> [ThumbnailPlan.Job] {
        shard.count == 1 ? jobs : jobs.filter { shard.contains($0.input) }
    }

    /// Whether `--resume` skips this job: its last record says ok and its output still has
    /// that size and SHA-256 (reads the output; call it on a worker).
    public func isDone(_ job: ThumbnailPlan.Job) -> Bool {
        guard !done.isEmpty else { return false }
        guard let bucket else {
            return Journal.stillDone(done[Journal.outputKey(job.input.path, job.output)], output: job.output)
        }
        return bucket.stillDone(done[Journal.outputKey(job.input.path, bucket.url(of: job.output))], output: job.output)
    }

    /// Whether the job is passed over: done by the journal, or (`--skip-existing` with a
    /// bucket) an object is under its key. A bucket that cannot be asked is not "existing".
    private func isKept(_ job: ThumbnailPlan.Job) -> Bool {
        if isDone(job) { return true }
        guard let bucket, skipExistingInBucket else { return false }
        return (try? bucket.existing(job.output)) != nil
    }

    /// A kept job's result (its output named as shown: the `s3://` URL with a bucket).
    private func kept(_ job: ThumbnailPlan.Job) -> ThumbnailResult {
        if bucket == nil { StaleTemporaries.remove(beside: job.output) }
        var kept = ThumbnailResult(input: job.input.path, output: shown(job.output), outcome: .skipped)
        kept.size = job.size?.asTyped
        return kept
    }

    /// An output as messages, JSON and the journal name it.
    public func shown(_ output: String) -> String { bucket?.url(of: output) ?? output }

    /// With a bucket: the made thumbnail uploaded (its result then names the object), or
    /// failed with the store's words; the digest for the journal.
    private func deliver(_ result: ThumbnailResult) -> (ThumbnailResult, (bytes: Int64, sha256: String)?) {
        guard let bucket, case .made = result.outcome else { return (result, nil) }
        var delivered = result
        delivered.output = bucket.url(of: result.output)
        switch bucket.upload(result.output, contentType: BucketOutput.contentType(of: result.output)) {
        case .success(let digest): return (delivered, digest)
        case .failure(let failure):
            delivered.outcome = .failed(.bucket(failure))
            return (delivered, nil)
        }
    }

    /// Makes one job: skipped when the journal says it is done, otherwise made by `maker`
    /// and, when it finished (made or failed, not interrupted), recorded in the journal with
    /// the output's size and SHA-256. Runs on a worker thread.
    public func make(_ job: ThumbnailPlan.Job, with maker: Thumbnailer, shouldStop: () -> Bool) -> ThumbnailResult {
        if isKept(job) { return kept(job) }
        let (result, digest) = deliver(maker.make(job, shouldStop: shouldStop))
        record(result, of: job, digest: digest)
        return result
    }

    /// Makes every size of one input (its consecutive jobs, `Thumbnailer.make(ladder:)`):
    /// the sizes the journal says are done are kept, the others made from one decode, each
    /// recorded on its own line, so an input is done when all its sizes are, and a resume
    /// makes only the missing ones.
    public func make(ladder jobs: [ThumbnailPlan.Job], with maker: Thumbnailer, shouldStop: () -> Bool)
        -> [ThumbnailResult]
    {
        if jobs.count == 1, jobs[0].size == nil { return [make(jobs[0], with: maker, shouldStop: shouldStop)] }
        var results: [ThumbnailResult?] = jobs.map { job in isKept(job) ? kept(job) : nil }
        let todo = jobs.indices.filter { results[$0] == nil }
        if !todo.isEmpty {
            let made = maker.make(ladder: todo.map { jobs[$0] }, shouldStop: shouldStop)
            for (i, made) in zip(todo, made) {
                let (result, digest) = deliver(made)
                record(result, of: jobs[i], digest: digest)
                results[i] = result
            }
        }
        return results.compactMap { $0 }
    }

    /// Appends a finished job (made or failed, not interrupted) to the journal, with the
    /// output's size and SHA-256 (`digest`: of the uploaded file, with a bucket).
    private func record(
        _ result: ThumbnailResult, of job: ThumbnailPlan.Job, digest: (bytes: Int64, sha256: String)? = nil
    ) {
        guard let journal else { return }
        let output = shown(job.output)
        switch result.outcome {
        case .made:
            // Read back rather than hashed while encoding: what --resume compares is the
            // file as it landed.
            let d = digest ?? Journal.digest(of: job.output)
            journal.append(
                JournalRecord(
                    input: job.input.path, output: output, status: d == nil ? .failed : .ok, bytes: d?.bytes,
                    sha256: d?.sha256,
                    shard: shard.description, error: d == nil ? "the output cannot be read back" : nil))
        case .failed(.interrupted): break
        case .failed(let e):
            journal.append(
                JournalRecord(
                    input: job.input.path, output: output, status: .failed, bytes: nil, sha256: nil,
                    shard: shard.description,
                    error: e.reason))
        case .skipped: break
        }
    }

    /// Records a file passed over in the journal (`"status":"skipped"` with its reason). A
    /// resume walks again and records it again: the journal says what each run saw, and a
    /// skipped record never makes an input done.
    public func record(_ file: SkippedFile) {
        journal?.append(
            JournalRecord(
                input: file.path, output: "", status: .skipped, bytes: nil, sha256: nil, shard: shard.description,
                reason: file.skip.reason))
    }

    /// A `--json` record with the shard added (`"shard":"3/8"`) when one was asked for.
    public func tag(_ record: JSON) -> JSON {
        guard requested, case .object(var members) = record else { return record }
        members.append(("shard", .string(shard.description)))
        return .object(members)
    }

    /// The end of the batch: the journal flushed to the disk (also after Ctrl-C or SIGTERM).
    /// - Returns: the journal's first write error, if any.
    public func finish() -> ShardError? {
        journal?.sync()
        return journal?.failure
    }
}
