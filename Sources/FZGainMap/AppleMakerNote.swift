#if canImport(Glibc)
import FZMetadata
import Glibc
#endif

/// The HDR headroom Apple stores in its EXIF maker note (tags 33 and 48, signed rationals), as
/// Apple's "Applying Apple HDR effect to your photos" turns them into stops. A file with tag 33
/// but no tag 48 is read with 48 = 0, as Skia and libultrahdr do (iOS 16 wrote only 33).
enum AppleMakerNote {
    static let makerNoteTag: UInt16 = 0x927C

    /// The headroom (a ratio, at least 1) from an EXIF block, or nil when it has no Apple maker
    /// note with tag 33.
    static func headroom(exif: [UInt8]) -> Double? {
        guard let block = try? EXIFBlock(parsing: exif),
            let note = block.exif.first(where: { $0.tag == makerNoteTag })?.value,
            let values = rationals(note), let m33 = values[33]
        else { return nil }
        let m48 = values[48] ?? 0
        let stops: Double
        if m33 < 1 {
            stops = m48 <= 0.01 ? -20 * m48 + 1.8 : -0.101 * m48 + 1.601
        } else {
            stops = m48 <= 0.01 ? -70 * m48 + 3 : -0.303 * m48 + 2.303
        }
        return pow(2, max(stops, 0))
    }

    /// Tags 33 and 48 of an Apple maker note: "Apple iOS\0", a version, "MM", then one IFD whose
    /// offsets count from the note's first byte.
    static func rationals(_ n: [UInt8]) -> [Int: Double]? {
        guard n.count >= 16, n[0..<10].elementsEqual(Array("Apple iOS\0".utf8)), n[12] == 0x4D, n[13] == 0x4D,
            let count = TIFFReader.u16(n, 14, false)
        else { return nil }
        var out: [Int: Double] = [:]
        for k in 0..<min(count, 512) {
            let e = 16 + 12 * k
            guard let tag = TIFFReader.u16(n, e, false), let type = TIFFReader.u16(n, e + 2, false),
                let offset = TIFFReader.u32(n, e + 8, false)
            else { break }
            guard tag == 33 || tag == 48, type == 10 || type == 5, let num = TIFFReader.u32(n, offset, false),
                let den = TIFFReader.u32(n, offset + 4, false), den != 0
            else { continue }
            let signed = { (v: Int) in type == 10 ? Double(Int32(truncatingIfNeeded: v)) : Double(v) }
            let value = signed(num) / signed(den)
            if value.isFinite { out[tag] = value }
        }
        return out
    }
}
