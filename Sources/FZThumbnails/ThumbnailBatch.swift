import FZSystem

/// A thumb batch as a value: the jobs this shard does, the thumbnailer that makes each, and
/// `run` handing them to worker threads, counting what finished, and stopping on Ctrl-C
/// (`Interrupts`) with the journal synced. The command line reports: it gets each result
/// and the counts on the calling thread, as they come.
public struct ThumbnailBatch {
    public var thumbnailer: Thumbnailer
    public var sharding: ShardRun
    public var jobs: [ThumbnailPlan.Job]
    /// Inputs the walk could not read or list: failures of this batch, reported first.
    public var walkFailures: [ThumbnailError] = []
    /// Files the walk passed over (no image forcezoom reads): each is named (`onSkip`, the
    /// journal) by the shard it falls to, and counted in the summary.
    public var skippedFiles: [SkippedFile] = []
    /// Inputs dropped as the same file as another: named in the summary of the shard they fall to.
    public var duplicates: [DuplicateInput] = []
    /// Subfolders a walk without -r did not search (`BatchProgress.unsearchedFolders`).
    public var unsearchedFolders = 0
    public var workers: Int
    /// `--max-failures`: stop handing out work once this many inputs failed (nil: never).
    public var maxFailures: Int?

    public init(thumbnailer: Thumbnailer, sharding: ShardRun, jobs: [ThumbnailPlan.Job], workers: Int) {
        self.thumbnailer = thumbnailer
        self.sharding = sharding
        self.jobs = jobs
        self.workers = workers
    }

    /// Why a batch stopped before its end (besides a signal).
    public enum Stop: Equatable, Sendable, CustomStringConvertible {
        /// An output found the disk full or the quota spent: the rest would fail alike.
        case outOfSpace(OutputError)
        /// `--max-failures` inputs failed.
        case tooManyFailures(Int)

        public var description: String {
            switch self {
            case .outOfSpace(let e): return "\(e.path): \(e.reason.split(separator: ";").first ?? "")"
            case .tooManyFailures(let n): return "\(n) input\(n == 1 ? "" : "s") failed (--max-failures \(n))"
            }
        }
    }

    /// How the batch ended.
    public struct Outcome {
        public var counts: BatchProgress
        /// The signal that stopped it (the caller ends the process by it), or nil.
        public var signal: Int32?
        /// The journal could not be synced.
        public var journalFailure: ShardError?
        /// Why it stopped early, and the first input (in order) it did not make (nil: none missing).
        public var stop: Stop?
        public var firstNotDone: String?
    }

    /// Makes every thumbnail. `onSkip` gets each file passed over and `onFailure` each walk
    /// failure (before any work),
    /// `onResult` each result with the counts so far, `onTick` the counts while waiting;
    /// all on the calling thread.
    public func run(
        onSkip: (SkippedFile) -> Void = { _ in }, onFailure: (ThumbnailError, BatchProgress) -> Void,
        onResult: (ThumbnailResult, BatchProgress) -> Void, onTick: (BatchProgress) -> Void
    ) -> Outcome {
        // From here a first Ctrl-C stops handing out work instead of ending the process:
        // running jobs discard their outputs and the summary says what finished.
        Interrupts.deferSignals()
        let gate = BatchGate(maxFailures: maxFailures)
        var counts = countBeforeWork(gate: gate, onSkip: onSkip, onFailure: onFailure)
        var notDoneIndexes: [Int] = []
        var configured = thumbnailer
        // Images, not outputs: a ladder's sizes are one image's work.
        configured.encodeThreads = Thumbnailer.threads(jobs: workers, images: Self.groups(of: jobs).count)
        let worker = configured
        let jobs = self.jobs
        let sharding = self.sharding
        // Too many walk failures already: no job is started. Workers ask the gate before each
        // job (the collector's tick would come too late: failures can be quicker than it).
        var started = 0
        // One work item per input: a ladder's sizes are decoded once, on one worker.
        let groups = Self.groups(of: jobs)
        if gate.stop == nil {
            started = WorkerPool<[ThumbnailResult]>.run(
                count: groups.count, threads: workers,
                work: { g in
                    Self.make(Array(jobs[groups[g]]), with: worker, sharding: sharding, gate: gate)
                },
                onResult: { g, results in
                    for (i, result) in zip(groups[g], results) {
                        // An interrupted job is not a failure of its input: it is counted as not done.
                        switch result.outcome {
                        case .failed(.interrupted): break
                        case .failed(.notDone): notDoneIndexes.append(i)
                        default:
                            counts.record(result.outcome)
                        }
                        onResult(result, counts)
                    }
                },
                onTick: {
                    onTick(counts)
                    return !Interrupts.interrupted && gate.stop == nil
                })
        }
        let stop = gate.stop
        let signal = Interrupts.signal
        let journalFailure = sharding.finish()  // fsync'd, after an interruption too
        var outcome = Outcome(counts: counts, signal: signal, journalFailure: journalFailure)
        outcome.stop = stop
        let first = (notDoneIndexes + (started < groups.count ? [groups[started].lowerBound] : [])).min()
        outcome.firstNotDone = first.map { jobs[$0].input.path }
        return outcome
    }
}

