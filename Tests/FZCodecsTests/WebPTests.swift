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

/// WebP through libwebp against `dwebp`'s output (the same library routines: exact) and the
/// patterns the files were made from (Tools/formats/make-formats.sh, run by `make test`).
struct WebPTests {
    static func path(_ name: String) -> String { TestSupport.path(".cache/formats/\(name)") }

    static func decode(_ name: String, autoOrient: Bool = true) throws -> Image {
        var o = DecodeOptions()
        o.autoOrient = autoOrient
        return try ImageReader(path: path(name), options: o).readImage()
    }

    @Test(arguments: ["webp-lossy", "webp-lossless", "webp-alpha", "webp-alpha-lossless"])
    func wholeImageEqualsDwebp(_ name: String) throws {
        let image = try Self.decode("\(name).webp")
        let reference = try ImageReader(path: Self.path("\(name).ref.png")).readImage()
        #expect(image.size == reference.size)
        #expect(image.format == reference.format, "\(name): alpha only where the file has it")
        #expect(TestSupport.maxDifference(image, reference) == 0, "\(name): same libwebp routines as dwebp")
    }

    /// libwebp's crop window (from an even column, with spare columns) and the rows cut off
    /// below give exactly the pixels of a full decode, at odd and even edges.
    @Test(arguments: [
        PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 1, y: 1, width: 3, height: 5),
        PixelRect(x: 137, y: 61, width: 101, height: 77), PixelRect(x: 598, y: 390, width: 2, height: 10),
        PixelRect(x: 300, y: 0, width: 300, height: 400), PixelRect(x: 3, y: 200, width: 1, height: 1),
    ])
    func lossyCropsEqualTheFullDecode(_ rect: PixelRect) throws {
        let reference = try ImageReader(path: Self.path("webp-lossy.ref.png")).readImage()
        let crop = try ImageReader(path: Self.path("webp-lossy.webp")).readStored([rect])[0]
        #expect(TestSupport.maxDifference(crop, reference.cropped(to: rect)) == 0, "\(rect)")
    }

    /// A reduced decode (what thumbnails, fit and frame ask for) goes through libwebp's
    /// rescaler: row for row what `dwebp -scale` writes for the same size.
    @Test(arguments: [("webp-lossy", 2), ("webp-lossy", 8), ("webp-alpha", 4), ("webp-lossless", 2)])
    func reducedDecodeEqualsDwebpScale(_ name: String, _ d: Int) throws {
        let reader = try ImageReader(
            path: Self.path("\(name).webp"),
            options: {
                var o = DecodeOptions()
                o.autoOrient = false
                return o
            }())
        #expect(
            reader.reductionDenominator(keepingAtLeast: PixelSize(width: 1, height: 1)) == 8,
            "still WebP offers 1/2, 1/4, 1/8")
        let size = try reader.beginRows(denominator: d)
        #expect(
            size
                == PixelSize(
                    width: (reader.header.storedSize.width + d - 1) / d,
                    height: (reader.header.storedSize.height + d - 1) / d))
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * reader.header.pixelFormat.channels)
        let rowBytes = size.width * reader.header.pixelFormat.channels
        try pixels.withUnsafeMutableBufferPointer { buffer throws(DecodeError) in
            for y in 0..<size.height { #expect(try reader.readNextRow(into: buffer.baseAddress! + y * rowBytes)) }
        }
        let image = Image(width: size.width, height: size.height, format: reader.header.pixelFormat, pixels: pixels)
        let dir = TestSupport.scratch()
        let out = dir + "/scaled.png"
        defer {
            unlink(out)
            rmdir(dir)
        }
        #expect(
            TestSupport.shell(
                "dwebp -quiet -scale \(size.width) \(size.height) '\(Self.path("\(name).webp"))' -o '\(out)'") == 0)
        let reference = try ImageReader(path: out).readImage()
        #expect(image.size == reference.size)
        #expect(TestSupport.maxDifference(image, reference) == 0, "\(name) at 1/\(d)")
    }

    @Test func losslessIsTheSourcePicture() throws {
        let image = try Self.decode("webp-lossless.webp")
        let source = try TestSupport.decodeFixture("coords-512x384.png")
        #expect(TestSupport.maxDifference(image, source) == 0)
        let rect = PixelRect(x: 33, y: 17, width: 64, height: 40)
        let crop = try ImageReader(path: Self.path("webp-lossless.webp")).readStored([rect])[0]
        #expect(CoordinateCode.trace(crop) == CoordinateCode.Trace(sourceRect: rect, orientation: .up))
    }

    /// Every EXIF orientation in an EXIF chunk turns the stored picture upright, exactly
    /// (lossless), with the corners where the orientation pattern has them.
    @Test(arguments: 1...8)
    func exifOrientationIsApplied(_ n: Int) throws {
        let name = "webp-exif-\(n).webp"
        let reader = try ImageReader(path: Self.path(name))
        #expect(reader.header.exifOrientationValue == n)
        #expect(reader.header.uprightSize == PixelSize(width: 96, height: 64))
        let image = try reader.readImage()
        let reference = Pattern(.orientation, size: PixelSize(width: 96, height: 64))
        for (x, y) in [(0, 0), (95, 0), (0, 63), (95, 63), (40, 30)] {
            let s = reference.sample(x: x, y: y)
            let c = image.rgba(x: x, y: y)
            #expect(
                c.r == FixtureWriter.to8(s.r) && c.g == FixtureWriter.to8(s.g) && c.b == FixtureWriter.to8(s.b),
                "\(name) at \(x),\(y): \(c)")
        }
        let expected = try TestSupport.decodeFixture("png-rgb-8-trns.png").converted(to: .rgb)
        #expect(TestSupport.maxDifference(image, expected) == 0, "\(name)")
        let stored = try Self.decode(name, autoOrient: false)
        #expect(stored.size == (n >= 5 ? PixelSize(width: 64, height: 96) : PixelSize(width: 96, height: 64)))
    }

    @Test func animationGivesTheFirstFrameWithANote() throws {
        let reader = try ImageReader(path: Self.path("webp-anim.webp"))
        let image = try reader.readImage()
        #expect(TestSupport.maxDifference(image, try TestSupport.decodeFixture("png-rgb-8.png")) == 0)
        #expect(reader.warnings.contains { $0.contains("2 frames") && $0.contains("first frame") })
        #expect(reader.header.details.summary.contains { $0.contains("animated") })
    }

    /// `--frame N`: frame 2 of the animation (lossless: exactly the picture it was made from);
    /// past the last frame, and past the first of a still image, one clear error.
    @Test func frameNumberPicksTheFrame() throws {
        var o = DecodeOptions()
        o.frame = 2
        let reader = try ImageReader(path: Self.path("webp-anim.webp"), options: o)
        let image = try reader.readImage()
        #expect(TestSupport.maxDifference(image, try ImageReader(path: Self.path("frame2.png")).readImage()) == 0)
        #expect(reader.warnings == ["animated WebP: frame 2 of 2 is used"])
        o.frame = 3
        #expect(throws: DecodeError.noSuchFrame(path: Self.path("webp-anim.webp"), frame: 3, frames: 2)) {
            _ = try ImageReader(path: Self.path("webp-anim.webp"), options: o)
        }
        o.frame = 2
        #expect(throws: DecodeError.noSuchFrame(path: Self.path("webp-lossy.webp"), frame: 2, frames: 1)) {
            _ = try ImageReader(path: Self.path("webp-lossy.webp"), options: o)
        }
        #expect(throws: DecodeError.noSuchFrame(path: TestSupport.fixturePath("png-rgb-8.png"), frame: 2, frames: 1)) {
            _ = try ImageReader(path: TestSupport.fixturePath("png-rgb-8.png"), options: o)
        }
    }

    /// A crop near the top of a file cut at 80% decodes: the incremental decoder is fed only
    /// up to the rows the crop needs. The whole image fails as truncated (and, lenient, keeps
    /// the rows that decoded).
    @Test func cropsStopAtTheirLastRow() throws {
        let bytes = try #require(CFile.open(readingFrom: Self.path("webp-lossy.webp")).get().readAll(limit: 1 << 24))
        // At 80% of this file libwebp has decoded 39 of the 400 rows (mostly flat: the mode
        // partition, which must be whole before any row, is most of it).
        let half = Array(bytes[0..<(bytes.count * 8 / 10)])
        let reference = try ImageReader(path: Self.path("webp-lossy.ref.png")).readImage()
        let rect = PixelRect(x: 10, y: 5, width: 200, height: 25)
        let crop = try ImageReader(bytes: half, name: "half.webp").readStored([rect])[0]
        #expect(TestSupport.maxDifference(crop, reference.cropped(to: rect)) == 0)
        #expect {
            _ = try ImageReader(bytes: half, name: "half.webp").readImage()
        } throws: { error in
            guard case DecodeError.truncated(let p, _) = error else { return false }
            return p == "half.webp"
        }
        var lenient = DecodeOptions()
        lenient.lenient = true
        let reader = try ImageReader(bytes: half, name: "half.webp", options: lenient)
        let partial = try reader.readImage()
        #expect(reader.warnings.count == 1)
        let top = PixelRect(x: 0, y: 0, width: 600, height: 32)
        #expect(TestSupport.maxDifference(partial.cropped(to: top), reference.cropped(to: top)) == 0)
    }
}
