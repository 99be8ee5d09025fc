import FZMetadata

/// The Multi-Picture Format index (CIPA DC-007) of a JPEG's APP2 "MPF\0" segment: the images
/// stored one after another in the file, the first being the primary. Ultra HDR and Apple's
/// gain-map JPEGs list the gain map as the second.
///
/// The index is a TIFF structure (either byte order); image offsets are counted from its own
/// header, i.e. from the byte after "MPF\0" in the file, and are 0 for the primary image.
struct MPFIndex: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// The individual image attribute (type code in the low 24 bits).
        var attribute: UInt32
        var size: Int
        /// From the MPF header; 0 for the first image.
        var offset: Int
    }

    var entries: [Entry]

    /// The most images an index may list: phones write 2 (or 3 with a depth map); 64 is room
    /// to spare, and bounds the walk.
    static let maxEntries = 64

    enum Failure: Error, Equatable { case malformed(String) }

    /// Parses the segment's payload after "MPF\0".
    init(parsing p: ArraySlice<UInt8>) throws(Failure) {
        let b = Array(p)
        guard b.count >= 8 else { throw .malformed("the MPF segment is shorter than its header") }
        guard let little = TIFFReader.littleEndian(b[0], b[1]) else {
            throw .malformed("the MPF header has no byte order")
        }
        // The index is a TIFF structure: EXIF's bounds-checked readers read it.
        func u16(_ at: Int) -> Int? { TIFFReader.u16(b, at, little) }
        func u32(_ at: Int) -> Int? { TIFFReader.u32(b, at, little) }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else {
            throw .malformed("the MPF index has no first IFD")
        }
        var entryTable: (count: Int, offset: Int)?
        for k in 0..<min(count, 256) {
            let at = ifd + 2 + 12 * k
            guard let tag = u16(at), let n = u32(at + 4), let value = u32(at + 8) else {
                throw .malformed("the MPF index ends inside its IFD")
            }
            if tag == 0xB002 { entryTable = (n / 16, value) }  // MPEntry: 16 bytes an image
        }
        guard let table = entryTable, table.count >= 1 else { throw .malformed("the MPF index lists no images") }
        guard table.count <= Self.maxEntries else {
            throw .malformed("the MPF index lists \(table.count) images (at most \(Self.maxEntries) are read)")
        }
        entries = []
        for k in 0..<table.count {
            let at = table.offset + 16 * k
            guard let attribute = u32(at), let size = u32(at + 4), let offset = u32(at + 8) else {
                throw .malformed("MP entry \(k + 1) lies outside the MPF segment")
            }
            entries.append(Entry(attribute: UInt32(attribute), size: size, offset: offset))
        }
    }
}
