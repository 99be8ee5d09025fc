import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFixtures
@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// HEIC and AVIF written by `fixture` (libheif's x265 and aom) with an `irot` added by
/// `HEIFBoxes.addingRotation`: upright for forcezoom and for heif-convert, alpha kept.
struct HEIFWriteTests {
    static let pattern = Pattern(.orientation, size: PixelSize(width: 96, height: 64))

    static func write(avif: Bool, rotation: Int, alpha: Bool = false, exif: Orientation? = nil) throws -> String {
        var e = FixtureEncoding()
        e.heic = !avif
        e.avif = avif
        e.heifRotation = rotation
        e.exifOrientation = exif
        e.quality = 90
        var p = pattern
        if alpha {
            e.color = .rgba
            p.fade = true
        }
        let path = FileSystem.join(TestSupport.scratch(), "f.\(avif ? "avif" : "heic")")
        try FixtureWriter.write(p, encoding: e, to: path)
        return path
    }

    /// heif-convert's decode (its PNG read as stored: it copies EXIF into an eXIf chunk).
    static func heifConvert(_ path: String) throws -> Image {
        #expect(TestSupport.shell("heif-convert '\(path)' '\(path).png' >/dev/null") == 0)
        var o = DecodeOptions()
        o.autoOrient = false
        return try ImageReader(path: path + ".png", options: o).readImage()
    }

    @Test(arguments: [false, true], [0, 90, 180, 270])
    func rotatedFixtureIsUpright(_ avif: Bool, _ rotation: Int) throws {
        #expect(FixtureWriter.heifEncoderAvailable(avif: avif), "libheif1 brings x265 and aom")
        // An EXIF orientation that would turn the picture if applied: it must not be.
        let path = try Self.write(avif: avif, rotation: rotation, exif: avif ? nil : .rotate90)
        let reader = try ImageReader(path: path)
        let details = try #require(reader.header.details as? HEIFDetails)
        #expect(details.transformations == (rotation == 0 ? [] : ["irot \(rotation)"]))
        #expect(details.codec == (avif ? "AV1" : "HEVC"))
        #expect(reader.header.uprightSize == PixelSize(width: 96, height: 64))
        let image = try reader.readImage()
        #expect(TestSupport.maxDifference(image, try Self.heifConvert(path)) == 0)
        // Lossy at quality 90 over flat corners: each corner within 12 levels (measured up to 10 for AV1).
        for (x, y) in [(2, 2), (93, 2), (2, 61), (93, 61)] {
            let s = Self.pattern.sample(x: x, y: y)
            let c = image.rgba(x: x, y: y)
            let d = max(
                abs(Int(c.r) - Int(FixtureWriter.to8(s.r))), abs(Int(c.g) - Int(FixtureWriter.to8(s.g))),
                abs(Int(c.b) - Int(FixtureWriter.to8(s.b))))
            #expect(d <= 12, "\(avif ? "avif" : "heic") irot \(rotation) corner \(x),\(y): \(c)")
        }
    }

    @Test(arguments: [false, true])
    func alphaTurnsWithTheImage(_ avif: Bool) throws {
        let path = try Self.write(avif: avif, rotation: 90, alpha: true)
        let image = try ImageReader(path: path).readImage()
        #expect(image.format == .rgba)
        #expect(TestSupport.maxDifference(image, try Self.heifConvert(path)) == 0)
        var faded = Self.pattern
        faded.fade = true
        // The alpha is the faded pattern's, upright (a turned alpha would put the clear corner elsewhere).
        for (x, y) in [(0, 0), (95, 0), (0, 63), (95, 63), (48, 32)] {
            let want = Int(FixtureWriter.to8(faded.sample(x: x, y: y).a))
            #expect(abs(Int(image.rgba(x: x, y: y).a) - want) <= 4, "\(x),\(y): \(image.rgba(x: x, y: y).a) vs \(want)")
        }
    }

    @Test func rotationNeedsTheBoxesLibheifWrites() {
        #expect(HEIFBoxes.addingRotation(Array("not an heif file".utf8), degrees: 90) == nil)
    }
}
