import Testing

@testable import FZMetadata
@testable import Geometry

/// The XMP region reader on packets written by hand: the three ways RDF writes a structure,
/// entities, and every kind of bad region (one warning each, the region left out).
struct RegionReaderTests {
    static let namespaces = """
        xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" \
        xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" \
        xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#" xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#" \
        xmlns:MP="http://ns.microsoft.com/photo/1.2/" xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#" \
        xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#" \
        xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
        """

    /// A packet whose mwg-rs:Regions holds `items` (rdf:li contents), measured on `applied`.
    static func mwg(
        _ items: [String],
        applied: String? = "<mwg-rs:AppliedToDimensions stDim:w=\"200\" stDim:h=\"100\" stDim:unit=\"pixel\"/>"
    ) -> [UInt8] {
        let list = items.map { "<rdf:li>\($0)</rdf:li>" }.joined()
        return Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \(namespaces)><rdf:Description rdf:about="">\
            <mwg-rs:Regions rdf:parseType="Resource">\(applied ?? "")<mwg-rs:RegionList><rdf:Bag>\(list)</rdf:Bag>\
            </mwg-rs:RegionList></mwg-rs:Regions></rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    static func area(_ name: String, _ x: String, _ y: String, _ w: String, _ h: String, unit: String = "normalized")
        -> String
    {
        """
        <rdf:Description mwg-rs:Name="\(name)" mwg-rs:Type="Face"><mwg-rs:Area stArea:x="\(x)" stArea:y="\(y)" \
        stArea:w="\(w)" stArea:h="\(h)" stArea:unit="\(unit)"/></rdf:Description>
        """
    }

    static func read(_ xmp: [UInt8], stored: PixelSize = PixelSize(width: 200, height: 100), _ o: Orientation = .up)
        -> RegionReading
    {
        ImageMetadata(xmp: xmp).regions(stored: stored, orientation: o)
    }

    @Test func structuresAsAttributesElementsAndResourcesReadAlike() {
        let attributes = Self.area("A", "0.5", "0.5", "0.2", "0.4")
        let elements = """
            <rdf:Description><mwg-rs:Name>B</mwg-rs:Name><mwg-rs:Type>Pet</mwg-rs:Type><mwg-rs:Area>\
            <rdf:Description><stArea:x>0.5</stArea:x><stArea:y>0.5</stArea:y><stArea:w>0.2</stArea:w>\
            <stArea:h>0.4</stArea:h></rdf:Description></mwg-rs:Area></rdf:Description>
            """
        let resource = """
            <mwg-rs:Name>C &amp; D</mwg-rs:Name><mwg-rs:Area rdf:parseType="Resource"><stArea:x>0.5</stArea:x>\
            <stArea:y>0.5</stArea:y><stArea:w>0.2</stArea:w><stArea:h>0.4</stArea:h></mwg-rs:Area>
            """
        let r = Self.read(Self.mwg([attributes, elements, resource]))
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        #expect(r.regions.map(\.name) == ["A", "B", "C & D"])
        #expect(r.regions.map(\.type) == ["face", "pet", "area"])
        // Centre (100, 50), 40 x 40 pixels of 200x100.
        for region in r.regions { #expect(region.pixelRect == PixelRect(x: 80, y: 30, width: 40, height: 40)) }
    }

    @Test("Bad regions: one warning each, left out, the good one kept")
    func badRegions() {
        let items = [
            Self.area("good", "0.5", "0.5", "0.2", "0.2"),
            Self.area("nan", "NaN", "0.5", "0.2", "0.2"),
            Self.area("negative", "-0.1", "0.5", "0.2", "0.2"),
            Self.area("over", "0.5", "1.5", "0.2", "0.2"),
            Self.area("zero", "0.5", "0.5", "0", "0.2"),
            Self.area("unit", "0.5", "0.5", "0.2", "0.2", unit: "inch"),
            Self.area("Good", "0.4", "0.4", "0.2", "0.2"),
            Self.area("esc\u{1B}[31mape\u{7}", "0.5", "0.5", "0.1", "0.1"),
            "<rdf:Description mwg-rs:Name=\"noarea\"/>",
        ]
        let r = Self.read(Self.mwg(items))
        // The escape sequence goes whole (Echo.printable), not only its ESC.
        #expect(r.regions.map(\.name) == ["good", "escape"])
        #expect(r.warnings.count == 8, "\(r.warnings)")
        for word in [
            "not all numbers", "outside 0...1", "zero size", "\"inch\"", "already taken", "control characters",
            "no Area",
        ] {
            #expect(r.warnings.contains { $0.contains(word) }, "no warning saying \(word): \(r.warnings)")
        }
        #expect(!r.warnings.joined().contains("\u{1B}"))
    }

    @Test func appliedToDimensionsDecidesTheFrame() {
        let one = [Self.area("A", "0.25", "0.5", "0.1", "0.2")]
        // Proportional to the stored 200x100 (a resized copy): the stored frame, no warning.
        let resized = Self.read(
            Self.mwg(one, applied: "<mwg-rs:AppliedToDimensions stDim:w=\"400\" stDim:h=\"200\" stDim:unit=\"pixel\"/>")
        )
        #expect(resized.warnings.isEmpty && resized.regions.count == 1)
        // Disagreeing: every region of that list left out, one warning.
        let wrong = Self.read(
            Self.mwg(one, applied: "<mwg-rs:AppliedToDimensions stDim:w=\"300\" stDim:h=\"100\" stDim:unit=\"pixel\"/>")
        )
        #expect(wrong.regions.isEmpty && wrong.warnings.count == 1)
        #expect(wrong.warnings.first?.contains("disagrees with the image's 200x100") == true)
        // The upright size of an image stored turned: read in the upright frame, said once.
        let turned = Self.read(
            Self.mwg(
                one, applied: "<mwg-rs:AppliedToDimensions stDim:w=\"100\" stDim:h=\"200\" stDim:unit=\"pixel\"/>"),
            stored: PixelSize(width: 200, height: 100), .rotate90)
        #expect(turned.regions.count == 1 && turned.warnings.count == 1)
        // Upright 100x200: centre (25, 100), 10 x 40.
        #expect(turned.regions.first?.pixelRect == PixelRect(x: 20, y: 80, width: 10, height: 40))
        // Stored frame at orientation 6: stored centre (50, 50) of 200x100, 20 x 20 -> upright
        // x = 100 - 50, y = 50 (upright 100x200), sides exchanged.
        let stored = Self.read(Self.mwg(one, applied: nil), stored: PixelSize(width: 200, height: 100), .rotate90)
        #expect(stored.regions.first?.pixelRect == PixelRect(x: 40, y: 40, width: 20, height: 20))
    }

    @Test func microsoftAndIPTCRegions() {
        let xmp = Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \(Self.namespaces)><rdf:Description rdf:about="">\
            <MP:RegionInfo rdf:parseType="Resource"><MPRI:Regions><rdf:Bag>\
            <rdf:li MPReg:PersonDisplayName="Bob" MPReg:Rectangle="0.1, 0.2, 0.3, 0.4"/>\
            <rdf:li MPReg:PersonDisplayName="Bad" MPReg:Rectangle="0.1, 0.2, 0.3"/></rdf:Bag></MPRI:Regions></MP:RegionInfo>\
            <Iptc4xmpExt:ImageRegion><rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:Name><rdf:Alt>\
            <rdf:li xml:lang="x-default">Carol</rdf:li></rdf:Alt></Iptc4xmpExt:Name><Iptc4xmpExt:RegionBoundary \
            Iptc4xmpExt:rbShape="rectangle" Iptc4xmpExt:rbUnit="pixel" Iptc4xmpExt:rbX="10" Iptc4xmpExt:rbY="20" \
            Iptc4xmpExt:rbW="40" Iptc4xmpExt:rbH="30"/></rdf:li><rdf:li rdf:parseType="Resource">\
            <Iptc4xmpExt:RegionBoundary Iptc4xmpExt:rbShape="rectangle" Iptc4xmpExt:rbUnit="furlong" \
            Iptc4xmpExt:rbX="1" Iptc4xmpExt:rbY="1" Iptc4xmpExt:rbW="1" Iptc4xmpExt:rbH="1"/></rdf:li></rdf:Bag>\
            </Iptc4xmpExt:ImageRegion></rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
        let r = Self.read(xmp)
        #expect(r.regions.map(\.name) == ["Carol", "Bob"])
        #expect(r.regions.first?.pixelRect == PixelRect(x: 10, y: 20, width: 40, height: 30))
        #expect(r.regions.last?.pixelRect == PixelRect(x: 20, y: 20, width: 60, height: 40))
        #expect(r.warnings.count == 2, "\(r.warnings)")
    }

    @Test("100,000 regions: the first 1000 read, one warning for the rest, and bad ones counted")
    func overBudget() {
        // Within XMPPacket.maxBytes (4 MiB): 1000 regions, then 99,000 empty items.
        let one = Self.area("", "0.5", "0.5", "0.1", "0.1")
        let bad = Self.area("", "2", "0.5", "0.1", "0.1")
        let r = Self.read(
            Self.mwg(Array(repeating: one, count: 1000) + Array(repeating: "", count: 99_000), applied: nil))
        #expect(r.regions.count == RegionReading.maxRegions)
        #expect(
            r.warnings.count == 1 && r.warnings[0].contains("100000 regions, over the budget of 1000"), "\(r.warnings)")
        let many = Self.read(Self.mwg(Array(repeating: bad, count: 50), applied: nil))
        #expect(many.regions.isEmpty)
        #expect(many.warnings.count == RegionReading.maxWarnings + 1)
        #expect(many.warnings.last == "30 more regions left out for the same reasons")
    }

    @Test func lookUpByNameIsCaseInsensitiveAndByPosition() {
        let r = Self.read(
            Self.mwg([
                Self.area("Marie Curie", "0.3", "0.5", "0.1", "0.1"), Self.area("Pierre", "0.7", "0.5", "0.2", "0.2"),
            ]))
        #expect(r.region(named: "marie curie")?.name == "Marie Curie")
        #expect(r.region(named: "2")?.name == "Pierre")
        #expect(r.region(named: "3") == nil)
        #expect(r.faces.first?.name == "Pierre")
    }
}
