/// The XMP packet of a TIFF-structured RAW (DNG, and the TIFF-based camera formats that
/// carry one): tag 700 of IFD0, where exiftool, Lightroom and digiKam write it (libraw does
/// not hand it over). Every read is checked against the file's bytes (`TIFFWalk`).
enum DNGXMP {
    /// The packet, or nil when the file is no TIFF, IFD0 has no tag 700, or the value is
    /// outside the file or over `limit` bytes.
    static func find(in bytes: UnsafeRawBufferPointer, limit: Int) -> [UInt8]? {
        guard let tiff = TIFFWalk(bytes, magic: [42, 0x55, 0x4F52, 0x5352]), let ifd0 = tiff.ifd(at: tiff.firstIFD)
        else { return nil }
        for e in ifd0.entries where e.tag == 700 && (e.type == 1 || e.type == 7) && e.count > 0 && e.count <= limit {
            guard let at = e.at else { return nil }
            return Array(bytes[at..<(at + e.count)])
        }
        return nil
    }
}
