import FZImage
import FZSystem

/// The held decode's rows as they arrive, for a second thread that reduces them meanwhile:
/// the score map of `thumb --crop-at attention` is a box reduction of the whole held image,
/// which took 3-4 ms after the decode on one core while the other waited (issue 49).
final class HeldRows: @unchecked Sendable {
    private let monitor = Monitor()
    // Guarded by `monitor`.
    private var ready = 0
    private var finished = false
    /// The row count the reader waits for (0: it is not waiting). A wake-up a row cost
    /// more than the reduction saved (a futex call each of 848 rows): it waits for a chunk.
    private var wanted = 0
    private let height: Int
    private static let chunk = 64
    private let base: UnsafeMutablePointer<UInt8>
    private let rowBytes: Int

    private init(base: UnsafeMutablePointer<UInt8>, rowBytes: Int, height: Int) {
        self.base = base
        self.rowBytes = rowBytes
        self.height = height
    }

    /// Runs `decode`, which fills rows from the top down at `base` and calls its argument
    /// with how many are done, while `box` (when there is one and `threads` > 1) reduces
    /// the rows as they come. Returns the reduction, or nil without a box or a thread. Rows
    /// `decode` leaves unfilled are read as they are (zero), as the held image keeps them.
    static func reducing(
        with box: Resampler?, threads: Int, base: UnsafeMutablePointer<UInt8>, rowBytes: Int, height: Int,
        decode: ((Int) -> Void) -> Void
    ) -> Image? {
        guard let box, threads > 1 else {
            decode { _ in }
            return nil
        }
        let rows = HeldRows(base: base, rowBytes: rowBytes, height: height)
        let result = Slot()
        let ran = Threads.alongside(
            { result.image = box.run { y, row in rows.copy(y, into: row) } },
            {
                decode { n in rows.publish(n) }
                rows.finish()
            })
        if !ran { decode { _ in } }
        return ran ? result.image : nil
    }

    private func publish(_ n: Int) {
        monitor.locked {
            ready = n
            if wanted > 0 && n >= wanted { monitor.signal() }
        }
    }

    private func finish() {
        monitor.locked {
            finished = true
            monitor.signal()
        }
    }

    /// Waits for row `y` (or the end of the decode) and copies it.
    private func copy(_ y: Int, into row: UnsafeMutablePointer<UInt8>) -> Bool {
        monitor.locked {
            while ready <= y && !finished {
                wanted = min(height, y + Self.chunk)
                monitor.wait()
            }
            wanted = 0
        }
        row.update(from: base + y * rowBytes, count: rowBytes)
        return true
    }

    /// The reduction, written by the second thread and read after it is joined.
    private final class Slot: @unchecked Sendable {
        var image: Image?
    }
}
