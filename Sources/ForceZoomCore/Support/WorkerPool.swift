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
    // All mutable state below is guarded by `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let count: Int
    private let work: @Sendable (Int) -> Result
    private var next = 0
    private var stopping = false
    private var running = 0
    private var finished: [(Int, Result)] = []

    private init(count: Int, work: @escaping @Sendable (Int) -> Result) {
        self.count = count
        self.work = work
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        pthread_cond_destroy(condition)
        mutex.deallocate()
        condition.deallocate()
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
    public static func run(count: Int, threads: Int, tick: Double = 0.1,
                           work: @escaping @Sendable (Int) -> Result,
                           onResult: (Int, Result) -> Void, onTick: () -> Bool) -> Int {
        let pool = WorkerPool(count: count, work: work)
        let n = max(1, min(threads, count))
        var ids: [pthread_t] = []
        pool.running = n
        for _ in 0..<n {
            let start = ThreadStart { pool.workerLoop() }
            var id = pthread_t()
            let raw = Unmanaged.passRetained(start).toOpaque()
            let rc = pthread_create(&id, nil, { raw in
                Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, raw)
            if rc != 0 {
                Unmanaged<ThreadStart>.fromOpaque(raw).release()
                pool.lock { pool.running -= 1 }
            } else {
                ids.append(id)
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
                if finished.isEmpty && running > 0 {
                    var deadline = timespec()
                    clock_gettime(CLOCK_REALTIME, &deadline)
                    let ns = Int(deadline.tv_nsec) + Int(tick * 1e9)
                    deadline.tv_sec += ns / 1_000_000_000
                    deadline.tv_nsec = ns % 1_000_000_000
                    pthread_cond_timedwait(condition, mutex, &deadline)
                }
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
                pthread_cond_signal(condition)
            }
        }
        lock {
            running -= 1
            pthread_cond_signal(condition)
        }
    }

    private func lock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
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
    static func alongside(_ background: @escaping @Sendable () -> Void, _ foreground: () -> Void) -> Bool {
        let start = ThreadStart(background)
        var id = pthread_t()
        let raw = Unmanaged.passRetained(start).toOpaque()
        let rc = pthread_create(&id, nil, { raw in
            Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, raw)
        if rc != 0 {
            Unmanaged<ThreadStart>.fromOpaque(raw).release()
            return false
        }
        foreground()
        pthread_join(id, nil)
        return true
    }
}
