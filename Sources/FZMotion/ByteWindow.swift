import FZSystem

/// Bounded random-access reads of a file or of bytes in memory, for the box walkers of this
/// target: every read names its size, and a read asked past the end, of a negative size, or
/// over `maxRead` returns nil instead of allocating (a length from a header is never trusted).
///
/// Why not a whole-file read: a motion photo's clip or a Live Photo's movie can be hundreds of
/// megabytes, and these readers need a few boxes' headers and a few kilobytes of metadata.
package struct ByteWindow {
    /// The bytes the window covers.
    package let length: Int
    /// Where the window starts in what it reads (a clip inside a photo starts at its offset).
    private let base: Int
    private let reader: (Int, Int) -> [UInt8]

    /// The most one read may take (the budget is asked first for anything larger than a header).
    package static let maxRead = 1 << 22

    /// A window over a file opened for reading; nil when it cannot seek (a pipe).
    package init?(file: CFile) {
        guard let length = file.length else { return nil }
        self.length = length
        base = 0
        reader = { offset, count in file.seek(to: offset) ? file.read(upTo: count) : [] }
    }

    /// A window over bytes in memory (tests, a metadata box read whole).
    package init(bytes: [UInt8]) {
        length = bytes.count
        base = 0
        reader = { offset, count in Array(bytes[offset..<(offset + count)]) }
    }

    private init(length: Int, base: Int, reader: @escaping (Int, Int) -> [UInt8]) {
        self.length = length
        self.base = base
        self.reader = reader
    }

    /// The bytes `offset..<offset+count` of the window, or nil when any is outside it or
    /// the read is over `maxRead`.
    package func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, count <= Self.maxRead, offset <= length, count <= length - offset else {
            return nil
        }
        if count == 0 { return [] }
        let got = reader(base + offset, count)
        return got.count == count ? got : nil
    }

    /// The window's bytes `range` as a window of their own (offsets then count from its start);
    /// nil when the range is not inside this one.
    package func window(_ range: Range<Int>) -> ByteWindow? {
        guard range.lowerBound >= 0, range.upperBound <= length else { return nil }
        return ByteWindow(length: range.count, base: base + range.lowerBound, reader: reader)
    }

    /// A big-endian integer of `size` bytes (1 to 8) at `offset`.
    package func uint(at offset: Int, size: Int) -> Int? {
        guard size >= 1, size <= 8, let b = bytes(at: offset, count: size) else { return nil }
        let v = b.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return v > UInt64(Int.max) ? nil : Int(v)
    }
}

extension Array where Element == UInt8 {
    /// A big-endian integer of `size` bytes at `at`, nil when the bytes are not all there.
    package func uint(at: Int, size: Int) -> Int? {
        guard at >= 0, size >= 1, size <= 8, at <= count - size else { return nil }
        let v = self[at..<(at + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return v > UInt64(Int.max) ? nil : Int(v)
    }

    /// A little-endian 32-bit integer at `at`.
    package func uint32LE(at: Int) -> Int? {
        guard at >= 0, at <= count - 4 else { return nil }
        return Int(self[at]) | Int(self[at + 1]) << 8 | Int(self[at + 2]) << 16 | Int(self[at + 3]) << 24
    }

    /// Four bytes at `at` as a four-character code ("moov"), nil when short.
    package func fourCC(at: Int) -> String? {
        guard at >= 0, at <= count - 4 else { return nil }
        return String(decoding: self[at..<(at + 4)], as: UTF8.self)
    }
}
