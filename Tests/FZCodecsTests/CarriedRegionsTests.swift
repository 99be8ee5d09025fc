import Testing

@testable import FZMetadata
@testable import Geometry

/// The regions an output's XMP carries (`CarriedRegions`, `RegionXMP`): written for the
/// output's pixels, read back by forcezoom's own reader (exiftool reads them in
/// RegionsCarryCLITests), names escaped, controls gone, the packet still XML.
struct CarriedRegionsTests {
    /// The packet `RegionReaderTests.mwg` writes, with one more property in IPTC's PersonInImage.
    static func packet(_ items: [String]) -> [UInt8] {
        let text = String(decoding: RegionReaderTests.mwg(items), as: UTF8.self).replacing(
            "</rdf:Description></rdf:RDF>",
            with:
                "</rdf:Description><rdf:Description rdf:about=\"\"><Iptc4xmpExt:PersonInImage><rdf:Bag><rdf:li>A</rdf:li></rdf:Bag></Iptc4xmpExt:PersonInImage></rdf:Description></rdf:RDF>"
        )
        return Array(text.utf8)
    }

    /// The XMP of an output made from `xmp` (a 200x100 upright input) through `map` into `size`.
    static func output(_ xmp: [UInt8], _ map: AffineTransform, _ size: PixelSize, names: Bool = true) -> [UInt8]? {
        let frame = RegionFrame(stored: PixelSize(width: 200, height: 100), orientation: .up, delivered: true)
        let (carried, _) = MetadataPolicy(names: names).carried(ImageMetadata(xmp: xmp), upright: true, frame: frame)
        return carried?.placed(map, output: size).blocks(for: size).xmp
    }

    @Test func namesAreEscapedAndTheRegionsMoveWithThePixels() throws {
        // Centre 0.5,0.5, 0.2x0.4 of 200x100: 80,30 40x40. A name with every XML special
        // character and a terminal escape (&#27;[31m, taken out whole when read: Echo.printable).
        let name = "A &amp; &quot;B&quot; &lt;C&gt; l&apos;été &#27;[31m"
        let xmp = Self.packet([RegionReaderTests.area(name, "0.5", "0.5", "0.2", "0.4")])
        let out = try #require(Self.output(xmp, .translation(-60, -20), PixelSize(width: 50, height: 50)))
        // Well-formed: the tokenizer checks the tags nest.
        #expect((try? XMPPacket(parsing: out)) != nil)
        let r = RegionReaderTests.read(out, stored: PixelSize(width: 50, height: 50))
        let region = try #require(r.regions.first, "\(String(decoding: out, as: UTF8.self))")
        #expect(region.name == "A & \"B\" <C> l'été")
        #expect(region.type == "face")
        // 80-60 = 20 .. 120-60 = 60, cut at 50; 30-20 = 10 .. 50.
        #expect(abs(region.rect.x - 20) < 0.01 && abs(region.rect.width - 30) < 0.01)
        #expect(abs(region.rect.y - 10) < 0.01 && abs(region.rect.height - 40) < 0.01)
        // The input's own region list is replaced, not kept beside the new one.
        #expect(r.regions.count == 1)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains("stDim:w=\"50\" stDim:h=\"50\""))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func withoutNamesTheRegionsStayAndThePeopleGo() throws {
        let xmp = Self.packet([RegionReaderTests.area("Alice", "0.5", "0.5", "0.2", "0.4")])
        let out = try #require(Self.output(xmp, .identity, PixelSize(width: 200, height: 100), names: false))
        let text = String(decoding: out, as: UTF8.self)
        #expect(!text.contains("Alice"), "\(text)")
        #expect(!text.contains("PersonInImage"))
        let r = RegionReaderTests.read(out)
        #expect(r.regions.count == 1)
        #expect(r.regions.first?.name == nil)
    }

    @Test func aRegionOutsideTheOutputIsLeftOutAndCounted() throws {
        let xmp = Self.packet([
            RegionReaderTests.area("In", "0.5", "0.5", "0.2", "0.4"),
            RegionReaderTests.area("Out", "0.1", "0.1", "0.1", "0.1"),
        ])
        let frame = RegionFrame(stored: PixelSize(width: 200, height: 100), orientation: .up, delivered: true)
        let carried = try #require(
            MetadataPolicy().carried(ImageMetadata(xmp: xmp), upright: true, frame: frame).0)
        let size = PixelSize(width: 100, height: 100)
        let placed = carried.placed(.translation(-50, 0), output: size)
        let count = placed.regionCount(for: size)
        #expect(count?.kept == 1 && count?.dropped == 1)
        let r = RegionReaderTests.read(placed.blocks(for: size).xmp!, stored: size)
        #expect(r.regions.map(\.name) == ["In"])
        // Without a placement an output carries none (never regions at other pixels).
        let unplaced = carried.blocks(for: size).xmp!
        #expect(RegionReaderTests.read(unplaced, stored: size).regions.isEmpty)
    }

    @Test func numbersHaveSixDecimalsAndNoTrailingZeros() {
        #expect(RegionXMP.number(0.5) == "0.5")
        #expect(RegionXMP.number(1) == "1")
        #expect(RegionXMP.number(0) == "0")
        #expect(RegionXMP.number(0.1234567) == "0.123457")
        #expect(RegionXMP.number(0.0000004) == "0")
        #expect(RegionXMP.escaped("a\u{7}b\u{FFFE}<") == "ab&lt;")
    }
}
