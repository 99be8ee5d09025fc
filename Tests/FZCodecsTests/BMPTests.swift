import FZImage
import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZBMP
@testable import FZCodecs
@testable import FZFormat

/// The BMP reader against Pillow (`convert('RGBA')`), an independent BMP reader: the BMP
/// Suite's good files (../shared/formats/bmp/bmpsuite-2.8/g, when present) must equal it;
/// its questionable ones equal it or fail with one error naming the file; BMPs Pillow writes
/// (Tools/formats/make-gif-bmp.py) equal it. The bad ones are run through the binary in
/// EndToEndTests (BMPSuiteCLITests).
@Suite("BMP")
struct BMPTests {
    static let suite = FileSystem.join(FileSystem.directory(of: TestSupport.root), "shared/formats/bmp/bmpsuite-2.8")

    static func files(_ folder: String) -> [String] {
        let dir = FileSystem.join(suite, folder)
        return ((try? FileSystem.list(dir)) ?? []).filter { $0.lowercased().hasSuffix(".bmp") }.sorted()
            .map { FileSystem.join(dir, $0) }
    }

    /// Ours, RGBA.
    static func ours(_ path: String) throws(DecodeError) -> Image {
        try ImageReader(path: path).readImage().converted(to: .rgba)
    }

    /// ImageMagick's decode (`convert x.bmp rgba:-`), RGBA, for the files Pillow 9.4 reads
    /// wrongly; nil when ImageMagick is not installed or refuses the file.
    static func imageMagick(_ path: String) -> [UInt8]? {
        let raw = FileSystem.join(TestSupport.scratch(), "m.raw")
        guard TestSupport.shell("command -v convert > /dev/null") == 0,
            TestSupport.shell("convert \(CLI.quote(path)) -depth 8 rgba:\(CLI.quote(raw)) 2>/dev/null") == 0
        else { return nil }
        return CLI.bytes(raw)
    }

    /// Files Pillow 9.4 (Debian 12's) reads wrongly, checked against ImageMagick instead:
    /// its RLE reader drops the last pixel of an odd-length RLE4 literal run and reads two
    /// bytes too many after a delta (BmpImagePlugin.py, BmpRleDecoder); it ignores the alpha
    /// mask of 16-bit 5-5-5-1 and of a BITMAPV5HEADER 32-bit file whose masks it lists as RGB.
    static let pillowReadsWrongly: Set<String> = [
        "pal4rle.bmp", "pal4rlecut.bmp", "pal4rletrns.bmp", "pal8rlecut.bmp", "pal8rletrns.bmp",
        "rgba32-1.bmp",
    ]

    /// No reference: Pillow ignores this file's 1-bit alpha mask and ImageMagick 6.9 widens
    /// it to 128 (ours: 0 or 255, as a 1-bit field widens by v * 255 / 1).
    static let noReference: Set<String> = ["rgba16-5551.bmp"]

    /// The reference for one Suite file: Pillow's, or ImageMagick's where Pillow is wrong.
    static func reference(_ path: String) -> (name: String, pixels: [UInt8]?) {
        let name = FileSystem.basename(path)
        if noReference.contains(name) { return ("nothing", nil) }
        if pillowReadsWrongly.contains(name) { return ("ImageMagick", imageMagick(path)) }
        return ("Pillow", GIFTests.pillow(path))
    }

    @Test func goodFilesEqualTheReference() throws {
        for path in Self.files("g") {
            let image = try Self.ours(path)
            let (oracle, pixels) = Self.reference(path)
            // g/rgb32bf.bmp: masks Pillow does not list ("Unsupported BMP bitfields layout").
            guard let pixels else { continue }
            let problem = GIFTests.difference(image, pixels)
            #expect(problem == nil, "\(FileSystem.basename(path)) against \(oracle): \(problem ?? "")")
        }
    }

    /// Questionable files: where the reference reads one, the same pixels; where ours
    /// refuses one, a `DecodeError` naming it, on one line. Files only ours reads (odd bit
    /// masks, 2-bit palettes, V2/V3 headers Pillow refuses) are not compared.
    @Test func questionableFilesEqualTheReferenceOrFailInOneLine() throws {
        for path in Self.files("q") {
            let name = FileSystem.basename(path)
            let (oracle, pixels) = Self.reference(path)
            do {
                let image = try Self.ours(path)
                if let pixels {
                    let problem = GIFTests.difference(image, pixels)
                    #expect(problem == nil, "\(name) against \(oracle): \(problem ?? "")")
                }
            } catch {
                #expect(error.description.hasPrefix(path + ": "), "\(error)")
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test(arguments: ["pil1.bmp", "pil8.bmp", "pilgray.bmp", "pil24.bmp"])
    func pillowWrittenFilesEqualPillow(_ name: String) throws {
        let path = FileSystem.join(GIFTests.made, name)
        let reference = try #require(GIFTests.pillow(path))
        let problem = GIFTests.difference(try Self.ours(path), reference)
        #expect(problem == nil, "\(name): \(problem ?? "")")
    }

    /// A bottom-up file is read row by row from the end: a crop of the bottom rows equals
    /// those rows of the whole image.
    @Test func cropsOfBottomUpFilesEqualTheWhole() throws {
        let path = FileSystem.join(GIFTests.made, "pil24.bmp")
        let whole = try ImageReader(path: path).readImage()
        let rect = PixelRect(x: 3, y: 15, width: 20, height: 6)
        let crop = try ImageReader(path: path).readStored([rect])[0]
        #expect(crop == whole.cropped(to: rect))
    }

    @Test func infoSaysWhatTheHeaderHolds() throws {
        let path = FileSystem.join(GIFTests.made, "pil8.bmp")
        let details = try #require(try ImageReader(path: path).header.details as? BMPDetails)
        #expect(details.header == "BITMAPINFOHEADER")
        #expect(details.bitsPerPixel == 8)
        #expect(details.compression == "none")
        #expect(!details.topDown)
    }
}
