import FZImage
import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZBMP
@testable import FZCodecs
@testable import FZFormat

/// OS/2 bitmap arrays ("BA" headers before "BM" bitmaps, issue 51 item 13): the first bitmap
/// of the array is read, equal to ImageMagick's first frame (`convert 'x.bmp[0]' rgba:-`;
/// Pillow reads no arrays). The files are made by Tools/formats/make-bmp-array.py; SPADE.BMP
/// (../shared/formats/bmp/realworld, a real one) when present.
@Suite("BMP arrays")
struct BMPArrayTests {
    static let made: String = {
        let dir = TestSupport.scratch()
        let script = TestSupport.path("Tools/formats/make-bmp-array.py")
        _ = TestSupport.shell("/usr/bin/python3 \(CLI.quote(script)) \(CLI.quote(dir))")
        return dir
    }()
    static let spade = FileSystem.join(
        FileSystem.directory(of: TestSupport.root), "shared/formats/bmp/realworld/SPADE.BMP")

    /// ImageMagick's first frame as RGBA. It warns on these files ("length and filesize do
    /// not match": it compares the bitmap's own size field with the whole file's) and exits
    /// 1, but writes the frame: its byte count decides.
    static func imageMagick(_ path: String, pixels: Int) -> [UInt8]? {
        let raw = FileSystem.join(TestSupport.scratch(), "ba.raw")
        _ = TestSupport.shell("/usr/bin/convert \(CLI.quote(path + "[0]")) -depth 8 rgba:\(CLI.quote(raw)) 2>/dev/null")
        let bytes = CLI.bytes(raw)
        return bytes.count == pixels * 4 ? bytes : nil
    }

    @Test(arguments: [("array-os2core.bmp", PixelSize(width: 13, height: 7)), ("array-os2v2.bmp", PixelSize(width: 9, height: 5))])
    func firstBitmapEqualsImageMagick(_ name: String, _ size: PixelSize) throws {
        let path = FileSystem.join(Self.made, name)
        let reader = try ImageReader(path: path)
        #expect(reader.header.format == .bmp)
        #expect(reader.header.uprightSize == size, "the first bitmap of the array, not the second")
        let image = try reader.readImage().converted(to: .rgba)
        let reference = try #require(Self.imageMagick(path, pixels: size.width * size.height), "ImageMagick reads \(name)")
        let problem = GIFTests.difference(image, reference)
        #expect(problem == nil, "\(name) against ImageMagick: \(problem ?? "")")
        #expect((reader.header.details as? BMPDetails)?.header.hasSuffix("(first of a bitmap array)") == true)
    }

    @Test(.enabled(if: FileSystem.kind(of: spade) == .regular, "needs ../shared/formats/bmp/realworld/SPADE.BMP"))
    func spadeEqualsImageMagick() throws {
        let image = try ImageReader(path: Self.spade).readImage().converted(to: .rgba)
        #expect(image.size == PixelSize(width: 58, height: 79))
        let reference = try #require(Self.imageMagick(Self.spade, pixels: image.width * image.height))
        let problem = GIFTests.difference(image, reference)
        #expect(problem == nil, "SPADE.BMP against ImageMagick: \(problem ?? "")")
    }

    /// "BA" without a bitmap after it is not taken for a BMP.
    @Test func arrayHeaderWithoutBitmapIsNotBMP() {
        var head = [UInt8]("BA".utf8) + [UInt8](repeating: 0, count: 40)
        #expect(!BMPDecoder.sniff(head))
        head[14] = 0x42
        head[15] = 0x4D
        head[16 + 14] = 12
        #expect(BMPDecoder.sniff(head))
    }
}
