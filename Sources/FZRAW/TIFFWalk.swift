import FZMetadata

/// The IFDs of a TIFF-structured RAW read in place (its mapping or its bytes in memory), for
/// `DNGXMP` and `DNGHeader`: every offset and count is checked against the file before it is
/// read, so nothing here indexes outside it; a value outside the file reads as absent.
/// (FZMetadata's `TIFFReader` copies an EXIF block's values into arrays: this reads a whole
/// RAW file, tens of megabytes, where only a few tags of a few IFDs are wanted.)
struct TIFFWalk {
    let bytes: UnsafeRawBufferPointer
    let little: Bool
    let firstIFD: Int
    /// The most entries an IFD may have: camera IFDs hold a few dozen, a DNG's IFD0 about 100.
    static let maxEntries = 1024

    /// One IFD entry: its value's place in the file (nil when outside it or of a type TIFF
    /// does not define) and size.
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        var at: Int?
        var size: Int
    }

    /// nil when `bytes` is no TIFF of one of `magic` (42 is TIFF; Panasonic's RW2 (0x55) and
    /// Olympus' ORF (0x4F52, 0x5352) keep its layout).
    init?(_ data: UnsafeRawBufferPointer, magic: [Int] = [42]) {
        guard data.count >= 8 else { return nil }
        guard let isLittle = TIFFReader.littleEndian(data[0], data[1]) else { return nil }
        func u16(_ at: Int) -> Int {
            isLittle ? Int(data[at]) | Int(data[at + 1]) << 8 : Int(data[at]) << 8 | Int(data[at + 1])
        }
        let first = isLittle ? u16(4) | u16(6) << 16 : u16(4) << 16 | u16(6)
        guard magic.contains(u16(2)), first >= 8 else { return nil }
        bytes = data
        little = isLittle
        firstIFD = first
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    /// Bytes a value of each TIFF type takes (1-13); 0 for the types TIFF does not define.
    static func typeSize(_ type: Int) -> Int { TIFFReader.typeSize(UInt16(truncatingIfNeeded: type)) }

    /// The entries of the IFD at `offset` and the next IFD's offset (0: none, or cut off); nil when the
    /// IFD is not inside the file or has more than `maxEntries` entries.
    func ifd(at offset: Int) -> (entries: [Entry], next: Int)? {
        guard offset >= 8, let count = u16(offset), count <= Self.maxEntries,
            offset + 2 + count * 12 <= bytes.count
        else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            let e = offset + 2 + i * 12
            let type = u16(e + 2)!
            let n = u32(e + 4)!
            let (size, overflow) = n.multipliedReportingOverflow(by: Self.typeSize(type))
            var at: Int? = nil
            if Self.typeSize(type) > 0, !overflow, size <= bytes.count {
                let start = size <= 4 ? e + 8 : u32(e + 8)!
                if start <= bytes.count - size { at = start }
            }
            entries.append(Entry(tag: u16(e)!, type: type, count: n, at: at, size: size))
        }
        return (entries, u32(offset + 2 + count * 12) ?? 0)
    }

    /// The values of a BYTE, SHORT, LONG or IFD entry of at most `limit` values; nil for
    /// another type, more values, or a value outside the file.
    func integers(_ e: Entry, limit: Int = 16) -> [Int]? {
        guard let at = e.at, e.count <= limit else { return nil }
        switch e.type {
        case 1: return (0..<e.count).map { Int(bytes[at + $0]) }
        case 3: return (0..<e.count).map { u16(at + 2 * $0)! }
        case 4, 13: return (0..<e.count).map { u32(at + 4 * $0)! }
        default: return nil
        }
    }

    /// The first value of an integer entry.
    func integer(_ e: Entry) -> Int? {
        guard let at = e.at, e.count > 0 else { return nil }
        switch e.type {
        case 1: return Int(bytes[at])
        case 3: return u16(at)
        case 4, 13: return u32(at)
        default: return nil
        }
    }

    /// The (numerator, denominator) pairs of an unsigned RATIONAL entry of at most `limit` values.
    func rationals(_ e: Entry, limit: Int = 16) -> [(Int, Int)]? {
        guard let at = e.at, e.type == 5, e.count <= limit else { return nil }
        return (0..<e.count).map { (u32(at + 8 * $0)!, u32(at + 8 * $0 + 4)!) }
    }

    /// An ASCII entry's text up to its first NUL, trailing spaces dropped (as libraw trims).
    func text(_ e: Entry, limit: Int = 256) -> String? {
        guard let at = e.at, e.type == 2 else { return nil }
        let b = bytes[at..<(at + min(e.count, limit))]
        var s = Substring(String(decoding: b.prefix { $0 != 0 }, as: UTF8.self))
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
