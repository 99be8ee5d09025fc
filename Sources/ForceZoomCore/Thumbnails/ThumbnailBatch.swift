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
    /// Files the walk passed over (not images by their extension), for the summary.
    public var otherFiles = 0
    public var workers: Int

    public init(thumbnailer: Thumbnailer, sharding: ShardRun, jobs: [ThumbnailPlan.Job], workers: Int) {
        self.thumbnailer = thumbnailer
        self.sharding = sharding
        self.jobs = jobs
        self.workers = workers
    }

    /// How the batch ended.
    public struct Outcome {
        public var counts: BatchProgress
        /// The signal that stopped it (the caller ends the process by it), or nil.
        public var signal: Int32?
        /// The journal could not be synced.
        public var journalFailure: ShardError?
    }

    /// Makes every thumbnail. `onFailure` gets each walk failure (before any work),
    /// `onResult` each result with the counts so far, `onTick` the counts while waiting;
    /// all on the calling thread.
    public func run(
        onFailure: (ThumbnailError, BatchProgress) -> Void, onResult: (ThumbnailResult, BatchProgress) -> Void,
        onTick: (BatchProgress) -> Void
    ) -> Outcome {
        // From here a first Ctrl-C stops handing out work instead of ending the process:
        // running jobs discard their outputs and the summary says what finished.
        Interrupts.deferSignals()
        var counts = BatchProgress(total: jobs.count + walkFailures.count)
        counts.otherFiles = otherFiles
        for failure in walkFailures {
            counts.recordFailure()
            onFailure(failure, counts)
        }
        var configured = thumbnailer
        configured.encodeThreads = Thumbnailer.threads(jobs: workers, images: jobs.count)
        let worker = configured, jobs = self.jobs, sharding = self.sharding
        WorkerPool<ThumbnailResult>.run(
            count: jobs.count, threads: workers,
            work: { i in sharding.make(jobs[i], with: worker, shouldStop: { Interrupts.interrupted }) },
            onResult: { _, result in
                // An interrupted job is not a failure of its input: it is counted as not done.
                if case .failed(.interrupted) = result.outcome {} else { counts.record(result.outcome) }
                onResult(result, counts)
            },
            onTick: {
                onTick(counts)
                return !Interrupts.interrupted
            })
        let signal = Interrupts.signal
        let journalFailure = sharding.finish()  // fsync'd, after an interruption too
        return Outcome(counts: counts, signal: signal, journalFailure: journalFailure)
    }
}
