import TestSupport
import Testing

@testable import FZMetadata
@testable import Geometry

/// Issue 40, reproducers 10-14, at the parsers: XML namespace scopes, pointers the EXIF
/// rewriter does not follow, CDATA values, and location beyond the GPS IFD and exif:GPS*.
struct MetadataLocationTests {
    typealias E = MetadataBytes.Entry
    static let size = PixelSize(width: 30, height: 20)

    static func packet(_ body: String) throws -> XMPPacket { try XMPPacket(parsing: MetadataBytes.xmp(body)) }

    static func text(_ p: XMPPacket, location: Bool = false) -> String {
        String(decoding: p.rewritten(size: size, upright: true, location: location), as: UTF8.self)
    }

    @Test func namespacesAreScoped() {
        var ns = XMPNamespaces()
        let a = { (n: String, v: String) in XMPPacket.Attribute(name: n, value: v, quote: 0x22) }
        ns.enter([a("xmlns:p", "urn:one"), a("xmlns", "urn:default")])
        #expect(ns.resolve("p:x", element: true) == .init(uri: "urn:one", local: "x"))
        #expect(ns.resolve("x", element: true) == .init(uri: "urn:default", local: "x"))
        #expect(ns.resolve("x", element: false) == nil, "an unprefixed attribute has no namespace")
        ns.enter([a("xmlns:p", "urn:two"), a("xmlns", "")])
        #expect(ns.resolve("p:x", element: true)?.uri == "urn:two")
        #expect(ns.resolve("x", element: true) == nil, "xmlns=\"\" undeclares the default")
        ns.leave()
        #expect(ns.resolve("p:x", element: true)?.uri == "urn:one")
        #expect(ns.resolve("q:x", element: true) == nil)
        ns.leave()
        ns.leave()  // more leaves than enters: ignored
        #expect(ns.resolve("p:x", element: true) == nil)
    }

