import FZSystem
import Testing

/// RemoteSource's block cache over bytes in memory (an object whose requests are counted):
/// what a reader gets equals the object's bytes, sequential reads grow the read-ahead, a seek
/// fetches only its blocks, the cache stays within its bound, and a server that ignores ranges
/// is read as a growing prefix. In process, no server: about 10 s in a debug build (the objects).
@Suite("Remote source cache")
struct RemoteSourceTests {
    /// An object of `size` bytes (byte i = i * 7 mod 251) served by range, or whole from 0.
    final class Object: RangeFetcher {
        let bytes: [UInt8]
        let honoursRanges: Bool
        var asked: [Range<Int>] = []
        var name: String { "mem://object" }
        init(size: Int, ranges: Bool = true) {
            bytes = (0..<size).map { UInt8(($0 * 7) % 251) }
            honoursRanges = ranges
        }
        func fetch(_ range: Range<Int>) throws(RemoteFailure) -> (bytes: [UInt8], total: Int) {
            asked.append(range)
            let end = min(range.upperBound, bytes.count)
            return (Array(bytes[range.lowerBound..<end]), bytes.count)
        }
    }

    static func read(_ s: RemoteSource, _ offset: Int, _ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let n = try out.withUnsafeMutableBytes { try s.read(at: offset, into: $0) }
        return Array(out.prefix(n))
    }

    /// Reads `s` from start to end in pieces of `piece` bytes, as a decoder reading on,
    /// each piece checked against the object's bytes.
    static func readThrough(_ s: RemoteSource, _ object: Object, piece: Int) throws {
        var at = 0
        while at < object.bytes.count {
            let got = try read(s, at, piece)
            #expect(got == Array(object.bytes[at..<min(at + piece, object.bytes.count)]))
            guard !got.isEmpty else { return }
            at += got.count
        }
    }

    @Test func sequentialReadsGrowTheReadAheadAndGiveTheBytes() throws {
        let object = Object(size: 5 << 20)
        let s = try RemoteSource(fetcher: object, maxMemory: 0)
        try Self.readThrough(s, object, piece: 16 << 10)
        // 5 MiB in 64 KiB blocks is 80 blocks; doubling read-ahead fetches them in few requests.
        #expect(object.asked.count < 12, "\(object.asked.count) requests")
        #expect(object.asked.map(\.count).reduce(0, +) == object.bytes.count, "each byte fetched once")
    }

    /// A photo-sized object read through (a JPEG thumbnail) costs two requests: the first
    /// block, then the rest once the reader goes on within 1 MiB of the end.
    @Test func aSmallObjectReadThroughCostsTwoRequests() throws {
        let object = Object(size: 700 << 10)
        let s = try RemoteSource(fetcher: object, maxMemory: 0)
        try Self.readThrough(s, object, piece: 4 << 10)
        #expect(object.asked == [0..<RemoteSource.blockSize, RemoteSource.blockSize..<object.bytes.count])
    }

    /// An object whose size a listing gave is asked whole in its one first request (up to
    /// 1 MiB), and within the cache's share of a small --max-memory.
    @Test func aListedObjectIsAskedWholeAtOnce() throws {
        let object = Object(size: 700 << 10)
        let s = try RemoteSource(fetcher: object, maxMemory: 0, listedSize: object.bytes.count)
        #expect(try Self.read(s, 0, object.bytes.count) == object.bytes)
        #expect(object.asked == [0..<object.bytes.count])
        let small = Object(size: 700 << 10)
        _ = try RemoteSource(fetcher: small, maxMemory: 1 << 20, listedSize: small.bytes.count)  // 8 blocks
        #expect(small.asked == [0..<(4 * RemoteSource.blockSize)])
    }

    @Test func aSeekFetchesItsBlockOnlyAndTheCacheIsBounded() throws {
        let object = Object(size: 16 << 20)
        let s = try RemoteSource(fetcher: object, maxMemory: 16 << 20)  // an eighth: 2 MiB, 32 blocks
        #expect(s.cacheBlocks == 32)
        for k in stride(from: 1, to: 400, by: 3) {
            let offset = (k * 65_537) % (object.bytes.count - 100)
            #expect(try Self.read(s, offset, 100) == Array(object.bytes[offset..<(offset + 100)]))
        }
        #expect(object.asked.dropFirst().allSatisfy { $0.count <= 2 * RemoteSource.blockSize })
        // Past the bound, old blocks went: re-reading the first seek's block fetches again.
        let before = object.asked.count
        _ = try Self.read(s, 65_537, 100)
        #expect(object.asked.count == before + 1)
    }

    @Test func aServerThatIgnoresRangesIsReadAsAPrefixWithinTheBudget() throws {
        let object = Object(size: 8 << 20, ranges: false)
        let s = try RemoteSource(fetcher: object, maxMemory: 4 << 20)
        #expect(try Self.read(s, 3 << 20, 10) == Array(object.bytes[(3 << 20)..<((3 << 20) + 10)]))
        #expect(object.asked.allSatisfy { $0.upperBound <= 4 << 20 })
        #expect(throws: RemoteFailure.self) { try Self.read(s, 6 << 20, 10) }
        #expect(s.failure?.reason.contains("--max-memory") == true)
    }
}
