import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// JPEG XL through libjxl against `djxl`'s output (the same library: exact where djxl
/// writes what it decoded) and the pictures the files were made from
/// (Tools/formats/make-jxl.sh, run by `make formats`).
struct JXLTests {
    static func path(_ name: String) -> String { TestSupport.path(".cache/jxl/\(name)") }

    static func decode(_ name: String, options: DecodeOptions = DecodeOptions()) throws -> Image {
        try ImageReader(path: path(name), options: options).readImage()
    }

    /// The largest difference where either image is not fully transparent (djxl and
    /// libjxl's own output leave different colours under alpha 0, which no one sees).
    static func visibleDifference(_ a: Image, _ b: Image) -> Int {
        let a = a.converted(to: .rgba)
        let b = b.converted(to: .rgba)
        var m = 0
        for p in 0..<(a.width * a.height) where a.pixels[p * 4 + 3] != 0 || b.pixels[p * 4 + 3] != 0 {
            for k in 0..<4 { m = max(m, abs(Int(a.pixels[p * 4 + k]) - Int(b.pixels[p * 4 + k]))) }
        }
        return m
    }

    @Test func sniffsTheCodestreamAndTheContainer() throws {
        let bare: [UInt8] = [0xFF, 0x0A] + [UInt8](repeating: 0, count: 30)
        let boxed: [UInt8] =
            [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A] + [UInt8](repeating: 0, count: 20)
        #expect(ImageFormat.sniff(bare) == .supported(.jxl))
        #expect(ImageFormat.sniff(boxed) == .supported(.jxl))
        #expect(try ImageReader(path: Self.path("jxl-lossless.jxl")).header.details.description.contains("codestream"))
        #expect(try ImageReader(path: Self.path("jxl-16.jxl")).header.details.description.contains("isobmff"))
    }

    @Test(arguments: ["jxl-lossy", "jxl-lossless", "jxl-gray", "jxl-meta", "jxl-alpha", "jxl-alpha-lossless"])
    func wholeImageEqualsDjxl(_ name: String) throws {
        let image = try Self.decode("\(name).jxl")
        let reference = try ImageReader(path: Self.path("\(name).ref.png")).readImage()
        #expect(image.size == reference.size)
        #expect(image.format == reference.format, "\(name): grey, colour and alpha as stored")
        #expect(Self.visibleDifference(image, reference) == 0, "\(name): the same libjxl as djxl")
    }

    @Test func losslessIsTheSourcePicture() throws {
        let image = try Self.decode("jxl-lossless.jxl")
        #expect(TestSupport.maxDifference(image, try TestSupport.decodeFixture("coords-512x384.png")) == 0)
        let alpha = try Self.decode("jxl-alpha-lossless.jxl")
        #expect(TestSupport.maxDifference(alpha, try TestSupport.decodeFixture("png-rgba-8.png")) == 0)
    }

