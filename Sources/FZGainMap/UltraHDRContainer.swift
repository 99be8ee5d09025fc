import FZMetadata

/// Builds an Ultra HDR JPEG (Android's JPEG_R, the form Chrome, Android and Photoshop read) from
/// a primary JPEG and a gain-map JPEG: the primary gets an XMP description with `hdrgm:Version`
/// and a GContainer directory naming the gain map and its length, and an APP2 MPF index whose
/// second entry points at the gain map; the gain map gets its `hdrgm` values as XMP. The gain map
/// follows the primary's EOI.
///
/// Why by segments and not through libjpeg: both JPEGs are finished bytes (our encoder's output,
/// or a lossless crop's); only APP segments are added, so the coded data stays bit for bit.
public enum UltraHDRContainer {
    public enum Failure: Error, Equatable, Sendable {
        /// A part is no JPEG our segment walk reads to its SOS.
        case notJPEG(String)
        /// The values are Apple's, which hdrgm cannot state without re-encoding the map.
        case notHDRGM
        /// An XMP packet too large for one APP1 segment (65,502 bytes).
        case xmpTooLarge
    }

    static let container = "http://ns.google.com/photos/1.0/container/"
    static let item = "http://ns.google.com/photos/1.0/container/item/"

    /// The whole file: the primary with its XMP and MPF segments, then the gain map.
    public static func assemble(primary: [UInt8], gainMap: [UInt8], parameters p: GainMapParameters) throws(Failure)
        -> [UInt8]
    {
        guard p.scheme == .hdrgm else { throw .notHDRGM }
        let map = try withXMP(gainMap, xmp: gainMapXMP(p), what: "the gain map")
        guard let s = JPEGSegments(primary), s.complete else { throw .notJPEG("the primary image") }
        // The primary's own XMP (copied from an input) keeps its properties but any old gain-map
        // description; ours goes in a second rdf:Description.
        let own = s.xmp(in: primary).flatMap { try? XMPPacket(parsing: $0) }.map {
            $0.removing(namespaces: ownedNamespaces)
        }
        let xmp = primaryXMP(keeping: own, gainMapLength: map.count)
        let xmpSignature = JPEGSegments.xmpSignature
        let app1 = try segment(0xE1, xmpSignature + xmp)
        // SOI, the segments before SOS (their XMP replaced, any MPF dropped), ours, then the rest.
        var head: [UInt8] = [0xFF, 0xD8]
        var wroteXMP = false
        let mpfSignature = Array("MPF\0".utf8)
        for seg in s.segments.dropLast() {  // the last is SOS
            let body = primary[seg.payload]
            if seg.marker == 0xE1 && body.starts(with: xmpSignature) {
                if !wroteXMP { head += app1 }
                wroteXMP = true
                continue
            }
            if seg.marker == 0xE2 && body.starts(with: mpfSignature) { continue }
            head += primary[(seg.payload.lowerBound - 4)..<seg.payload.upperBound]
        }
        if !wroteXMP { head += app1 }
        let mpfAt = head.count + 4 + mpfSignature.count  // the MPF header's first byte
        let rest = primary[(s.segments.last!.payload.lowerBound - 4)...]
        let primaryLength = head.count + 4 + 86 + rest.count
        head += try segment(
            0xE2, mpfSignature + mpf(primaryLength: primaryLength, gainMapLength: map.count, base: mpfAt))
        return head + rest + map
    }

    static let ownedNamespaces: Set<String> = [GainMapParameters.hdrgm, container, item]

    /// `jpeg` with `xmp` as its first segment after SOI, or after a leading APP0 (JFIF, which
    /// must come first; and Pillow 9.4 reads an APP1 right after an MPO frame's SOI as EXIF);
    /// an XMP it had is dropped.
    static func withXMP(_ jpeg: [UInt8], xmp: [UInt8], what: String) throws(Failure) -> [UInt8] {
        guard let s = JPEGSegments(jpeg), s.complete else { throw .notJPEG(what) }
        let signature = JPEGSegments.xmpSignature
        let app0 = s.segments.first.flatMap { $0.marker == 0xE0 ? $0.payload.upperBound : nil } ?? 2
        var out: [UInt8] = try Array(jpeg[..<app0]) + segment(0xE1, signature + xmp)
        var at = app0
        for seg in s.segments where seg.marker == 0xE1 && jpeg[seg.payload].starts(with: signature) {
            out += jpeg[at..<(seg.payload.lowerBound - 4)]
            at = seg.payload.upperBound
        }
        return out + jpeg[at...]
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) throws(Failure) -> [UInt8] {
        let n = payload.count + 2
        guard n <= 0xFFFF else { throw .xmpTooLarge }
        return [0xFF, marker, UInt8(n >> 8), UInt8(n & 0xFF)] + payload
    }

