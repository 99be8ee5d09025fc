import Testing

@testable import FZSystem
@testable import FZThumbnails

/// The partition function: stable, balanced, disjoint and complete, at the scale of a
/// real archive (no files: it is pure).
struct ShardTests {
    /// Relative paths like a camera archive's: year/month folders, IMG_nnnn names.
    static func paths(_ range: Range<Int>) -> [String] {
        range.map { i in "\(2000 + i % 25)/\(String(i / 25 % 12 + 1))/IMG_\(i).jpg" }
    }

    /// Shard numbers for `keys` at several counts, from one hash per key.
    static func numbers(_ keys: [String], counts: [Int]) -> [[Int]] {
        let hashes = keys.map(Shard.hash)
        return counts.map { n in hashes.map { Shard.number(ofHash: $0, count: n) } }
    }

    /// max and min shard size relative to the mean.
    static func spread(_ numbers: [Int], count: Int) -> (max: Double, min: Double) {
        var sizes = [Int](repeating: 0, count: count + 1)
        for n in numbers { sizes[n] += 1 }
        let mean = Double(numbers.count) / Double(count)
        let used = sizes[1...]
        return (Double(used.max()!) / mean, Double(used.min()!) / mean)
    }

    @Test func parsesKOfNAndRefusesTheRest() throws {
        #expect(try Shard(parsing: "3/8") == Shard(index: 3, count: 8))
        #expect(try Shard(parsing: "1/1") == .whole)
        for bad in ["0/8", "9/8", "3", "3/0", "a/b", "3/8/1", "-1/4", ""] {
            #expect(throws: ShardError.self, "\(bad)") { try Shard(parsing: bad) }
        }
        #expect(try ShardRequest(parsing: "auto") == .auto(count: nil))
        #expect(try ShardRequest(parsing: "auto/16") == .auto(count: 16))
        #expect(try ShardRequest(parsing: "2/16") == .fixed(Shard(index: 2, count: 16)))
        #expect(throws: ShardError.self) { try ShardRequest(parsing: "auto/0") }
        let e = try #require(throws: ShardError.self) { try Shard(parsing: "0/8") }
        #expect(e.description == "--shard 0/8: the index must be 1-8 (shards count from 1)")
    }

    @Test func theKeyIsThePathBelowTheFolderArgumentOrAsWritten() {
        #expect(Shard.key(path: "photos/2024/a.jpg", folder: "2024") == "2024/a.jpg")
        #expect(Shard.key(path: "/mnt/b/photos/2024/a.jpg", folder: "2024") == "2024/a.jpg")
        #expect(Shard.key(path: "a.jpg", folder: "") == "a.jpg")
        // A file named directly: InputWalker gives its folder as written, `/` and `.` dropped.
        #expect(Shard.key(path: "/data/x/a.jpg", folder: "data/x") == "data/x/a.jpg")
        // Where the tree is mounted does not move a file between shards.
        let a = ThumbnailPlan.Input(path: "/mnt/a/photos/2024/a.jpg", folder: "2024")
        let b = ThumbnailPlan.Input(path: "/data/photos/2024/a.jpg", folder: "2024")
        for k in 1...64 {
            #expect(try! Shard(index: k, count: 64).contains(a) == Shard(index: k, count: 64).contains(b))
        }
    }

    @Test func tenSimilarNamesSpreadOverFourShards() {
        // cksum (CRC-32) mod 4 put all ten in one shard.
        let n = Self.numbers((1...10).map { "img_\($0).jpg" }, counts: [4])[0]
        #expect(Set(n).count >= 3, "\(n)")
    }

    @Test func eightShardsOf4000FilesAreWithinTenPercent() {
        let n = Self.numbers(Self.paths(0..<32_000), counts: [8])[0]
        let (hi, lo) = Self.spread(n, count: 8)
        #expect(hi <= 1.10 && lo >= 0.90, "max \(hi), min \(lo) of the mean")
    }

    @Test func everyInputIsInExactlyOneShard() throws {
        let inputs = Self.paths(0..<5_000).map {
            ThumbnailPlan.Input(path: "photos/" + $0, folder: FileSystem.directory(of: $0))
        }
        let shards = try (1...7).map { try Shard(index: $0, count: 7) }
        for input in inputs { #expect(shards.filter { $0.contains(input) }.count == 1) }
    }

    /// A million paths into 64 and 1,024 shards: balanced, and adding 10% moves no file.
    @Test func aMillionPathsStayBalancedAndAddingTenPercentMovesNone() {
        let before = Self.paths(0..<1_000_000)
        let added = Self.paths(1_000_000..<1_100_000)
        let counts = [64, 1024]
        let old = Self.numbers(before, counts: counts)
        let grown = Self.numbers(before + added, counts: counts)
        for (c, count) in counts.enumerated() {
            // 15,625 a shard at 64 (sd 0.8%), 977 at 1,024 (sd 3.2%): 5% and 15% are > 4.5 sd.
            let (hi, lo) = Self.spread(old[c], count: count)
            let bound = count == 64 ? 0.05 : 0.15
            #expect(hi <= 1 + bound && lo >= 1 - bound, "\(count) shards: max \(hi), min \(lo) of the mean")
            #expect(Array(grown[c][0..<before.count]) == old[c], "adding files moved one at \(count) shards")
            let (hi2, lo2) = Self.spread(Array(grown[c][before.count...]), count: count)
            #expect(hi2 <= 1.5 && lo2 >= 0.5, "the added files spread too: \(hi2), \(lo2)")
        }
    }

    @Test func theHashIsFixed() {
        // Changing it would move files between shards under a running batch: pinned, and the
        // same as the README's Python one-liner.
        #expect(Shard.hash("") == 0xefd0_1f60_ba99_2926)
        #expect(Shard.hash("2024/05/IMG_0001.jpg") == 0x28de_2d97_7c08_27f7)
        #expect(Shard.number(ofKey: "2024/05/IMG_0001.jpg", count: 64) == 11)
        #expect(Shard.number(ofKey: "img_1.jpg", count: 64) == 35)
    }
}
