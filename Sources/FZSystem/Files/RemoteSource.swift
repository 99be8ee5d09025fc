/// Where a `RemoteSource` gets its bytes: one request per call (HTTP, S3...).
package protocol RangeFetcher: AnyObject {
    /// The input as named in messages (no credentials).
    var name: String { get }
    /// Bytes `range` of the object (fewer only at its end) and the object's length.
    func fetch(_ range: Range<Int>) throws(RemoteFailure) -> (bytes: [UInt8], total: Int)
    /// False once the server has answered a range with the whole object (200): then each
    /// request streams from byte 0 and stops at the range's end.
    var honoursRanges: Bool { get }
}

/// A remote object read by range, on demand, through a small block cache (issue 52).
///
/// Blocks are 64 KiB; a miss fetches the missing blocks the read spans in one request, plus a
/// read-ahead when the read follows the last one (a decoder reading on): 1 block, doubling on
/// each such miss up to 32 (2 MiB), back to none after a seek, as GDAL's /vsicurl/ grows its
/// chunks; a sequential miss within 1 MiB of the end takes the rest at once, and an object a
/// listing said is at most 1 MiB is asked whole. So a tiled TIFF's or a grid HEIC's crop costs
/// its header, its tables and a block per tile run, and a JPEG read to its last row costs a
/// few requests, not one per block. The
/// cache holds at most 256 blocks (16 MiB), or an eighth of `--max-memory` when that is less
/// (at least 8 blocks), least recently used first out. A server that ignores ranges is read
/// as a prefix instead: each miss streams from byte 0 to 4 times what is held (so a reader that
/// goes on costs at most 4/3 of its bytes), stops there, and keeps the prefix, which
/// `--max-memory` bounds. Thread-safe: HEIF tiles are fetched from several threads.
package final class RemoteSource: ByteSource, @unchecked Sendable {
    package static let blockSize = 64 << 10
    package static let maxReadAhead = 32
    package static let maxCachedBlocks = 256
    /// A sequential miss this close to the end fetches the rest, and a listed object this
    /// small is fetched whole at once (1 MiB).
    package static let restWhole = 1 << 20

    package let fetcher: any RangeFetcher
    package let size: Int
    /// The blocks the cache may hold.
    package let cacheBlocks: Int
    private let maxMemory: Int64
    private let monitor = Monitor()
    private var blocks: [Int: (bytes: [UInt8], used: Int)] = [:]
    private var clock = 0
    private var lastEnd = 0
    /// Blocks fetched past a sequential miss (doubles, up to `maxReadAhead`).
    private var readAhead = 0
    /// The object's first bytes, when the server ignores ranges.
    private var prefix: [UInt8] = []
    private var firstFailure: RemoteFailure?

    package var name: String { fetcher.name }
    /// The index of the object's last block.
    private var lastBlock: Int { (size - 1) / Self.blockSize }
    package var failure: RemoteFailure? { monitor.locked { firstFailure } }

    /// Opens the object: the first request (its first blocks) learns its length.
    /// - Parameters:
    ///   - maxMemory: `--max-memory` in bytes (0: no limit).
    ///   - listedSize: the object's size as a listing gave it (nil: unknown). Up to `restWhole`,
    ///     the first request asks for all of it (a batch reads the whole of a photo).
    package init(fetcher: any RangeFetcher, maxMemory: Int64, listedSize: Int? = nil) throws(RemoteFailure) {
        self.fetcher = fetcher
        self.maxMemory = maxMemory
        let share = maxMemory > 0 ? Int(min(maxMemory / 8, Int64(Int.max))) / Self.blockSize : Self.maxCachedBlocks
        cacheBlocks = max(8, min(Self.maxCachedBlocks, share))
        var ask = Self.blockSize
        if let listedSize, listedSize > 0, listedSize <= Self.restWhole {
            ask = min(listedSize, cacheBlocks / 2 * Self.blockSize)
        }
        let first = try fetcher.fetch(0..<ask)
        size = first.total
        if !fetcher.honoursRanges {
            prefix = first.bytes
        } else {
            store(first.bytes, from: 0)
        }
        lastEnd = first.bytes.count
    }

    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(RemoteFailure) -> Int {
        guard offset < size, buffer.count > 0 else { return 0 }
        let count = min(buffer.count, size - offset)
        let result: Result<Void, RemoteFailure> = monitor.locked {
            do throws(RemoteFailure) {
                if fetcher.honoursRanges {
                    try copyBlocks(offset..<(offset + count), into: buffer)
                } else {
                    try growPrefix(to: offset + count)
                    prefix.withUnsafeBytes {
                        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)]))
                    }
                }
                lastEnd = offset + count
                return .success(())
            } catch {
                if firstFailure == nil { firstFailure = error }
                return .failure(error)
            }
        }
        try result.get()
        return count
    }

    /// Fetches `range` ahead of a reader that will touch it in place (HEIF's tiles).
    package func copy(_ range: Range<Int>, into buffer: UnsafeMutableRawBufferPointer) throws(RemoteFailure) {
        var done = 0
        while done < range.count {
            let n = try read(
                at: range.lowerBound + done, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done..<range.count]))
            if n == 0 { break }
            done += n
        }
    }

    // Under the lock.
    private func copyBlocks(_ range: Range<Int>, into buffer: UnsafeMutableRawBufferPointer) throws(RemoteFailure) {
        let first = range.lowerBound / Self.blockSize
        let last = (range.upperBound - 1) / Self.blockSize
        let sequential = range.lowerBound == lastEnd
        var written = 0
        for index in first...last {
            if blocks[index] == nil {
                readAhead = sequential ? min(Self.maxReadAhead, max(1, readAhead * 2)) : 0
            }
            // A reader going on with at most `restWhole` left takes the rest in this request:
            // a request's latency costs more than a MiB's transfer on any store (S3's first
            // byte 20-50 ms), so a whole-file JPEG costs 2 requests, not 5.
            let rest = sequential && (lastBlock - index + 1) * Self.blockSize <= Self.restWhole
            let bytes = try block(index, through: rest ? lastBlock : last + readAhead)
            let start = index * Self.blockSize
            let lo = max(range.lowerBound, start) - start
            let hi = min(range.upperBound, start + bytes.count) - start
            guard hi > lo else { throw short(at: start + lo) }
            bytes.withUnsafeBytes {
                UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + hi - lo)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[lo..<hi]))
            }
            written += hi - lo
        }
    }

    /// Block `index`, fetched with the missing blocks after it up to `through` when not held.
    private func block(_ index: Int, through: Int) throws(RemoteFailure) -> [UInt8] {
        clock += 1
        if let held = blocks[index] {
            blocks[index] = (held.bytes, clock)
            return held.bytes
        }
        var end = index
        while end < min(through, lastBlock, index + cacheBlocks / 2 - 1), blocks[end + 1] == nil { end += 1 }
        let range = (index * Self.blockSize)..<min(size, (end + 1) * Self.blockSize)
        let reply = try fetcher.fetch(range)
        try checkTotal(reply.total)
        guard reply.bytes.count == range.count else { throw short(at: range.lowerBound + reply.bytes.count) }
        store(reply.bytes, from: range.lowerBound)
        return blocks[index]?.bytes ?? []
    }

    private func store(_ bytes: [UInt8], from offset: Int) {
        var at = 0
        while at < bytes.count {
            let n = min(Self.blockSize, bytes.count - at)
            if n == Self.blockSize || offset + at + n == size {
                clock += 1
                blocks[(offset + at) / Self.blockSize] = (Array(bytes[at..<(at + n)]), clock)
            }
            at += n
        }
        while blocks.count > cacheBlocks, let oldest = blocks.min(by: { $0.value.used < $1.value.used }) {
            blocks[oldest.key] = nil
        }
    }

    /// A server that ignores ranges: the prefix grows to `end` (at least doubling).
    private func growPrefix(to end: Int) throws(RemoteFailure) {
        guard end > prefix.count else { return }
        // Each request streams from byte 0 again: few and growing fast (4x, 1 MiB at least).
        let target = min(size, max(end, prefix.count * 4, 1 << 20))
        if maxMemory > 0, Int64(target) > maxMemory {
            throw RemoteFailure(
                name: name,
                reason:
                    "the server ignores range requests, and reading on needs the first \(target) bytes held, over --max-memory (\(maxMemory >> 20) MiB); raise it, or serve the file from a server that honours ranges",
                retryable: false)
        }
        let reply = try fetcher.fetch(prefix.count..<target)
        try checkTotal(reply.total)
        guard reply.bytes.count == target - prefix.count else { throw short(at: prefix.count + reply.bytes.count) }
        prefix += reply.bytes
    }

    private func checkTotal(_ total: Int) throws(RemoteFailure) {
        guard total == size else {
            throw RemoteFailure(
                name: name, reason: "changed while being read (its length went from \(size) to \(total) bytes)",
                retryable: true)
        }
    }

    private func short(at offset: Int) -> RemoteFailure {
        RemoteFailure(
            name: name, reason: "the server sent fewer bytes than asked (at byte \(offset) of \(size))", retryable: true
        )
    }
}
