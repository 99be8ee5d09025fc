import FZMetadata

/// The two other ways a lossless crop writes a primary that had a gain map (issue 39): with an
/// Apple gain map, whose XMP hdrgm cannot restate without re-encoding the map, and with no map
/// at all (a map that could not be cut with it). Both keep the coded data bit for bit, as
/// `assemble(primary:gainMap:parameters:)` does, and change only APP segments.
extension UltraHDRContainer {
    static let mpfSignature = Array("MPF\0".utf8)

    /// Apple's form: the primary's segments as they are (its maker note holds Apple's headroom)
    /// with a new MPF index, then the gain map as it is (Apple's HDRGainMap XMP kept).
    public static func assemble(primary: [UInt8], keepingGainMap map: [UInt8]) throws(Failure) -> [UInt8] {
        guard let m = JPEGSegments(map), m.complete else { throw .notJPEG("the gain map") }
        return try rebuilt(primary, xmp: nil, gainMapLength: map.count) + map
    }

    /// The primary alone: its MPF index dropped and its XMP without gain-map properties (hdrgm,
    /// GContainer), so that nothing announces a map the file no longer holds.
    public static func withoutGainMap(_ primary: [UInt8]) throws(Failure) -> [UInt8] {
        guard let s = JPEGSegments(primary), s.complete else { throw .notJPEG("the primary image") }
        // And a motion photo's camera fields (issue 50): the clip after the end is not copied.
        let own = s.xmp(in: primary).flatMap { try? XMPPacket(parsing: $0) }.map {
            $0.removing(
                namespaces: ownedNamespaces.union(
                    CarriedMetadata.announcesMotion($0) ? [CarriedMetadata.googleCamera] : []))
        }
        return try rebuilt(primary, xmp: own, gainMapLength: nil)
    }

    /// The primary up to its EOI with its MPF segments dropped, its (first) XMP replaced by
    /// `xmp` (nil: kept), and an MPF index for a gain map of `gainMapLength` bytes after it.
    static func rebuilt(_ primary: [UInt8], xmp: [UInt8]?, gainMapLength: Int?) throws(Failure) -> [UInt8] {
        guard let s = JPEGSegments(primary), s.complete else { throw .notJPEG("the primary image") }
        let xmpSignature = JPEGSegments.xmpSignature
        var head: [UInt8] = [0xFF, 0xD8]
        var wroteXMP = false
        for seg in s.segments.dropLast() {  // the last is SOS
            let body = primary[seg.payload]
            if seg.marker == 0xE2 && body.starts(with: mpfSignature) { continue }
            if let xmp, seg.marker == 0xE1 && body.starts(with: xmpSignature) {
                if !wroteXMP { head += try segment(0xE1, xmpSignature + xmp) }
                wroteXMP = true
                continue
            }
            head += primary[(seg.payload.lowerBound - 4)..<seg.payload.upperBound]
        }
        let rest = primary[(s.segments.last!.payload.lowerBound - 4)...]
        guard let gainMapLength else { return head + rest }
        let mpfAt = head.count + 4 + mpfSignature.count  // the MPF header's first byte
        let primaryLength = head.count + 4 + mpfSignature.count + 82 + rest.count
        head += try segment(
            0xE2, mpfSignature + mpf(primaryLength: primaryLength, gainMapLength: gainMapLength, base: mpfAt))
        return head + rest
    }

    /// `jpeg` with its first XMP segment's packet replaced by `xmp` where it stands, every
    /// other segment as it is (`crop --lossless` moving the regions); `withXMP` without one.
    public static func replacingXMP(_ jpeg: [UInt8], with xmp: [UInt8]) throws(Failure) -> [UInt8] {
        guard let s = JPEGSegments(jpeg), s.complete else { throw .notJPEG("the crop") }
        let signature = JPEGSegments.xmpSignature
        guard let old = s.segments.first(where: { $0.marker == 0xE1 && jpeg[$0.payload].starts(with: signature) })
        else { return try withXMP(jpeg, xmp: xmp, what: "the crop") }
        let replaced = try segment(0xE1, signature + xmp)
        return Array(jpeg[..<(old.payload.lowerBound - 4)]) + replaced + jpeg[old.payload.upperBound...]
    }
}
