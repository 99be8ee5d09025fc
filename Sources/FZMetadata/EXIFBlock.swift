import Geometry

/// An EXIF block (a TIFF structure: IFD0, the Exif, GPS and Interoperability IFDs) parsed
/// so it can be written again for an output: the orientation reset, the pixel dimensions
/// changed, the location taken out, and IFD1 (the thumbnail of the whole photo, wrong for a
/// crop) left behind.
///
/// A pure, bounded parser: every offset and count is checked against the block, each IFD
/// is read once (a pointer back to one already read is a loop and fails the block), the
/// value bytes copied are at most the block's size in all (entries may share bytes, so a
/// hostile block could otherwise ask for its size times its entry count), and only the
/// four IFDs above are followed. What cannot be read fails the whole block (`EXIFError`):
/// an output then carries no EXIF rather than a broken one. An entry whose value lies
/// outside the block, or of a type TIFF does not define, is dropped and counted.
public struct EXIFBlock: Hashable, Sendable {
    /// One IFD entry: its value as the file's bytes (in `littleEndian` order).
    package struct Entry: Hashable, Sendable {
        package var tag: UInt16
        package var type: UInt16
        package var count: UInt32
        package var value: [UInt8]

        package init(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]) {
            self.tag = tag
            self.type = type
            self.count = count
            self.value = value
        }
    }

    /// The largest block read: more than any container carries (JPEG's APP1 is 64 KiB).
    public static let maxBytes = 1 << 22
    /// The most entries read from one IFD (real files have well under 100).
    package static let maxEntries = 1000

    package let littleEndian: Bool
    package var ifd0: [Entry]
    package var exif: [Entry]
    package var gps: [Entry]
    package var interop: [Entry]
    /// Entries left out because their value was outside the block or of an unknown type.
    public private(set) var droppedEntries = 0

    package static let exifPointer: UInt16 = 0x8769, gpsPointer: UInt16 = 0x8825, interopPointer: UInt16 = 0xA005
    package static let orientationTag: UInt16 = 0x0112
    /// Tags that hold offsets into the TIFF file (strips, tiles, sub-IFDs, IFD1's JPEG):
    /// meaningless once the block is rewritten, so never copied.
    package static let offsetTags: Set<UInt16> = [0x0111, 0x0117, 0x0144, 0x0145, 0x014A, 0x0201, 0x0202]

    /// Parses a TIFF-structured block (the bytes after JPEG's "Exif\0\0").
    ///
    /// The GPS IFD is IFD0's, or (as exiftool reads it) the Exif IFD's when IFD0 has none.
    /// Every pointer is then taken out of the entries (`TIFFWriter` writes the ones it
    /// keeps at their new offsets): one the parser did not follow (a second GPS pointer, an
    /// Exif pointer inside the Exif IFD, an Interoperability pointer outside it, any entry
    /// of type IFD) would be copied with an offset that means nothing in the output, so it
    /// is dropped and counted.
    /// - Throws: `EXIFError` when the header, an IFD or a pointer followed cannot be read.
    public init(parsing data: [UInt8]) throws(EXIFError) {
        guard data.count <= Self.maxBytes else { throw .tooLarge(data.count) }
        var reader = try TIFFReader(data)
        littleEndian = reader.littleEndian
        ifd0 = try reader.ifd(at: reader.firstIFD, name: "IFD0")
        exif = []
        gps = []
        interop = []
        var followed: (zero: Set<UInt16>, exif: Set<UInt16>) = ([], [])
        if let at = Self.pointer(Self.exifPointer, in: ifd0, reader) {
            exif = try reader.ifd(at: at, name: "the Exif IFD")
            followed.zero.insert(Self.exifPointer)
            if let i = Self.pointer(Self.interopPointer, in: exif, reader) {
                interop = try reader.ifd(at: i, name: "the Interoperability IFD")
                followed.exif.insert(Self.interopPointer)
            }
        }
        if let at = Self.pointer(Self.gpsPointer, in: ifd0, reader) {
            gps = try reader.ifd(at: at, name: "the GPS IFD")
            followed.zero.insert(Self.gpsPointer)
        } else if let at = Self.pointer(Self.gpsPointer, in: exif, reader) {
            gps = try reader.ifd(at: at, name: "the GPS IFD (from the Exif IFD)")
            followed.exif.insert(Self.gpsPointer)
        }
        var unfollowed = 0
        ifd0 = Self.withoutPointers(ifd0, followed: followed.zero, unfollowed: &unfollowed)
        exif = Self.withoutPointers(exif, followed: followed.exif, unfollowed: &unfollowed)
        gps = Self.withoutPointers(gps, followed: [], unfollowed: &unfollowed)
        interop = Self.withoutPointers(interop, followed: [], unfollowed: &unfollowed)
        droppedEntries = reader.dropped + unfollowed
    }

    /// Whether an entry holds an offset to an IFD.
    private static func isPointer(_ e: Entry) -> Bool {
        e.type == 13 || e.tag == exifPointer || e.tag == gpsPointer || e.tag == interopPointer
    }

    /// `entries` without pointers, counting in `unfollowed` those not in `followed`.
    private static func withoutPointers(_ entries: [Entry], followed: Set<UInt16>, unfollowed: inout Int) -> [Entry] {
        entries.filter { e in
            guard isPointer(e) else { return true }
            if !followed.contains(e.tag) { unfollowed += 1 }
            return false
        }
    }

    /// The offset a pointer entry holds (LONG or IFD, count 1), if the IFD has one.
    private static func pointer(_ tag: UInt16, in entries: [Entry], _ reader: TIFFReader) -> Int? {
        guard let e = entries.first(where: { $0.tag == tag }), e.count == 1, e.type == 4 || e.type == 13 else {
            return nil
        }
        return reader.u32(e.value, 0)
    }

    /// IFD0's GeoTIFF tags (ModelPixelScale, ModelTiePoint, ModelTransform, the GeoKey
    /// directory and its values): they place the picture on a map, so they are location too.
    package static let geoTIFFTags: Set<UInt16> = [0x830E, 0x8482, 0x85D8, 0x87AF, 0x87B0, 0x87B1]
    /// The Exif IFD's MakerNote: a vendor's opaque block, which exiftool reads location from
    /// for Nikon, Panasonic, Pentax, Samsung, Kodak and FLIR cameras (and whose inner
    /// offsets may name anything once the block is rewritten). What it holds cannot be
    /// checked, so `--no-location` leaves it out; `hasLocation` does not count it.
    package static let makerNoteTag: UInt16 = 0x927C

    /// Whether a GPS IFD or a GeoTIFF tag is present.
    public var hasLocation: Bool { !gps.isEmpty || ifd0.contains { Self.geoTIFFTags.contains($0.tag) } }

    /// The orientation tag's value, if any.
    public var orientation: Int? {
        guard let e = ifd0.first(where: { $0.tag == Self.orientationTag }), e.type == 3, e.value.count >= 2 else {
            return nil
        }
        return Int(
            littleEndian ? UInt16(e.value[0]) | UInt16(e.value[1]) << 8 : UInt16(e.value[0]) << 8 | UInt16(e.value[1]))
    }

    /// The block for an output of `size` pixels: Orientation 1 (when `upright`),
    /// PixelXDimension/PixelYDimension (and IFD0's ImageWidth/ImageLength if present) the
    /// output's, no GPS IFD (nor GeoTIFF tags, nor MakerNote) when `location` is false, no IFD1. Its only
    /// pointers are the ones `TIFFWriter` writes.
    public func rewritten(size: PixelSize, upright: Bool, location: Bool) -> [UInt8] {
        var zero = location ? ifd0 : ifd0.filter { !Self.geoTIFFTags.contains($0.tag) }
        if upright { zero = zero.map { $0.tag == Self.orientationTag ? short($0.tag, 1) : $0 } }
        zero = zero.map { e in
            switch e.tag {
            case 0x0100: return long(e.tag, size.width)
            case 0x0101: return long(e.tag, size.height)
            default: return e
            }
        }
        let exifEntries = (location ? exif : exif.filter { $0.tag != Self.makerNoteTag }).map { e in
            switch e.tag {
            case 0xA002: return long(e.tag, size.width)
            case 0xA003: return long(e.tag, size.height)
            default: return e
            }
        }
        var writer = TIFFWriter(littleEndian: littleEndian)
        return writer.write(
            ifd0: zero, exif: exif.isEmpty ? nil : exifEntries, interop: interop.isEmpty ? nil : interop,
            gps: location && !gps.isEmpty ? gps : nil)
    }

    private func short(_ tag: UInt16, _ v: Int) -> Entry {
        let b = UInt16(clamping: v)
        return Entry(
            tag: tag, type: 3, count: 1,
            value: littleEndian ? [UInt8(b & 0xFF), UInt8(b >> 8)] : [UInt8(b >> 8), UInt8(b & 0xFF)])
    }

    private func long(_ tag: UInt16, _ v: Int) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: TIFFWriter.u32(UInt32(clamping: v), littleEndian: littleEndian))
    }
}

/// Why an EXIF block was left out.
public enum EXIFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Larger than `EXIFBlock.maxBytes`.
    case tooLarge(Int)
    /// No TIFF header (II or MM, 42).
    case badHeader
    /// An IFD outside the block, or more entries than it holds.
    case badIFD(String)
    /// An IFD pointing back at one already read.
    case loop(String)
    /// The entries' values add up to more than the block.
    case overBudget

    public var description: String {
        switch self {
        case .tooLarge(let n): return "EXIF block of \(n) bytes is larger than the \(EXIFBlock.maxBytes >> 20) MiB read"
        case .badHeader: return "EXIF block has no TIFF header"
        case .badIFD(let name): return "EXIF block: \(name) lies outside it"
        case .loop(let name): return "EXIF block: \(name) points back at an IFD already read"
        case .overBudget: return "EXIF entries claim more value bytes than the block holds"
        }
    }
}