    @Test(arguments: [
        PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 137, y: 61, width: 101, height: 77),
        PixelRect(x: 598, y: 390, width: 2, height: 10), PixelRect(x: 300, y: 0, width: 300, height: 400),
    ])
    func cropsEqualTheFullDecode(_ rect: PixelRect) throws {
        let reference = try ImageReader(path: Self.path("jxl-lossy.ref.png")).readImage()
        let crop = try ImageReader(path: Self.path("jxl-lossy.jxl")).readStored([rect])[0]
        #expect(TestSupport.maxDifference(crop, reference.cropped(to: rect)) == 0, "\(rect)")
    }

    /// 16-bit samples kept (`readStored16`) are djxl's 16-bit PNG, and the source's.
    @Test func sixteenBitSamplesAreKept() throws {
        let reader = try ImageReader(path: Self.path("jxl-16.jxl"))
        #expect(reader.header.bitDepth == 16 && reader.hasDeepSamples)
        let rect = PixelRect(size: reader.header.storedSize)
        let deep = try reader.readStored16([rect])[0]
        let reference = try ImageReader(path: Self.path("jxl-16.ref.png")).readStored16([rect])[0]
        let source = try ImageReader(path: TestSupport.fixturePath("png-rgb-16.png")).readStored16([rect])[0]
        #expect(deep.bytes == reference.bytes)
        #expect(deep.bytes == source.bytes)
        let eight = try Self.decode("jxl-16.jxl")
        #expect(eight.format == .rgb && eight.size == rect.size)
    }

    /// The codestream orientation (cjxl moved the PNG's eXIf there) is applied as EXIF's:
    /// stored size as coded, the upright picture exactly djxl's.
    @Test(arguments: 1...8)
    func codestreamOrientationIsApplied(_ n: Int) throws {
        let reader = try ImageReader(path: Self.path("jxl-exif-\(n).jxl"))
        #expect(reader.header.exifOrientationValue == (n == 1 ? nil : n))
        #expect(reader.header.uprightSize == PixelSize(width: 96, height: 64))
        #expect(
            reader.header.storedSize == (n >= 5 ? PixelSize(width: 64, height: 96) : PixelSize(width: 96, height: 64)))
        let image = try reader.readImage()
        let reference = try ImageReader(path: Self.path("jxl-exif-\(n).ref.png")).readImage()
        #expect(TestSupport.maxDifference(image, reference) == 0, "orientation \(n)")
        var stored = DecodeOptions()
        stored.autoOrient = false
        #expect(try Self.decode("jxl-exif-\(n).jxl", options: stored).size == reader.header.storedSize)
    }

    @Test func animationFramesAreComposited() throws {
        let reader = try ImageReader(path: Self.path("jxl-anim.jxl"))
        #expect(reader.header.details.description.contains("animated, 2 frames"))
        let first = try reader.readImage()
        #expect(
            TestSupport.maxDifference(first, try TestSupport.decodeFixture("png-rgb-8.png").converted(to: .rgb)) == 0)
        #expect(reader.warnings.contains { $0.contains("the first frame is used (--frame N picks another)") })
        var two = DecodeOptions()
        two.frame = 2
        let second = try Self.decode("jxl-anim.jxl", options: two)
        let frame2 = try ImageReader(path: TestSupport.path(".cache/formats/frame2.png")).readImage()
        #expect(TestSupport.maxDifference(second, frame2.converted(to: second.format)) == 0)
        var three = DecodeOptions()
        three.frame = 3
        #expect(throws: DecodeError.noSuchFrame(path: Self.path("jxl-anim.jxl"), frame: 3, frames: 2)) {
            try ImageReader(path: Self.path("jxl-anim.jxl"), options: three)
        }
    }

    /// cjxl keeps a JPEG's Exif and XMP in Brotli-compressed "brob" boxes; libjxl
    /// decompresses them.
    @Test func exifAndXMPBoxesAreRead() throws {
        let reader = try ImageReader(path: Self.path("jxl-meta.jxl"))
        let exif = try #require(reader.decoder.exif)
        #expect(exif.starts(with: Array("MM\0*".utf8)) || exif.starts(with: Array("II*\0".utf8)), "a TIFF header first")
        #expect(exif.firstRange(of: Array("forcezoom test".utf8)) != nil)
        let xmp = try #require(reader.decoder.xmp)
        #expect(xmp.firstRange(of: Array("jxl box".utf8)) != nil)
    }

    /// A codestream whose size header claims 2^30 x 2^30 pixels: refused from the header,
    /// before anything is allocated.
    static let lyingHeader = JXLSamples.lyingHeader

    @Test func aLyingHeaderIsRefusedBeforeDecoding() throws {
        #expect(throws: DecodeError.self) { try ImageReader(bytes: Self.lyingHeader, name: "lie.jxl") }
        do {
            _ = try ImageReader(bytes: Self.lyingHeader, name: "lie.jxl")
        } catch {
            guard case .tooManyPixels(_, let size, _) = error else {
                Issue.record("expected tooManyPixels, got \(error)")
                return
            }
            #expect(size == PixelSize(width: 1 << 30, height: 1 << 30))
        }
    }

    @Test(arguments: [3, 20, 200, 1000])
    func aTruncatedFileFails(_ keep: Int) throws {
        let file = try CFile.open(readingFrom: Self.path("jxl-lossy.jxl")).get()
        let bytes = Array(file.read(upTo: 1 << 20).prefix(keep))
        #expect(throws: DecodeError.self) { try ImageReader(bytes: bytes, name: "cut.jxl").readImage() }
    }
}
