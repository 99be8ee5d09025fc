import FZFormat
import FZSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes the tiles of a grid's bands ahead of the reader, on worker threads that run for the
/// whole stream: while the reader resamples band i, the workers decode the tiles of bands
/// i+1...i+ahead. Decoding band by band on a `WorkerPool` left a core idle twice a band: while
/// the last tile of a band decoded alone, and while the reader consumed the band (perf on fit
/// of a 12 MP grid: 1.68 CPUs busy of 2, 9,900 context switches).
///
/// Memory stays bounded: a worker takes a tile only when its band is at most `ahead` bands
/// past the one being read, and a band's tiles are handed over (and dropped) when it is read.
/// `P` is a decoded tile (`Image`, `Image16`) or a tile's block sums (`HEIFTileBlocks`,
/// for `HEIFBlockStream`), made by `decodeTile`.
final class HEIFBandPrefetch<P: Sendable>: @unchecked Sendable {
    /// The tiles of each band, in the order they are decoded.
    let bands: [[Int]]
    let ahead: Int
    private let decodeTile: @Sendable (Int) throws(DecodeError) -> P
    private let monitor = Monitor()
    // Guarded by `monitor`.
    private var decoded: [Int: P] = [:]
    private var failures: [Int: DecodeError] = [:]
    /// Tiles of each band not yet decoded (or failed).
    private var pending: [Int]
    /// The next job: band and position in it.
    private var nextBand = 0
    private var nextTile = 0
    /// The band being read (workers stay within `ahead` of it).
    private var reading = 0
    /// The last band handed over.
    private var taken = -1
    private var stopping = false
    private var workers: [pthread_t] = []

    /// Starts `threads` workers (none when no thread can be started: `band` then decodes
    /// the band itself).
    init(bands: [[Int]], threads: Int, ahead: Int, decodeTile: @escaping @Sendable (Int) throws(DecodeError) -> P) {
        self.decodeTile = decodeTile
        self.bands = bands
        self.ahead = ahead
        pending = bands.map(\.count)
        for _ in 0..<max(1, threads) {
            guard let id = Threads.spawn({ self.work() }) else { break }
            workers.append(id)
        }
    }

    /// Holds a prefetch and stops its workers when dropped (the workers hold the prefetch
    /// itself, so its own deinit would never run while they wait).
    final class Owner {
        let prefetch: HEIFBandPrefetch
        init(_ prefetch: HEIFBandPrefetch) { self.prefetch = prefetch }
        deinit { prefetch.stop() }
    }

    /// Stops the workers (a tile being decoded is finished) and waits for them.
    func stop() {
        monitor.locked {
            stopping = true
            monitor.broadcast()
        }
        for id in workers { pthread_join(id, nil) }
        workers = []
    }

    /// The decoded tiles of band `i`, waiting for the workers; bands before `i` are dropped
    /// (and not decoded, if the reader skipped them).
    func band(_ i: Int) throws(DecodeError) -> [Int: P] {
        // No workers, or a band asked for again (its tiles are gone): decoded here.
        if workers.isEmpty || i <= taken {
            var out: [Int: P] = [:]
            for t in bands[i] { out[t] = try decodeTile(t) }
            return out
        }
        let result: Result<[Int: P], DecodeError> = monitor.locked {
            reading = i
            taken = i
            if nextBand < i {
                nextBand = i
                nextTile = 0
            }
            monitor.broadcast()
            while pending[i] > 0 && !stopping { monitor.wait() }
            var out: [Int: P] = [:]
            var failure: DecodeError?
            for t in bands[i] {
                out[t] = decoded.removeValue(forKey: t)
                if failure == nil, let e = failures[t] { failure = e }
            }
            for b in bands[..<i] { for t in b { decoded[t] = nil } }
            if let failure { return .failure(failure) }
            return .success(out)
        }
        return try result.get()
    }

    private func work() {
        while true {
            let job: (band: Int, tile: Int)? = monitor.locked {
                while true {
                    if stopping || nextBand >= bands.count { return nil }
                    if nextBand <= reading + ahead { break }
                    monitor.wait()
                }
                let job = (nextBand, bands[nextBand][nextTile])
                nextTile += 1
                if nextTile == bands[nextBand].count {
                    nextBand += 1
                    nextTile = 0
                }
                return job
            }
            guard let job else { return }
            let result = Result { () throws(DecodeError) in try decodeTile(job.tile) }
            monitor.locked {
                // A band the reader has passed is dropped, not kept.
                if job.band >= reading {
                    switch result {
                    case .success(let image): decoded[job.tile] = image
                    case .failure(let e): failures[job.tile] = e
                    }
                }
                pending[job.band] -= 1
                monitor.broadcast()
            }
        }
    }
}

extension HEIFBandPrefetch where P: HEIFTilePixels {
    /// Decoded tiles of `tiles` (`HEIFTileStream`).
    convenience init(tiles: HEIFTileDecoder, bands: [[Int]], threads: Int, ahead: Int) {
        self.init(bands: bands, threads: threads, ahead: ahead) { (k: Int) throws(DecodeError) -> P in
            try tiles.decode(tile: k, as: P.self)
        }
    }
}
