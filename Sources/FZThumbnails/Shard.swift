import FZSystem

/// One share of a batch split across machines: shard `index` of `count` (`--shard 3/8`,
/// counted from 1 as Jest and Playwright do).
///
/// Why a hash and not positions: a task must find its inputs alone, from its index, and a
/// file must stay in its shard when others are added or removed (a re-run after new photos
/// arrived must not redo or skip anything). So each input's shard is a function of its own
/// key (`key(path:folder:)`) and the count only. The hash is FNV-1a-64 over the key's bytes
/// with MurmurHash3's 64-bit finaliser: FNV alone spreads `img_1..img_10.jpg` poorly in its
/// high bits, the finaliser makes every input bit reach every output bit; unlike CRC-32
/// (`cksum` mod 4 put `img_1..img_10.jpg` all in one shard) it is not linear. The 64-bit
/// hash is mapped onto 1...count by multiply-high (Lemire), which is uniform and has no
/// modulo bias worth the name for any count below 2^32.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// This shard, 1...count.
    public let index: Int
    /// How many shards the batch is split into.
    public let count: Int

    /// The most shards: more tasks than this is a mistake in the array size, not a plan.
    public static let maxCount = 1_000_000

    /// The whole batch as one shard (what runs without `--shard`).
    public static let whole = Shard(unchecked: 1, 1)

    private init(unchecked index: Int, _ count: Int) {
        self.index = index
        self.count = count
    }

    /// A shard from its numbers.
    /// - Throws: `ShardError.invalid` unless 1 ≤ index ≤ count ≤ `maxCount`.
    public init(index: Int, count: Int, option: String = "--shard") throws(ShardError) {
        let text = "\(index)/\(count)"
        guard count >= 1 && count <= Self.maxCount else {
            throw .invalid(text: text, reason: "the count must be 1-\(Self.maxCount)", option: option)
        }
        guard index >= 1 && index <= count else {
            throw .invalid(text: text, reason: "the index must be 1-\(count) (shards count from 1)", option: option)
        }
        self.init(unchecked: index, count)
    }

    /// Parses `K/N`.
    /// - Throws: `ShardError.invalid` for anything else, or numbers out of range.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw .invalid(text: text, reason: "write K/N (shard K of N, K from 1), auto or auto/N", option: "--shard")
        }
        try self.init(index: k, count: n)
    }

    /// `3/8`.
    public var description: String { "\(index)/\(count)" }

    /// Whether this shard does `input`.
    public func contains(_ input: ThumbnailPlan.Input) -> Bool {
        count == 1 || Self.number(ofKey: Self.key(path: input.path, folder: input.folder), count: count) == index
    }

    /// The text an input is placed by: its path relative to the folder argument it was
    /// found under (`sub/a.jpg` for `photos/sub/a.jpg` found in `photos/`), or as written
    /// for a file named directly or listed (leading `/` and `.` components dropped). So the
    /// place of the photo tree on each machine (`/mnt/a/photos` or `/data/photos`) does not
    /// matter, and every task, given the same arguments, places every input the same way.
    /// - Parameters:
    ///   - path: the input path as found.
    ///   - folder: its folder relative to the walk root (`ThumbnailPlan.Input.folder`).
    public static func key(path: String, folder: String) -> String {
        let name = FileSystem.basename(path)
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// The 64-bit hash of a key's bytes (the bytes the file name has, see `PathBytes`).
    public static func hash(_ key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a offset basis
        for byte in PathBytes.bytes(of: key) {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3  // FNV prime
        }
        // MurmurHash3 fmix64.
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    /// The shard (1...count) of a hash.
    public static func number(ofHash hash: UInt64, count: Int) -> Int {
        Int(hash.multipliedFullWidth(by: UInt64(count)).high) + 1
    }

    /// The shard (1...count) of a key.
    public static func number(ofKey key: String, count: Int) -> Int {
        number(ofHash: hash(key), count: count)
    }
}
