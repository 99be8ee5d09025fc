import FZMetadata
import FZSystem

/// A still's EXIF block (TIFF bytes) read without its decoder: a JPEG's APP1 "Exif" segment,
/// or a HEIF's `Exif` item (found through `meta/iinf` and `meta/iloc`). A batch reads it to
/// pair Live Photos before any decoding, and only for stills that have a movie to pair with.
package enum StillEXIF {
    /// The EXIF of a JPEG or HEIF file in `window`, nil when there is none or it is malformed.
    package static func read(_ window: ByteWindow, budget: Budget) -> [UInt8]? {
        guard let head = window.bytes(at: 0, count: min(12, window.length)) else { return nil }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return jpeg(window, budget: budget) }
        if head.fourCC(at: 4) == "ftyp" { return heif(window, budget: budget) }
        return nil
    }

    /// The segments before the scan, in order; the first APP1 that starts "Exif\0\0".
    static func jpeg(_ w: ByteWindow, budget: Budget) -> [UInt8]? {
        var at = 2
        for _ in 0..<256 {
            guard let m = w.bytes(at: at, count: 4), m[0] == 0xFF else { return nil }
            if m[1] == 0xFF {  // fill byte
                at += 1
                continue
            }
            let marker = m[1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(m[2]) << 8 | Int(m[3])
            guard length >= 2 else { return nil }
            if marker == 0xE1, length > 8, let id = w.bytes(at: at + 4, count: 6), id == Array("Exif\0\0".utf8) {
                guard (try? budget.check("the EXIF segment", bytes: Int64(length))) != nil else { return nil }
                return w.bytes(at: at + 10, count: length - 8)
            }
            at += 2 + length
        }
        return nil
    }

    /// The `Exif` item of a HEIF: its payload starts with a 32-bit offset to the TIFF header.
    static func heif(_ w: ByteWindow, budget: Budget) -> [UInt8]? {
        guard let meta = ISOBox.first("meta", in: 0..<w.length, of: w) else { return nil }
        let parts = ISOBox.children(in: ISOBox.metaChildren(meta, of: w), of: w)
        guard let iinf = parts.first(where: { $0.type == "iinf" }),
            let iloc = parts.first(where: { $0.type == "iloc" }),
            iinf.payload.count <= 1 << 20, iloc.payload.count <= 1 << 20,
            let infos = w.bytes(at: iinf.payload.lowerBound, count: iinf.payload.count),
            let locs = w.bytes(at: iloc.payload.lowerBound, count: iloc.payload.count),
            let item = exifItem(infos), let extent = HEIFLocations.extent(of: item, in: locs),
            extent.length >= 4, extent.length <= EXIFBlock.maxBytes,
            (try? budget.check("the EXIF item", bytes: Int64(extent.length))) != nil,
            let payload = w.bytes(at: extent.offset, count: extent.length), let skip = payload.uint(at: 0, size: 4),
            skip <= payload.count - 4
        else { return nil }
        var tiff = Array(payload[(4 + skip)...])
        // Some writers leave "Exif\0\0" in front of the TIFF header and count the offset to it.
        if tiff.starts(with: Array("Exif\0\0".utf8)) { tiff.removeFirst(6) }
        return tiff
    }

    /// The ID of the first item of type `Exif` in an `iinf` payload (full box, then a 16- or
    /// 32-bit count, then `infe` boxes of version 2 or 3).
    static func exifItem(_ p: [UInt8]) -> Int? {
        guard let version = p.first else { return nil }
        let start = version == 0 ? 6 : 8
        let w = ByteWindow(bytes: p)
        for infe in ISOBox.children(in: min(start, p.count)..<p.count, of: w) where infe.type == "infe" {
            let a = infe.payload.lowerBound
            guard a < p.count, p[a] >= 2 else { continue }
            let idSize = p[a] == 2 ? 2 : 4
            guard let id = p.uint(at: a + 4, size: idSize), p.fourCC(at: a + 4 + idSize + 2) == "Exif" else { continue }
            return id
        }
        return nil
    }
}

/// HEIF's `iloc`: where an item's bytes are in the file.
enum HEIFLocations {
    /// The first extent of `item` (construction method 0, file offsets), nil when absent.
    static func extent(of item: Int, in p: [UInt8]) -> (offset: Int, length: Int)? {
        guard p.count >= 8 else { return nil }
        let version = Int(p[0])
        let offsetSize = Int(p[4] >> 4)
        let lengthSize = Int(p[4] & 15)
        let baseSize = Int(p[5] >> 4)
        let indexSize = version >= 1 ? Int(p[5] & 15) : 0
        let countSize = version < 2 ? 2 : 4
        guard let count = p.uint(at: 6, size: countSize) else { return nil }
        var at = 6 + countSize
        func field(_ size: Int) -> Int? {
            if size == 0 { return 0 }
            defer { at += size }
            return p.uint(at: at, size: size)
        }
        // Each item takes at least 6 bytes: the count cannot be more than the box holds.
        for _ in 0..<min(count, p.count / 6) {
            guard let id = field(version < 2 ? 2 : 4) else { return nil }
            var method = 0
            if version >= 1 { method = (field(2) ?? 0) & 15 }
            guard field(2) != nil, let base = field(baseSize), let extents = field(2) else { return nil }
            var first: (Int, Int)?
            for e in 0..<min(extents, p.count) {
                guard field(indexSize) != nil, let offset = field(offsetSize), let length = field(lengthSize) else {
                    return nil
                }
                let (start, over) = base.addingReportingOverflow(offset)
                if e == 0 { first = over ? nil : (start, length) }
            }
            if id == item { return method == 0 ? first : nil }
        }
        return nil
    }
}