    @Test func redeclaredPrefixAndDefaultNamespaceAreLocation() throws {
        let redeclared = try Self.packet(
            #"""
            <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/" a:Rating="4">
             <a:GPSLongitude xmlns:a="http://ns.adobe.com/exif/1.0/">2,21.0E</a:GPSLongitude><a:Label>x</a:Label></rdf:Description>
            <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/"/>
            """#)
        #expect(redeclared.hasLocation)
        let out = Self.text(redeclared)
        #expect(!out.contains("GPSLongitude") && out.contains("a:Rating=\"4\"") && out.contains("<a:Label>x</a:Label>"))
        #expect(try !XMPPacket(parsing: Array(out.utf8)).hasLocation)
        let defaulted = try Self.packet(
            #"<rdf:Description rdf:about=""><GPSLatitude xmlns="http://ns.adobe.com/exif/1.0/">48,51.0N</GPSLatitude><Rating xmlns="http://ns.adobe.com/xap/1.0/">4</Rating></rdf:Description>"#
        )
        #expect(defaulted.hasLocation)
        #expect(!Self.text(defaulted).contains("GPSLatitude") && Self.text(defaulted).contains("<Rating"))
        // The same names in a namespace that is not exif's are kept.
        let other = try Self.packet(
            #"<rdf:Description rdf:about="" xmlns:exif="urn:not-exif"><exif:GPSLatitude>1</exif:GPSLatitude></rdf:Description>"#
        )
        #expect(!other.hasLocation && Self.text(other).contains("GPSLatitude"))
    }

    @Test func cdataOrientationIsReplacedWhole() throws {
        let p = try Self.packet(
            #"<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"><tiff:Orientation><![CDATA[6]]><!-- c --></tiff:Orientation><tiff:ImageWidth>  <![CDATA[4000]]></tiff:ImageWidth></rdf:Description>"#
        )
        let out = Self.text(p)
        #expect(out.contains("<tiff:Orientation>1</tiff:Orientation>"), "\(out)")
        #expect(out.contains("<tiff:ImageWidth>30</tiff:ImageWidth>"), "\(out)")
        #expect(
            String(decoding: p.rewritten(size: Self.size, upright: false, location: true), as: UTF8.self)
                .contains("<![CDATA[6]]>"))
    }

    @Test func vendorLocationGoes() throws {
        let p = try Self.packet(
            #"""
            <rdf:Description rdf:about="" xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
             drone-dji:GpsLatitude="48.85" drone-dji:GpsLongitude="2.35" drone-dji:AbsoluteAltitude="+35.20" drone-dji:Model="x" xmp:Rating="4">
             <Iptc4xmpExt:LocationShown xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"><rdf:Bag/></Iptc4xmpExt:LocationShown>
            </rdf:Description>
            """#)
        #expect(p.hasLocation)
        let out = Self.text(p)
        for gone in ["GpsLatitude", "GpsLongitude", "AbsoluteAltitude", "LocationShown"] {
            #expect(!out.contains(gone), "\(gone): \(out)")
        }
        #expect(out.contains("drone-dji:Model=\"x\"") && out.contains("xmp:Rating=\"4\""))
        #expect(Self.text(p, location: true).contains("GpsLatitude"))
    }

    @Test func iptcContentLocationGoes() throws {
        let iim =
            MetadataBytes.iptc(2, 25, "cat") + MetadataBytes.iptc(2, 26, "FRA") + MetadataBytes.iptc(2, 27, "France")
        let record = try IPTCBlock(parsing: iim)
        #expect(record.hasLocation)
        #expect(record.rewritten(location: false) == MetadataBytes.iptc(2, 25, "cat"))
        #expect(try !IPTCBlock(parsing: MetadataBytes.iptc(2, 25, "cat")).hasLocation)
    }

    /// IFD0 (Make, `zero`) and an Exif IFD (`exif`), then `more`.
    static func tiff(zero: [E] = [], exif: [E] = [], more: [[E]] = []) -> [UInt8] {
        MetadataBytes.tiff(
            [[.ascii(0x010F, "Acme"), .pointer(0x8769, to: 1)] + zero, [.ascii(0x9003, "2024:05:06 07:08:09")] + exif]
                + more)
    }

    @Test func gpsThroughTheExifIFDIsTheGPSIFD() throws {
        let block = try EXIFBlock(
            parsing: Self.tiff(exif: [.pointer(0x8825, to: 2)], more: [MetadataBytes.gpsEntries]))
        #expect(block.hasLocation && block.gps.count == 5 && block.droppedEntries == 0)
        let gone = try EXIFBlock(parsing: block.rewritten(size: Self.size, upright: true, location: false))
        #expect(!gone.hasLocation && !gone.exif.contains { $0.tag == 0x8825 })
        // Kept, it is written where it belongs: IFD0's pointer.
        let kept = try EXIFBlock(parsing: block.rewritten(size: Self.size, upright: true, location: true))
        #expect(kept.gps == block.gps)
    }

    @Test func pointersNotFollowedAreDroppedAndCounted() throws {
        let bytes = Self.tiff(
            zero: [.pointer(0x8825, to: 2), .pointer(0xA005, to: 3), E(0x9999, 13, 1, .ifd(3))],
            exif: [.pointer(0x8769, to: 1), .pointer(0x8825, to: 2), .pointer(0xA005, to: 3)],
            more: [MetadataBytes.gpsEntries + [.pointer(0x8825, to: 2)], [.ascii(0x0001, "R98")]])
        let block = try EXIFBlock(parsing: bytes)
        // IFD0's A005 and type-13 entry, the Exif IFD's 8769 and second 8825, the GPS IFD's 8825.
        #expect(block.droppedEntries == 5)
        #expect(block.interop.count == 1 && block.gps.count == 5)
        for location in [true, false] {
            let out = block.rewritten(size: Self.size, upright: true, location: location)
            let again = try EXIFBlock(parsing: out)
            #expect(again.droppedEntries == 0, "the output's only pointers are the writer's")
            #expect(again.interop == block.interop && again.hasLocation == location)
        }
    }

    @Test func geoTIFFTagsAreLocation() throws {
        let block = try EXIFBlock(
            parsing: Self.tiff(zero: [E(0x8482, 12, 6, .bytes([UInt8](repeating: 0, count: 48)))]))
        #expect(block.hasLocation)
        let out = try EXIFBlock(parsing: block.rewritten(size: Self.size, upright: true, location: false))
        #expect(!out.hasLocation && out.ifd0.contains { $0.tag == 0x010F })
    }

    /// A MakerNote may hold location no one but its vendor reads: out with --no-location,
    /// kept otherwise, and not counted as location by `info`.
    @Test func makerNoteGoesWithTheLocation() throws {
        let note = E(0x927C, 7, 12, .bytes(Array("Nikon\0\u{2}\u{10}\0\0II".utf8)))
        let block = try EXIFBlock(parsing: Self.tiff(exif: [note]))
        #expect(!block.hasLocation && block.exif.contains { $0.tag == 0x927C })
        let gone = try EXIFBlock(parsing: block.rewritten(size: Self.size, upright: true, location: false))
        #expect(!gone.exif.contains { $0.tag == 0x927C } && gone.exif.contains { $0.tag == 0x9003 })
        let kept = try EXIFBlock(parsing: block.rewritten(size: Self.size, upright: true, location: true))
        #expect(kept.exif.first { $0.tag == 0x927C }?.value == Array("Nikon\0\u{2}\u{10}\0\0II".utf8))
    }
}