extension ThumbnailBatch {
    /// The counts before any job runs: the files passed over and the duplicates that fall to
    /// this shard, and the walk's failures, each said (`onSkip`, `onFailure`) and, for the
    /// failures, told to `gate`.
    func countBeforeWork(
        gate: BatchGate, onSkip: (SkippedFile) -> Void, onFailure: (ThumbnailError, BatchProgress) -> Void
    ) -> BatchProgress {
        var counts = BatchProgress(total: jobs.count + walkFailures.count)
        // Each task of a sharded batch names only its own share of the files passed over.
        for file in skippedFiles where sharding.shard.contains(file.input) {
            counts.skippedFiles.add(file)
            sharding.record(file)
            onSkip(file)
        }
        counts.duplicates = duplicates.filter { self.sharding.shard.contains($0.input) }
        counts.unsearchedFolders = unsearchedFolders
        for failure in walkFailures {
            counts.recordFailure()
            gate.record(.failed(failure))
            onFailure(failure, counts)
        }
        return counts
    }

    /// One work item, on a worker thread: the thumbnails of one input (one job, or a ladder's
    /// sizes from one decode), or each not done once `gate` has stopped the batch.
    static func make(
        _ group: [ThumbnailPlan.Job], with worker: Thumbnailer, sharding: ShardRun, gate: BatchGate
    ) -> [ThumbnailResult] {
        func notDone(_ job: ThumbnailPlan.Job, _ stop: Stop) -> ThumbnailResult {
            let outcome = ThumbnailResult.Outcome.failed(.notDone(path: job.input.path, because: stop.description))
            return ThumbnailResult(input: job.input.path, output: job.output, outcome: outcome)
        }
        if let stop = gate.stop { return group.map { notDone($0, stop) } }
        var results = sharding.make(ladder: group, with: worker) { Interrupts.interrupted || gate.stop != nil }
        // Stopped mid-way by the gate (not by a signal): not done, for the same reason.
        for (k, result) in results.enumerated() {
            if case .failed(.interrupted) = result.outcome, !Interrupts.interrupted, let stop = gate.stop {
                results[k] = notDone(group[k], stop)
            }
        }
        // --max-failures counts inputs: a ladder whose decode failed fails every
        // size, once. A full disk stops the batch whichever size found it.
        let failed = results.filter { $0.error.map { !$0.isStop } ?? false }
        for (k, result) in failed.enumerated() where k == 0 || result.error?.isOutOfSpace == true {
            gate.record(result.outcome)
        }
        return results
    }

    /// The jobs of each input: consecutive jobs of one input with a size (a ladder) make
    /// one group; every other job is a group of its own.
    static func groups(of jobs: [ThumbnailPlan.Job]) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var start = 0
        for i in jobs.indices.dropFirst() {
            let same = jobs[i].size != nil && jobs[i].input == jobs[start].input
            if !same {
                groups.append(start..<i)
                start = i
            }
        }
        if !jobs.isEmpty { groups.append(start..<jobs.count) }
        return groups
    }
}

extension ThumbnailError {
    /// An output that found the disk full or the quota spent.
    var isOutOfSpace: Bool {
        if case .output(let e) = self { return e.isOutOfSpace }
        return false
    }
}

/// What the workers of a batch consult before each job: whether it has stopped (a full
/// disk, `--max-failures` reached), counting failures as they happen on any thread.
final class BatchGate: @unchecked Sendable {
    private let monitor = Monitor()
    private let maxFailures: Int?
    private var failures = 0
    private var reason: ThumbnailBatch.Stop?

    init(maxFailures: Int?) { self.maxFailures = maxFailures }

    var stop: ThumbnailBatch.Stop? { monitor.locked { reason } }

    /// Counts a finished job; a full disk or the last allowed failure stops the batch.
    func record(_ outcome: ThumbnailResult.Outcome) {
        guard case .failed(let error) = outcome, !error.isStop else { return }
        monitor.locked {
            failures += 1
            guard reason == nil else { return }
            // A full disk fails every later output too: no point decoding the rest.
            if case .output(let e) = error, e.isOutOfSpace {
                reason = .outOfSpace(e)
            } else if let maxFailures, failures >= maxFailures {
                reason = .tooManyFailures(maxFailures)
            }
        }
    }
}
