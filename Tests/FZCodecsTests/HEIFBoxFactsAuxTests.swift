import TestSupport
import Testing

@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// `HEIFBoxFacts` vouches for files whose primary image has auxiliary images other than an
/// alpha grid (an iPhone photo's depth map and HDR gain map, issue 38), and only where libheif
/// 1.15 would open the file and report the same: the real iPhone 13 Pro HEIC (in ../shared,
/// skipped without it) and same-length edits of its `meta` box that break each rule libheif
/// checks of auxiliary images (no `auxC`, a reference to no image or to itself, an `ispe` over
/// libheif's limit, no `hvcC`, no data, a property box libheif cannot parse, metadata of a
/// non-image). Each is read twice, through the boxes and through libheif
/// (`HEIFDecoder(boxFacts: false)`): where the boxes are taken, libheif opens the file too and
/// every fact is equal; where libheif refuses it, so does the decoder, with libheif's error.
struct HEIFBoxFactsAuxTests {
    static let iphone = FileSystem.join(
        FileSystem.directory(of: TestSupport.root), "shared/formats/hdr/iphone13pro_pug_hdrgainmap.heic")
    static let present = FileSystem.kind(of: iphone) == .regular

    /// An edit: the bytes `find` (the first occurrence from the start of the file, or the
    /// `nth` one) have `at` (relative to it) replaced by `with`.
    struct Edit: Sendable, CustomTestStringConvertible {
        var name: String
        var find: [UInt8]
        var nth = 0
        var at: Int
        var with: [UInt8]
        /// Whether the boxes are still taken (libheif not opened).
        var boxFacts: Bool
        /// Whether libheif refuses the file (the rule the edit breaks is one libheif checks).
        var refused: Bool { !boxFacts && name != "depth as alpha" }
        var testDescription: String { name }
    }

    static let auxC = Array("auxC".utf8) + [0, 0, 0, 0] + Array("urn:com:apple:photo:2020:aux:hdrgainmap".utf8)
    static let gainISPE = Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 0x07, 0xE0, 0, 0, 0x05, 0xE8]
    static let depthURN = Array("urn:mpeg:hevc:2015:auxid:2".utf8)
    static func ref(_ type: String, _ from: UInt8, _ to: UInt8) -> [UInt8] {
        Array(type.utf8) + [0, from, 0, 1, 0, to]
    }

    static let edits: [Edit] = [
        Edit(name: "unchanged", find: [], at: 0, with: [], boxFacts: true),
        // Another auxiliary type libheif keeps as a generic auxiliary image.
        Edit(name: "depth as another type", find: depthURN, at: 25, with: Array("9".utf8), boxFacts: true),
        // An alpha URN on a 768x576 image: libheif gives no alpha (sizes differ); the boxes defer.
        Edit(name: "depth as alpha", find: depthURN, at: 25, with: Array("1".utf8), boxFacts: false),
        Edit(name: "gain map without auxC", find: auxC, at: 3, with: Array("X".utf8), boxFacts: false),
        Edit(name: "auxC string unterminated", find: auxC, at: 8 + 39, with: Array("x".utf8), boxFacts: false),
        Edit(name: "auxiliary of no image", find: ref("auxl", 52, 49), at: 9, with: [99], boxFacts: false),
        Edit(name: "auxiliary of itself", find: ref("auxl", 54, 49), at: 9, with: [54], boxFacts: false),
        Edit(name: "auxiliary of the EXIF item", find: ref("auxl", 54, 49), at: 9, with: [50], boxFacts: false),
        Edit(name: "XMP of the EXIF item", find: ref("cdsc", 53, 52), at: 9, with: [50], boxFacts: false),
        // 40000 wide, over libheif's 32768.
        Edit(name: "gain map over libheif's limit", find: gainISPE, at: 10, with: [0x9C, 0x40], boxFacts: false),
        // ipma of item 52: hvcC (7) replaced by pixi (9).
        Edit(name: "gain map without hvcC", find: [0, 52, 5, 0x87, 0x08], at: 3, with: [0x89], boxFacts: false),
        // Its iloc entry given to item 99.
        Edit(name: "gain map without data", find: [0, 52, 0, 0, 0, 0, 0, 1, 0], at: 1, with: [99], boxFacts: false),
        // The first NAL unit of the gain map's hvcC said to be 65535 bytes long.
        Edit(
            name: "gain map hvcC cut", find: Array("hvcC".utf8), nth: 1, at: 4 + 26, with: [0xFF, 0xFF], boxFacts: false
        ),
    ]

    static func find(_ needle: [UInt8], in bytes: [UInt8], nth: Int) -> Int? {
        var seen = 0
        for k in 0...(bytes.count - needle.count) where bytes[k] == needle[0] {
            guard Array(bytes[k..<(k + needle.count)]) == needle else { continue }
            if seen == nth { return k }
            seen += 1
        }
        return nil
    }

    static func decoder(_ bytes: [UInt8], boxFacts: Bool) -> Result<HEIFDecoder, DecodeError> {
        do throws(DecodeError) {
            let source = try ImageSource(bytes: bytes, name: "iphone.heic")
            return .success(try HEIFDecoder(source: source, options: DecodeOptions(), boxFacts: boxFacts))
        } catch {
            return .failure(error)
        }
    }

    @Test(.enabled(if: present), arguments: edits)
    func boxesVouchOnlyWhereLibheifAgrees(_ edit: Edit) throws {
        var bytes = try FileSystem.readBytes(Self.iphone, limit: 1 << 24)
        if !edit.find.isEmpty {
            let at = try #require(Self.find(edit.find, in: Array(bytes.prefix(8192)), nth: edit.nth), "\(edit.name)")
            bytes.replaceSubrange((at + edit.at)..<(at + edit.at + edit.with.count), with: edit.with)
        }
        let ours = Self.decoder(bytes, boxFacts: true)
        let libheif = Self.decoder(bytes, boxFacts: false)
        switch (ours, libheif) {
        case (.success(let a), .success(let b)):
            #expect(a.openedLibheif == !edit.boxFacts, "\(edit.name): libheif opened \(a.openedLibheif)")
            #expect(b.openedLibheif && !edit.refused, "\(edit.name)")
            #expect(a.details as? HEIFDetails == b.details as? HEIFDetails, "\(edit.name)")
            #expect(a.storedSize == b.storedSize && a.pixelFormat == b.pixelFormat, "\(edit.name)")
            #expect(a.color.icc == b.color.icc && a.color.hasICC == b.color.hasICC, "\(edit.name)")
            #expect(a.exif == b.exif && a.xmp == b.xmp, "\(edit.name)")
        case (.failure(let a), .failure(let b)):
            #expect(edit.refused, "\(edit.name): refused by libheif (\(b)), expected to be read")
            #expect(a == b, "\(edit.name): \(a) vs \(b)")
        default:
            Issue.record("\(edit.name): the boxes give \(ours), libheif \(libheif)")
        }
    }

    /// The photo's tiles through libde265 equal libheif's, as for the other phone files: a
    /// third of them (every third tile of its 8x6, the last included), to keep the suite lean.
    @Test(.enabled(if: present))
    func iphoneTilesEqualLibheif() throws {
        let bytes = try FileSystem.readBytes(Self.iphone, limit: 1 << 24)
        let tiles = try HEIFTileDe265Tests.tiles(bytes, name: "iphone.heic")
        #expect(tiles.grid.tiles.count == 48)
        try HEIFTileDe265Tests.expectEqualTiles(tiles, "iphone", only: Array(stride(from: 2, to: 48, by: 3)))
    }
}