    /// The MPF index (big-endian): version, two images, their entries. 86 bytes.
    static func mpf(primaryLength: Int, gainMapLength: Int, base: Int) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        var b: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(8) + u16(3)
        b += u16(0xB000) + u16(7) + u32(4) + Array("0100".utf8)
        b += u16(0xB001) + u16(4) + u32(1) + u32(2)
        b += u16(0xB002) + u16(7) + u32(32) + u32(50)
        b += u32(0)
        // The primary: representative image, baseline MP primary; the gain map: no type.
        b += u32(0x2003_0000) + u32(primaryLength) + u32(0) + u16(0) + u16(0)
        b += u32(0) + u32(gainMapLength) + u32(primaryLength - base) + u16(0) + u16(0)
        return b
    }

    /// The gain map's XMP: every hdrgm value, one channel as attributes, three as rdf:Seq.
    static func gainMapXMP(_ p: GainMapParameters) -> [UInt8] {
        func text(_ v: Double) -> String { String(v) }
        var attributes = [("Version", GainMapParameters.writtenVersion(p.version, default: "1.0"))]
        var elements = ""
        for (key, v) in [
            ("GainMapMin", p.gainMapMin), ("GainMapMax", p.gainMapMax), ("Gamma", p.gamma),
            ("OffsetSDR", p.offsetSDR), ("OffsetHDR", p.offsetHDR),
        ] {
            if v.count == 1 {
                attributes.append((key, text(v[0])))
            } else {
                let items = v.map { "<rdf:li>\(text($0))</rdf:li>" }.joined()
                elements += "<hdrgm:\(key)><rdf:Seq>\(items)</rdf:Seq></hdrgm:\(key)>"
            }
        }
        attributes += [
            ("HDRCapacityMin", text(p.hdrCapacityMin)), ("HDRCapacityMax", text(p.hdrCapacityMax)),
            ("BaseRenditionIsHDR", p.baseRenditionIsHDR ? "True" : "False"),
        ]
        let attrs = attributes.map { "\n   hdrgm:\($0.0)=\"\($0.1)\"" }.joined()
        let description =
            elements.isEmpty
            ? "<rdf:Description rdf:about=\"\" xmlns:hdrgm=\"\(GainMapParameters.hdrgm)\"\(attrs)/>"
            : "<rdf:Description rdf:about=\"\" xmlns:hdrgm=\"\(GainMapParameters.hdrgm)\"\(attrs)>\(elements)</rdf:Description>"
        return packet(description)
    }

    /// The primary's XMP: its own description (if any, without old gain-map properties) and ours.
    static func primaryXMP(keeping own: [UInt8]?, gainMapLength: Int) -> [UInt8] {
        let ours = """
            <rdf:Description rdf:about="" xmlns:hdrgm="\(GainMapParameters.hdrgm)" xmlns:Container="\(container)" \
            xmlns:Item="\(item)" hdrgm:Version="1.0"><Container:Directory><rdf:Seq>\
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>\
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" \
            Item:Length="\(gainMapLength)"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description>
            """
        guard let own, let close = lastIndex(of: Array("</rdf:RDF>".utf8), in: own) else { return packet(ours) }
        return Array(own[..<close]) + Array(ours.utf8) + Array(own[close...])
    }

    static func packet(_ description: String) -> [UInt8] {
        Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="forcezoom">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              \(description)
             </rdf:RDF>
            </x:xmpmeta>
            """.utf8)
    }

    static func lastIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        var k = hay.count - needle.count
        while k >= 0 {
            if hay[k] == needle[0] && hay[k..<(k + needle.count)].elementsEqual(needle) { return k }
            k -= 1
        }
        return nil
    }
}
