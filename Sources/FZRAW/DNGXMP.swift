/// The XMP packet of a TIFF-structured RAW (DNG, and the TIFF-based camera formats that
/// carry one): tag 700 of IFD0, where exiftool, Lightroom and digiKam write it (libraw does
/// not hand it over). Every read is checked against the file's bytes.
enum DNGXMP {
    /// The packet, or nil when the file is no TIFF, IFD0 has no tag 700, or the value is
    /// outside the file or over `limit` bytes.
    static func find(in bytes: UnsafeRawBufferPointer, limit: Int) -> [UInt8]? {
        guard bytes.count >= 8 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at <= bytes.count - 2 else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        // 42 is TIFF; Panasonic's RW2 (0x55) and Olympus' ORF (0x4F52, 0x5352) keep the layout.
        guard let magic = u16(2), [42, 0x55, 0x4F52, 0x5352].contains(magic), let ifd = u32(4), ifd >= 8,
            let count = u16(ifd), ifd + 2 + count * 12 <= bytes.count
        else { return nil }
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            guard u16(entry) == 700, let type = u16(entry + 2), type == 1 || type == 7, let n = u32(entry + 4),
                n > 0, n <= limit
            else { continue }
            let start = n <= 4 ? entry + 8 : (u32(entry + 8) ?? -1)
            guard start >= 0, start <= bytes.count - n else { return nil }
            return Array(bytes[start..<(start + n)])
        }
        return nil
    }
}
