import FZImage
import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZBMP
@testable import FZCodecs
@testable import FZFormat

/// OS/2 bitmap arrays ("BA" headers before "BM" bitmaps, issue 51 item 13): the first bitmap
/// of the array is read, equal to Pillow's reading of that bitmap alone (the array's 14-byte
/// header taken off, the pixel offset moved back by as much: Pillow reads no arrays, and
/// ImageMagick 6.9.11 reads SPADE.BMP's pixels as black). The files are made by
/// Tools/formats/make-bmp-array.py; SPADE.BMP (../shared/formats/bmp/realworld, a real one)
/// when present.
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

    /// Pillow's RGBA reading of the array's first bitmap on its own.
    static func pillowOfFirstBitmap(_ path: String) -> [UInt8]? {
        var bytes = Array(CLI.bytes(path).dropFirst(14))
        guard bytes.count > 14 else { return nil }
        let offset = (10..<14).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 10)) } - 14
        for k in 0..<4 { bytes[10 + k] = UInt8((offset >> (8 * k)) & 0xFF) }
        let plain = FileSystem.join(TestSupport.scratch(), "plain.bmp")
        CLI.write(plain, bytes)
        return GIFTests.pillow(plain)
    }

    @Test(arguments: [
        ("array-os2core.bmp", PixelSize(width: 13, height: 7)), ("array-os2v2.bmp", PixelSize(width: 9, height: 5)),
    ])
    func firstBitmapEqualsPillow(_ name: String, _ size: PixelSize) throws {
        let path = FileSystem.join(Self.made, name)
        let reader = try ImageReader(path: path)
        #expect(reader.header.format == .bmp)
        #expect(reader.header.uprightSize == size, "the first bitmap of the array, not the second")
        let image = try reader.readImage().converted(to: .rgba)
        let reference = try #require(Self.pillowOfFirstBitmap(path), "Pillow reads \(name)'s bitmap")
        let problem = GIFTests.difference(image, reference)
        #expect(problem == nil, "\(name) against Pillow: \(problem ?? "")")
        #expect((reader.header.details as? BMPDetails)?.header.hasSuffix("(first of a bitmap array)") == true)
    }

    @Test(.enabled(if: FileSystem.kind(of: spade) == .regular, "needs ../shared/formats/bmp/realworld/SPADE.BMP"))
    func spadeEqualsPillow() throws {
        let image = try ImageReader(path: Self.spade).readImage().converted(to: .rgba)
        #expect(image.size == PixelSize(width: 58, height: 79))
        let reference = try #require(Self.pillowOfFirstBitmap(Self.spade))
        let problem = GIFTests.difference(image, reference)
        #expect(problem == nil, "SPADE.BMP against Pillow: \(problem ?? "")")
    }

    /// "BA" without a bitmap after it is not taken for a BMP.
    @Test func arrayHeaderWithoutBitmapIsNotBMP() {
        var head = [UInt8]("BA".utf8) + [UInt8](repeating: 0, count: 40)
        #expect(!BMPDecoder.sniff(head))
        head[14] = 0x42
        head[15] = 0x4D
        head[14 + 14] = 12
        #expect(BMPDecoder.sniff(head))
    }
}
