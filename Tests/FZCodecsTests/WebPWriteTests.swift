import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFixtures
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// WebP written by `fixture` and the writers: read back by forcezoom and by dwebp (an
/// independent reader of the container, the same libwebp decoder), byte-reproducible.
struct WebPWriteTests {
    static let reference = Pattern(.orientation, size: PixelSize(width: 96, height: 64))

    static func write(_ encoding: FixtureEncoding, _ name: String, pattern: Pattern = reference) throws -> String {
        let path = FileSystem.join(TestSupport.scratch(), name)
        try FixtureWriter.write(pattern, encoding: encoding, to: path)
        return path
    }

    /// dwebp's decode of `path` (stored orientation: dwebp ignores EXIF).
    static func dwebp(_ path: String) throws -> Image {
        let png = path + ".dwebp.png"
        #expect(TestSupport.shell("dwebp -quiet '\(path)' -o '\(png)'") == 0)
        var o = DecodeOptions()
        o.autoOrient = false
        return try ImageReader(path: png, options: o).readImage()
    }

    @Test(arguments: 1...8)
    func losslessFixtureWithEXIFOrientationIsUpright(_ n: Int) throws {
        var e = FixtureEncoding()
        e.webp = true
        e.lossless = true
        e.exifOrientation = Orientation(rawValue: n)
        let path = try Self.write(e, "o\(n).webp")
        let reader = try ImageReader(path: path)
        #expect(reader.header.format == .webp && reader.header.exifOrientationValue == n)
        let image = try reader.readImage()
        #expect(image.size == PixelSize(width: 96, height: 64))
        for y in 0..<64 {
            for x in 0..<96 {
                let s = Self.reference.sample(x: x, y: y)
                let c = image.rgba(x: x, y: y)
                if c.r != FixtureWriter.to8(s.r) || c.g != FixtureWriter.to8(s.g) || c.b != FixtureWriter.to8(s.b) {
                    Issue.record("exif \(n) at \(x),\(y): \(c)")
                    return
                }
            }
        }
        var stored = DecodeOptions()
        stored.autoOrient = false
        #expect(
            TestSupport.maxDifference(try ImageReader(path: path, options: stored).readImage(), try Self.dwebp(path))
                == 0)
    }

    /// Lossy with alpha: dwebp reads the same pixels; the picture within the measured bound
    /// of libwebp at quality 92 on this pattern (mean error under 3 levels).
    @Test func lossyAlphaFixture() throws {
        var e = FixtureEncoding()
        e.webp = true
        e.color = .rgba
        var faded = Self.reference
        faded.fade = true
        let path = try Self.write(e, "a.webp", pattern: faded)
        let image = try ImageReader(path: path).readImage()
        #expect(image.format == .rgba)
        #expect(TestSupport.maxDifference(image, try Self.dwebp(path)) == 0)
        var total = 0
        for y in 0..<64 {
            for x in 0..<96 {
                let s = faded.sample(x: x, y: y)
                let c = image.rgba(x: x, y: y)
                #expect(c.a == FixtureWriter.to8(s.a), "alpha is lossless (cwebp's default -alpha_q 100)")
                if c.a < 8 { continue }  // colour under (nearly) no alpha is free to change
                total +=
                    abs(Int(c.r) - Int(FixtureWriter.to8(s.r))) + abs(Int(c.g) - Int(FixtureWriter.to8(s.g)))
                    + abs(Int(c.b) - Int(FixtureWriter.to8(s.b)))
            }
        }
        #expect(Double(total) / Double(96 * 64 * 3) < 3)
    }

    @Test func writingIsReproducible() throws {
        var e = FixtureEncoding()
        e.webp = true
        e.exifOrientation = .rotate90
        let a = try Self.write(e, "x.webp")
        let b = try Self.write(e, "x.webp")
        let bytes = { (p: String) in try #require(CFile.open(readingFrom: p).get().readAll(limit: 1 << 20)) }
        #expect(try bytes(a) == bytes(b))
    }
}
