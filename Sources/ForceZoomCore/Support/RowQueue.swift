#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded queue of fixed-size rows between one producer thread (a decoder) and one
/// consumer (the resampler): `slots` rows of `rowBytes`, each filled in place by the producer
/// and copied out by the consumer, under one mutex. Either side can stop the other: the
/// producer with `finish()` (end of data or an error), the consumer with `cancel()` (it needs
/// no more rows), so neither waits forever.
final class RowQueue: @unchecked Sendable {
    private let rowBytes: Int
    private let slots: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `mutex`.
    private var head = 0, count = 0
    private var finished = false, cancelled = false

    init(rowBytes: Int, slots: Int) {
        self.rowBytes = rowBytes
        self.slots = slots
        storage = .allocate(capacity: rowBytes * slots)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        pthread_cond_destroy(changed)
        mutex.deallocate()
        changed.deallocate()
        storage.deallocate()
    }

    /// Producer: fills the next free slot with `fill` (outside the lock) and publishes it.
    /// - Returns: false when `fill` delivered no row or the consumer cancelled.
    func produce(_ fill: (UnsafeMutablePointer<UInt8>) -> Bool) -> Bool {
        pthread_mutex_lock(mutex)
        while count == slots && !cancelled { pthread_cond_wait(changed, mutex) }
        let slot = (head + count) % slots
        let stop = cancelled
        pthread_mutex_unlock(mutex)
        // Only the producer writes a free slot, and the consumer reads only published ones.
        if stop || !fill(storage + slot * rowBytes) { return false }
        pthread_mutex_lock(mutex)
        count += 1
        pthread_cond_signal(changed)
        pthread_mutex_unlock(mutex)
        return true
    }

    /// Producer: no more rows will come.
    func finish() {
        pthread_mutex_lock(mutex)
        finished = true
        pthread_cond_signal(changed)
        pthread_mutex_unlock(mutex)
    }

    /// Consumer: copies the oldest row into `row`; false when the producer finished and
    /// every row was taken.
    func consume(into row: UnsafeMutablePointer<UInt8>) -> Bool {
        pthread_mutex_lock(mutex)
        while count == 0 && !finished { pthread_cond_wait(changed, mutex) }
        guard count > 0 else {
            pthread_mutex_unlock(mutex)
            return false
        }
        let slot = head
        pthread_mutex_unlock(mutex)
        row.update(from: storage + slot * rowBytes, count: rowBytes)
        pthread_mutex_lock(mutex)
        head = (head + 1) % slots
        count -= 1
        pthread_cond_signal(changed)
        pthread_mutex_unlock(mutex)
        return true
    }

    /// Consumer: no more rows are wanted; a waiting producer stops.
    func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_signal(changed)
        pthread_mutex_unlock(mutex)
    }
}
