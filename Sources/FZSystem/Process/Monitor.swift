#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with one condition variable: the locking under `WorkerPool` and
/// `RowQueue`. `wait` and `signal` are called with the lock held (inside `locked`).
package final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
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

    package func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Waits for a signal (the lock is released while waiting).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal or `seconds`, whichever comes first.
    package func wait(seconds: Double) {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let ns = Int(deadline.tv_nsec) + Int(seconds * 1e9)
        deadline.tv_sec += ns / 1_000_000_000
        deadline.tv_nsec = ns % 1_000_000_000
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter (workers and a consumer waiting on the one condition).
    package func broadcast() { pthread_cond_broadcast(condition) }
}
