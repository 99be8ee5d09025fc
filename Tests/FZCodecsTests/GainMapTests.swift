import Testing

@testable import FZGainMap

/// The gain-map readers on bytes made here: MPF indexes in both byte orders, hdrgm values as
/// attributes and as rdf:Seq elements, Apple's headroom, and the spec's constraints.
@Suite("Gain map parsing")
struct GainMapTests {
    /// An MPF payload (after "MPF\0") listing images of (size, offset), as a camera writes it.
    static func mpf(_ images: [(Int, Int)], little: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 255), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 255)] }
        func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let entries = 8 + 2 + 12 * 3 + 4
        var b: [UInt8] = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(3)
        b += u16(0xB000) + u16(7) + u32(4) + Array("0100".utf8)
        b += u16(0xB001) + u16(4) + u32(1) + u32(images.count)
        b += u16(0xB002) + u16(7) + u32(16 * images.count) + u32(entries)
        b += u32(0)
        for (k, (size, offset)) in images.enumerated() {
            b += u32(k == 0 ? 0x030000 : 0) + u32(size) + u32(offset) + u16(0) + u16(0)
        }
        return b
    }

    @Test(arguments: [true, false])
    func mpfIndexInBothByteOrders(_ little: Bool) throws {
        let index = try MPFIndex(parsing: Self.mpf([(1000, 0), (200, 900)], little: little)[...])
        #expect(index.entries.map(\.size) == [1000, 200])
        #expect(index.entries.map(\.offset) == [0, 900])
        #expect(index.entries[0].attribute == 0x030000)
    }

    @Test func mpfIndexRefusesTruncationAndFloods() {
        let good = Self.mpf([(1000, 0), (200, 900)], little: true)
        #expect(throws: MPFIndex.Failure.self) { try MPFIndex(parsing: good[..<40]) }
        let flood = Self.mpf(Array(repeating: (10, 10), count: 65), little: false)
        #expect(throws: MPFIndex.Failure.self) { try MPFIndex(parsing: flood[...]) }
    }

    static func xmp(_ body: String) -> [UInt8] {
        Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"
             xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/" \(body)</rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    @Test func attributesWithDefaults() throws {
        let p = try GainMapParameters(
            xmp: Self.xmp(#"hdrgm:Version="1.0" hdrgm:GainMapMax="2.5" hdrgm:HDRCapacityMax="2.5">"#))
        #expect(p.scheme == .hdrgm && p.version == "1.0")
        #expect(p.gainMapMin == [0] && p.gainMapMax == [2.5] && p.gamma == [1])
        #expect(p.offsetSDR == [1.0 / 64] && p.offsetHDR == [1.0 / 64])
        #expect(p.hdrCapacityMin == 0 && p.hdrCapacityMax == 2.5 && !p.baseRenditionIsHDR)
    }

    @Test func sequencesPerChannel() throws {
        let seq = { (v: [String]) in "<rdf:Seq>" + v.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Seq>" }
        let p = try GainMapParameters(
            xmp: Self.xmp(
                #"hdrgm:Version="1.0" hdrgm:HDRCapacityMax="1.3" hdrgm:BaseRenditionIsHDR="True">"#
                    + "<hdrgm:GainMapMin>\(seq(["-0.25", "-0.5", "-0.75"]))</hdrgm:GainMapMin>"
                    + "<hdrgm:GainMapMax>\(seq(["1", "1.25", "1.5"]))</hdrgm:GainMapMax>"
                    + "<hdrgm:Gamma> 0.9 </hdrgm:Gamma>"))
        #expect(p.gainMapMin == [-0.25, -0.5, -0.75] && p.gainMapMax == [1, 1.25, 1.5])
        #expect(p.gamma == [0.9] && p.baseRenditionIsHDR)
    }

    @Test func appleHeadroom() throws {
        let p = try GainMapParameters(
            xmp: Self.xmp(
                "><HDRGainMap:HDRGainMapVersion>131072</HDRGainMap:HDRGainMapVersion>"
                    + "<HDRGainMap:HDRGainMapHeadroom>4</HDRGainMap:HDRGainMapHeadroom>"))
        #expect(p.scheme == .apple && p.appleHeadroom == 4 && p.gainMapMax == [2] && p.hdrCapacityMax == 2)
    }

    @Test(arguments: [
        #"hdrgm:Version="1.0" hdrgm:GainMapMin="3" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2">"#,
        #"hdrgm:Version="1.0" hdrgm:GainMapMax="1e308" hdrgm:HDRCapacityMax="2">"#,
        #"hdrgm:Version="1.0" hdrgm:GainMapMax="NaN" hdrgm:HDRCapacityMax="2">"#,
        #"hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2" hdrgm:Gamma="0">"#,
        #"hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="0">"#,
        #"hdrgm:Version="1.0" hdrgm:HDRCapacityMax="2">"#,
        #"hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2">"#,
        #"hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2" hdrgm:OffsetSDR="-1">"#,
    ])
    func refusesWhatTheSpecForbids(_ body: String) {
        #expect(throws: GainMapParameters.Failure.self) { try GainMapParameters(xmp: Self.xmp(body)) }
        if case .absent =
            (Result { () throws(GainMapParameters.Failure) in try GainMapParameters(xmp: Self.xmp(body)) }.failure)
        {
            Issue.record("\(body): read as absent, not malformed")
        }
    }

    @Test func noPropertiesIsAbsent() {
        #expect(throws: GainMapParameters.Failure.absent) { try GainMapParameters(xmp: Self.xmp(">")) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let f) = self { return f }
        return nil
    }
}
