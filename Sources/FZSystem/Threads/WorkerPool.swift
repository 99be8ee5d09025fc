#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs independent jobs on a few POSIX threads while the calling thread collects the
/// results, redraws progress and decides whether to go on.
///
/// Why pthreads: no Foundation (launch cost), and Dispatch would add its own startup and
/// thread management for what is a counter, a mutex and a condition variable. Memory stays
/// bounded: each worker holds one job at a time, so a batch needs `threads` working sets.
/// Results reach `onResult` on the calling thread only, so printing needs no locks.
public final class WorkerPool<Result: Sendable>: @unchecked Sendable {
    // All mutable state below is guarded by `monitor`.
    private let monitor = Monitor()
    private let count: Int
    private let work: @Sendable (Int) -> Result
    private var next = 0
    private var stopping = false
    private var running = 0
    private var finished: [(Int, Result)] = []

    private init(count: Int, work: @escaping @Sendable (Int) -> Result) {
        self.count = count
        self.work = work
    }

    /// Runs jobs 0..<count, each once, in index order of starting.
    /// - Parameters:
    ///   - count: the number of jobs.
    ///   - threads: worker threads (at least 1; never more than `count`).
    ///   - tick: seconds between `onTick` calls while waiting.
    ///   - work: one job, run on a worker thread.
    ///   - onResult: called on the calling thread for each finished job, as they finish.
    ///   - onTick: called on the calling thread after results and every `tick` seconds;
    ///     returning false stops handing out jobs (running ones finish and are reported).
    /// - Returns: how many jobs were started.
    @discardableResult
    public static func run(
        count: Int, threads: Int, tick: Double = 0.1,
        work: @escaping @Sendable (Int) -> Result,
        onResult: (Int, Result) -> Void, onTick: () -> Bool
    ) -> Int {
        let pool = WorkerPool(count: count, work: work)
        let n = max(1, min(threads, count))
        var ids: [pthread_t] = []
        pool.running = n
        for _ in 0..<n {
            if let id = Threads.spawn({ pool.workerLoop() }) {
                ids.append(id)
            } else {
                pool.lock { pool.running -= 1 }
            }
        }
        if ids.isEmpty {  // no thread could start: do the work here
            pool.running = 1
            pool.workerLoop()
        }
        pool.collect(tick: tick, onResult: onResult, onTick: onTick)
        for id in ids { pthread_join(id, nil) }
        return pool.lock { pool.next }
    }

    private func collect(tick: Double, onResult: (Int, Result) -> Void, onTick: () -> Bool) {
        while true {
            let (batch, done) = lock { () -> ([(Int, Result)], Bool) in
                let b = finished
                finished.removeAll(keepingCapacity: true)
                return (b, running == 0)
            }
            for (i, r) in batch { onResult(i, r) }
            if done { return }
            if !onTick() { lock { stopping = true } }
            lock {
                if finished.isEmpty && running > 0 { monitor.wait(seconds: tick) }
            }
        }
    }

    private func workerLoop() {
        while true {
            let index: Int? = lock {
                guard !stopping && next < count else { return nil }
                next += 1
                return next - 1
            }
            guard let index else { break }
            let result = work(index)
            lock {
                finished.append((index, result))
                monitor.signal()
            }
        }
        lock {
            running -= 1
            monitor.signal()
        }
    }

    private func lock<T>(_ body: () -> T) -> T { monitor.locked(body) }
}

/// What a new thread runs (a C thread entry point cannot capture context or generics).
private final class ThreadStart: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

extension Threads {
    /// Runs `background` on a new thread while `foreground` runs on this one, and returns
    /// when both are done: a producer and its consumer. Returns false, having run neither,
    /// when no thread can be started (the caller then does the work serially).
    package static func alongside(_ background: @escaping @Sendable () -> Void, _ foreground: () -> Void) -> Bool {
        guard let id = spawn(background) else { return false }
        foreground()
        pthread_join(id, nil)
        return true
    }

    /// Waits for a thread `spawn` started to end.
    package static func join(_ id: pthread_t) { pthread_join(id, nil) }

    /// Starts a thread running `body`; nil when the system refuses one.
    package static func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let raw = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var id = pthread_t()
        let rc = pthread_create(
            &id, nil,
            { raw in
                Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, raw)
        if rc != 0 {
            Unmanaged<ThreadStart>.fromOpaque(raw).release()
            return nil
        }
        return id
    }
}
