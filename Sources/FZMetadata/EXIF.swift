import Geometry

/// A minimal, bounded EXIF (TIFF) reader: just enough to find the orientation tag.
///
/// Every offset is checked against the buffer, only IFD0 is read (no links are followed,
/// so a looping IFD chain cannot hang it), and a bad or truncated block gives nil.
public enum EXIF {
    /// The orientation in a TIFF-structured EXIF payload (the bytes after "Exif\0\0").
    /// - Parameter data: the payload.
    /// - Returns: the orientation, or nil when absent, invalid (0, 9...) or unreadable.
    public static func orientation(in data: [UInt8]) -> Orientation? {
        guard let value = orientationValue(in: data) else { return nil }
        return Orientation(rawValue: value)
    }

    /// The raw orientation tag value (which may be invalid, e.g. 0 or 9), or nil.
    public static func orientationValue(in data: [UInt8]) -> Int? {
        guard data.count >= 8 else { return nil }
        guard let little = TIFFReader.littleEndian(data[0], data[1]) else { return nil }
        func u16(_ at: Int) -> Int? { TIFFReader.u16(data, at, little) }
        func u32(_ at: Int) -> Int? { TIFFReader.u32(data, at, little) }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        // At most the entries that fit in the buffer: a huge count cannot make us spin.
        let entries = min(count, max(0, (data.count - ifd - 2) / 12))
        for i in 0..<entries {
            let e = ifd + 2 + i * 12
            guard let tag = u16(e) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(e + 2), let n = u32(e + 4), n >= 1 else { return nil }
                switch type {
                case 3: return u16(e + 8)  // SHORT, the standard type
                case 4, 9: return u32(e + 8)  // LONG / SLONG, seen in the wild
                default: return nil
                }
            }
        }
        return nil
    }
}
