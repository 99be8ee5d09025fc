import FZMetadata
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// A TIFF's own metadata as an EXIF block: IFD0's descriptive tags (Make, Model, DateTime,
/// Artist, Copyright...), the page's Orientation, and the Exif and GPS IFDs, read from the
/// file's bytes and written as one TIFF-structured block (`TIFFWriter`), as a JPEG's APP1
/// holds it, so the reader applies the orientation and outputs carry the EXIF as for JPEG.
///
/// Why not through libtiff: its EXIF directory API reads values by field type one tag at a
/// time; the entries are copied here as they are. Bounded: at most `EXIFBlock.maxEntries`
/// entries an IFD, `valueLimit` bytes a value, `totalLimit` in all; what does not fit is
/// left out. BigTIFF files give no block (their orientation still comes from libtiff).
struct TIFFMetadata {
    /// IFD0 tags that describe the photo (not its storage), copied into the block.
    static let descriptive: Set<UInt16> = [
        0x010E, 0x010F, 0x0110, 0x011A, 0x011B, 0x0128, 0x0131, 0x0132, 0x013B, 0x013E, 0x013F, 0x8298,
    ]
    static let dngVersionTag: UInt16 = 50706
    static let valueLimit = 1 << 16
    static let totalLimit = 1 << 20

    private(set) var littleEndian = true
    private(set) var ifd0: [EXIFBlock.Entry] = []
    private(set) var exif: [EXIFBlock.Entry] = []
    private(set) var gps: [EXIFBlock.Entry] = []
    /// IFD0 has DNGVersion: a camera raw, not a picture to show as TIFF.
    private(set) var isDNG = false
    /// IFD0 has an Orientation tag (even 1): outputs then carry one.
    private(set) var hasOrientationTag = false
    private var copied = 0

    /// Reads IFD0 (and its Exif and GPS IFDs) from `file`, which is rewound afterwards.
    init(file: CFile) {
        defer { _ = file.rewind() }
        let head = file.read(upTo: 8)
        guard head.count == 8 else { return }
        guard let little = TIFFReader.littleEndian(head[0], head[1]) else { return }
        littleEndian = little
        guard int(head, 2, 2) == 42 else { return }  // BigTIFF (43): none
        let kept = Self.descriptive.union([
            Self.dngVersionTag, EXIFBlock.exifPointer, EXIFBlock.gpsPointer, EXIFBlock.orientationTag,
        ])
        let all = entries(file, at: int(head, 4, 4)) { kept.contains($0) }
        isDNG = all.contains { $0.tag == Self.dngVersionTag }
        hasOrientationTag = all.contains { $0.tag == EXIFBlock.orientationTag }
        ifd0 = all.filter { Self.descriptive.contains($0.tag) }
        if let at = pointer(all, EXIFBlock.exifPointer) {
            exif = entries(file, at: at) { $0 != EXIFBlock.interopPointer }.filter { $0.type != 13 }
        }
        if let at = pointer(all, EXIFBlock.gpsPointer) {
            gps = entries(file, at: at) { _ in true }.filter { $0.type != 13 }
        }
    }

    /// The block, with `orientation` (the page's, from libtiff) in IFD0; nil when there is
    /// nothing to carry (no tag but the resolution, and no turn).
    func block(orientation: Int?) -> [UInt8]? {
        // The resolution alone is how the pixels were stored, not the photo's metadata.
        let describes = ifd0.contains { ![0x011A, 0x011B, 0x0128].contains($0.tag) }
        guard describes || !exif.isEmpty || !gps.isEmpty || (orientation ?? 1) != 1 else { return nil }
        var zero = ifd0
        if let orientation {
            let v = UInt16(clamping: orientation)
            let bytes = littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
            zero.append(.init(tag: EXIFBlock.orientationTag, type: 3, count: 1, value: bytes))
        }
        if zero.isEmpty && exif.isEmpty && gps.isEmpty { return nil }
        var writer = TIFFWriter(littleEndian: littleEndian)
        return writer.write(ifd0: zero, exif: exif.isEmpty ? nil : exif, interop: nil, gps: gps.isEmpty ? nil : gps)
    }

    private func int(_ b: [UInt8], _ at: Int, _ n: Int) -> Int {
        guard at >= 0, at + n <= b.count else { return 0 }
        var v = 0
        for k in 0..<n { v |= Int(b[at + k]) << (8 * (littleEndian ? k : n - 1 - k)) }
        return v
    }

    private func pointer(_ entries: [EXIFBlock.Entry], _ tag: UInt16) -> Int? {
        guard let e = entries.first(where: { $0.tag == tag }), e.count == 1, e.value.count == 4 else { return nil }
        return int(e.value, 0, 4)
    }

    private func read(_ file: CFile, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 8, count > 0 else { return nil }
        let moved = file.withStream { fseeko($0, off_t(offset), SEEK_SET) == 0 }
        guard moved else { return nil }
        let bytes = file.read(upTo: count)
        return bytes.count == count ? bytes : nil
    }

    /// The entries of the IFD at `offset`, each value copied (left out when over the limits).
    private mutating func entries(
        _ file: CFile, at offset: Int, keeping keep: (UInt16) -> Bool
    ) -> [EXIFBlock.Entry] {
        guard let countBytes = read(file, at: offset, count: 2) else { return [] }
        let count = int(countBytes, 0, 2)
        guard count > 0, count <= EXIFBlock.maxEntries, let table = read(file, at: offset + 2, count: count * 12)
        else { return [] }
        var out: [EXIFBlock.Entry] = []
        for i in 0..<count {
            let e = i * 12
            let tag = UInt16(int(table, e, 2))
            let type = UInt16(int(table, e + 2, 2))
            let n = int(table, e + 4, 4)
            let size = TIFFReader.typeSize(type)
            guard keep(tag), size > 0, n > 0, n <= Self.valueLimit / size else { continue }
            let bytes = n * size
            let value: [UInt8]?
            if bytes <= 4 {
                value = Array(table[(e + 8)..<(e + 8 + bytes)])
            } else {
                guard copied + bytes <= Self.totalLimit else { continue }
                value = read(file, at: int(table, e + 8, 4), count: bytes)
                copied += bytes
            }
            if let value { out.append(.init(tag: tag, type: type, count: UInt32(n), value: value)) }
        }
        return out
    }
}
