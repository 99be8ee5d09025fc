import Testing

@testable import FZMetadata
@testable import Geometry

/// The EXIF rewriter (`EXIFBlock`) and the XMP editor (`XMPPacket`): what an output's copy
/// of the metadata says, and that hostile blocks fail cleanly (bounded, no loop).
struct MetadataRewriteTests {
    typealias Entry = (UInt16, UInt16, UInt32, [UInt8])

    /// A little-endian TIFF: IFD0 at 8 with `ifd0`, then (when given) an Exif IFD and a
    /// GPS IFD pointed to from IFD0, and `tail` bytes after everything.
    static func tiff(ifd0: [Entry], exif: [Entry]? = nil, gps: [Entry]? = nil, tail: [UInt8] = []) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        func ifdBytes(_ e: [Entry]) -> [UInt8] {
            var out = u16(e.count)
            for (tag, type, n, value) in e { out += u16(Int(tag)) + u16(Int(type)) + u32(Int(n)) + value }
            return out + u32(0)
        }
        var zero = ifd0
        let size0 = 2 + (ifd0.count + (exif != nil ? 1 : 0) + (gps != nil ? 1 : 0)) * 12 + 4
        var at = 8 + size0
        var after: [UInt8] = []
        if let exif {
            zero.append((0x8769, 4, 1, u32(at)))
            after += ifdBytes(exif)
            at += 2 + exif.count * 12 + 4
        }
        if let gps {
            zero.append((0x8825, 4, 1, u32(at)))
            after += ifdBytes(gps)
        }
        return [0x49, 0x49, 42, 0] + u32(8) + ifdBytes(zero) + after + tail
    }

    static let photo = tiff(
        ifd0: [(0x010F, 2, 4, Array("Acm\0".utf8)), (0x0112, 3, 1, [6, 0, 0, 0])],
        exif: [(0xA002, 4, 1, [0x20, 0x03, 0, 0]), (0xA003, 3, 1, [0x58, 0x02, 0, 0])],
        gps: [(0x0001, 2, 2, Array("N\0\0\0".utf8))])

    @Test func rewriteResetsOrientationSizesAndDropsGPS() throws {
        let block = try EXIFBlock(parsing: Self.photo)
        #expect(block.orientation == 6)
        #expect(block.hasLocation)
        let out = try EXIFBlock(
            parsing: block.rewritten(size: PixelSize(width: 100, height: 70), upright: true, location: false))
        #expect(out.orientation == 1)
        #expect(!out.hasLocation)
        #expect(out.exif.first { $0.tag == 0xA002 }?.value == [100, 0, 0, 0])
        #expect(out.exif.first { $0.tag == 0xA003 }?.value == [70, 0, 0, 0])
        #expect(out.ifd0.first { $0.tag == 0x010F }?.value == Array("Acm\0".utf8))
        let kept = try EXIFBlock(
            parsing: block.rewritten(size: PixelSize(width: 1, height: 1), upright: false, location: true))
        #expect(kept.orientation == 6)
        #expect(kept.hasLocation)
    }

    @Test func valuesOutOfLineSurviveAndIFD1IsLeftBehind() throws {
        // A 20-byte ASCII value stored past the IFDs, and a next-IFD offset (IFD1) that is ignored.
        var bytes = Self.tiff(ifd0: [(0x010E, 2, 20, [0, 0, 0, 0])])
        let valueAt = bytes.count
        bytes.replaceSubrange(18..<22, with: [UInt8(valueAt), 0, 0, 0])
        bytes.replaceSubrange(22..<26, with: [8, 0, 0, 0])  // IFD0's next IFD is IFD0: never followed
        bytes += Array("a picture of a cat.\0".utf8)
        let out = try EXIFBlock(
            parsing: try EXIFBlock(parsing: bytes).rewritten(
                size: PixelSize(width: 2, height: 2), upright: true, location: true))
        #expect(out.ifd0.first { $0.tag == 0x010E }?.value == Array("a picture of a cat.\0".utf8))
    }

    @Test(arguments: [
        ([UInt8]("XX".utf8) + [UInt8](repeating: 0, count: 30), EXIFError.badHeader),
        ([0x49, 0x49, 42, 0, 0xF0, 0xFF, 0xFF, 0xFF], EXIFError.badIFD("IFD0")),
        ([0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF], EXIFError.badIFD("IFD0")),
    ])
    func brokenBlocksFail(bytes: [UInt8], error: EXIFError) {
        #expect(throws: error) { try EXIFBlock(parsing: bytes) }
    }

    @Test func subIFDLoopFails() {
        // The Exif IFD pointer points at IFD0 itself.
        let bytes = Self.tiff(ifd0: [(0x8769, 4, 1, [8, 0, 0, 0])])
        #expect(throws: EXIFError.loop("the Exif IFD")) { try EXIFBlock(parsing: bytes) }
    }

    @Test func sharedValuesCannotMultiplyTheCopy() {
        // 200 entries, each a 4000-byte UNDEFINED value at the same offset: 800 KB asked of a 6 KB block.
        let entries: [Entry] = (0..<200).map { (UInt16(0x9000 + $0), 7, 4000, [0, 0, 0, 0]) }
        var bytes = Self.tiff(ifd0: entries)
        let valueAt = bytes.count
        for i in 0..<200 {
            bytes.replaceSubrange(
                (18 + i * 12)..<(22 + i * 12), with: [UInt8(valueAt & 0xFF), UInt8(valueAt >> 8), 0, 0])
        }
        bytes += [UInt8](repeating: 7, count: 4000)
        #expect(throws: EXIFError.overBudget) { try EXIFBlock(parsing: bytes) }
    }

    @Test func badEntriesAreDroppedAndCounted() throws {
        let bytes = Self.tiff(ifd0: [
            (0x0112, 3, 1, [1, 0, 0, 0]), (0x0110, 2, 0x7FFF_FFFF, [0, 0xFF, 0xFF, 0xFF]),
            (0x0131, 77, 1, [0, 0, 0, 0]),
            (0x0111, 4, 1, [0, 0, 0, 0]),
        ])
        let block = try EXIFBlock(parsing: bytes)
        #expect(block.droppedEntries == 3)
        #expect(block.ifd0.map(\.tag) == [0x0112])
    }

    static let xmp = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:e="http://ns.adobe.com/exif/1.0/"
          xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
          tiff:Orientation="6" e:GPSLatitude="48,51.0N" photoshop:City="Paris" xmp:Rating="4">
         <e:PixelXDimension>4000</e:PixelXDimension>
         <photoshop:Country>France</photoshop:Country>
         <e:GPSLongitude>2,21.0E</e:GPSLongitude>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    @Test func xmpEditsKeepTheRest() throws {
        let packet = try XMPPacket(parsing: Array(Self.xmp.utf8))
        #expect(packet.hasLocation)
        let out = String(
            decoding: packet.rewritten(size: PixelSize(width: 120, height: 80), upright: true, location: false),
            as: UTF8.self)
        #expect(out.contains("tiff:Orientation=\"1\""))
        #expect(out.contains("<e:PixelXDimension>120</e:PixelXDimension>"))
        #expect(out.contains("xmp:Rating=\"4\""))
        for gone in ["GPSLatitude", "GPSLongitude", "Paris", "France"] {
            #expect(!out.contains(gone), "\(gone) in \(out)")
        }
        #expect(try !XMPPacket(parsing: Array(out.utf8)).hasLocation)
        let kept = String(
            decoding: packet.rewritten(size: PixelSize(width: 1, height: 1), upright: false, location: true),
            as: UTF8.self)
        #expect(kept.contains("Paris") && kept.contains("tiff:Orientation=\"6\""))
    }

    @Test(arguments: [
        "<x:xmpmeta><rdf:RDF></x:xmpmeta>",
        "<!DOCTYPE x [<!ENTITY a \"aaaa\">]><rdf:RDF>&a;</rdf:RDF>",
        "<rdf:RDF a=b></rdf:RDF>",
        "<x:xmpmeta></x:xmpmeta>",
        String(repeating: "<a>", count: 300) + "<rdf:RDF/>" + String(repeating: "</a>", count: 300),
        "<rdf:RDF><!-- never closed",
    ])
    func malformedXMPFails(text: String) {
        #expect(throws: XMPError.self) { try XMPPacket(parsing: Array(text.utf8)) }
    }

    @Test func iptcLocationDataSetsGo() throws {
        // 2:25 Keywords "cat", 2:90 City "Paris", 2:101 Country "France", then padding.
        func set(_ n: UInt8, _ s: String) -> [UInt8] { [0x1C, 2, n, 0, UInt8(s.utf8.count)] + Array(s.utf8) }
        let iim = set(25, "cat") + set(90, "Paris") + set(101, "France") + [0, 0]
        let record = try IPTCBlock(parsing: iim)
        #expect(record.hasLocation)
        #expect(record.rewritten(location: false) == set(25, "cat"))
        #expect(record.rewritten(location: true) == Array(iim.dropLast(2)))
        // Wrapped as APP13 and found again.
        let app13 = IPTCBlock.app13(iim)
        #expect(IPTCBlock.iim(inResources: Array(app13.dropFirst(14))) == iim)
        #expect(throws: IPTCError.self) { try IPTCBlock(parsing: [0x1C, 2, 25, 0x80, 4, 0, 0, 0, 9]) }
        #expect(throws: IPTCError.self) { try IPTCBlock(parsing: [0x1C, 2, 25, 0, 200, 1]) }
        #expect(IPTCBlock.iim(inResources: Array("8BIM".utf8) + [4, 4, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 1]) == nil)
    }

    @Test func policyWarnsOnceAndLeavesBrokenBlocksOut() {
        let m = ImageMetadata(exif: [0x49, 0x49, 42, 0], xmp: Array("<rdf:RDF>".utf8))
        let (carried, warnings) = MetadataPolicy.keepAll.carried(m, upright: true)
        #expect(carried == nil)
        #expect(warnings.count == 2)
        #expect(MetadataPolicy.strip.carried(ImageMetadata(exif: Self.photo), upright: true).0 == nil)
    }

    @Test func jpegLimitLeavesLargeBlocksOut() throws {
        let big = Self.tiff(ifd0: [(0x927C, 7, 70000, [0, 0, 0, 0])], tail: [UInt8](repeating: 1, count: 70000))
        var bytes = big
        let valueAt = 8 + 2 + 12 + 4
        bytes.replaceSubrange(18..<22, with: [UInt8(valueAt), 0, 0, 0])
        let (carried, _) = MetadataPolicy.keepAll.carried(ImageMetadata(exif: bytes), upright: true)
        let c = try #require(carried)
        #expect(c.fitting(.png).warnings.isEmpty)
        let (jpeg, why) = c.fitting(.jpeg)
        #expect(jpeg == nil)
        #expect(why.count == 1 && why[0].contains("64 KiB"))
    }
}
