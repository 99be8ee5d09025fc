import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZRAW

/// The RAW sniffer (which heads are camera RAWs, which plain TIFFs or others) and the
/// decoder on the real samples in ../shared/formats/raw, when present.
@Suite("Camera RAW decoder")
struct RAWDecoderTests {
    static let shared = FileSystem.join(FileSystem.directory(of: TestSupport.root), "shared/formats/raw")

    /// A little-endian TIFF head whose IFD0 holds `entries` (tag, type, count, value).
    static func tiff(_ entries: [(UInt16, UInt16, UInt32, UInt32)], tail: [UInt8] = []) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
        var b: [UInt8] = Array("II*\u{0}".utf8) + le32(8) + le16(UInt16(entries.count))
        for (tag, type, count, value) in entries { b += le16(tag) + le16(type) + le32(count) + le32(value) }
        return b + le32(0) + tail
    }

    @Test func sniffsCameraRAWs() {
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) + [UInt8](repeating: 0, count: 32) }
        #expect(RAWSniffer.isCameraRAW(ascii("FUJIFILMCCD-RAW 0201")))
        #expect(RAWSniffer.isCameraRAW([0, 0x4D, 0x52, 0x4D, 0, 0, 0, 8]))  // MRW
        #expect(RAWSniffer.isCameraRAW(ascii("II\u{1A}\u{0}\u{0}\u{0}HEAPCCDR")))  // CRW
        #expect(RAWSniffer.isCameraRAW([0, 0, 0, 0x18] + ascii("ftypcrx ")))  // CR3
        #expect(!RAWSniffer.isCameraRAW([0, 0, 0, 0x18] + ascii("ftypheic")))
        #expect(RAWSniffer.isCameraRAW(ascii("IIRO\u{8}\u{0}\u{0}\u{0}")))  // ORF
        #expect(RAWSniffer.isCameraRAW(ascii("IIU\u{0}\u{18}\u{0}\u{0}\u{0}")))  // RW2
        #expect(RAWSniffer.isCameraRAW(ascii("II*\u{0}\u{10}\u{0}\u{0}\u{0}CR\u{2}\u{0}")))  // CR2
        // DNGVersion, a CFA, a Nikon-compressed IFD0, a NIKON Make with sub-IFDs.
        #expect(RAWSniffer.isCameraRAW(Self.tiff([(256, 4, 1, 8), (50706, 1, 4, 0x0001_0401)])))
        #expect(RAWSniffer.isCameraRAW(Self.tiff([(262, 3, 1, 32803)])))
        #expect(RAWSniffer.isCameraRAW(Self.tiff([(259, 3, 1, 34713)])))
        let make = Array("NIKON CORPORATION".utf8) + [0]
        let makeAt = UInt32(8 + 2 + 12 * 2 + 4)
        #expect(
            RAWSniffer.isCameraRAW(Self.tiff([(271, 2, UInt32(make.count), makeAt), (330, 4, 1, 100)], tail: make)))
        // Plain TIFFs: an RGB scan, a Nikon scanner's TIFF without sub-IFDs.
        #expect(!RAWSniffer.isCameraRAW(Self.tiff([(256, 4, 1, 8), (262, 3, 1, 2), (259, 3, 1, 5)])))
        #expect(!RAWSniffer.isCameraRAW(Self.tiff([(271, 2, UInt32(make.count), makeAt), (262, 3, 1, 2)], tail: make)))
        #expect(!RAWSniffer.isCameraRAW([0xFF, 0xD8, 0xFF, 0xE0]))
    }

    @Test func hostileHeadsAreCheap() {
        // IFD offsets and counts past the head, a Make offset past the end, 65535 entries.
        let heads: [[UInt8]] = [
            Array("II*\u{0}".utf8) + [0xFF, 0xFF, 0xFF, 0x7F], Array("MM\u{0}*".utf8) + [0, 0, 0, 8, 0xFF, 0xFF],
            Self.tiff([(271, 2, 0xFFFF_FFFF, 0xFFFF_FFF0), (330, 4, 1, 1)]), Array("II*".utf8),
            Array("II*\u{0}".utf8) + [8, 0, 0, 0, 0xFF, 0xFF] + [UInt8](repeating: 0xAB, count: 4000),
        ]
        for head in heads { #expect(!RAWSniffer.isCameraRAW(head)) }
    }

    /// Every sample stub says it holds no image: reading it fails with one line naming it.
    @Test(.enabled(if: FileSystem.kind(of: shared) == .directory))
    func stubsFailWithOneLine() throws {
        for name in ["exiftool_DNG_EOS-350D.dng", "exiftool_Panasonic_DMC-LX3.rw2", "exiftool_Nikon_D70.nef"] {
            let path = FileSystem.join(Self.shared, "stubs/\(name)")
            guard FileSystem.kind(of: path) == .regular else { continue }
            let reader = try ImageReader(path: path)
            #expect(reader.header.format == .raw)
            let error = #expect(throws: DecodeError.self) { _ = try reader.readImage() }
            #expect(error.map { $0.description.hasPrefix(path) && !$0.description.contains("\n") } == true)
        }
    }

    /// The real lossy DNG: its sizes, camera and preview, read from the header alone.
    @Test(.enabled(if: FileSystem.kind(of: FileSystem.join(shared, "canon_eos6d_acr_lossy.dng")) == .regular))
    func canonDNGHeader() throws {
        let reader = try ImageReader(path: FileSystem.join(Self.shared, "canon_eos6d_acr_lossy.dng"))
        #expect(reader.header.storedSize == PixelSize(width: 1224, height: 816))
        let details = try #require(reader.header.details as? RAWDetails)
        #expect(details.camera == "Canon EOS 6D")
        #expect(details.preview == PixelSize(width: 1024, height: 683))
        #expect(details.dngVersion == "1.4.0.0")
        // The preview is the same picture (1224x816 vs 1024x683): offered at 1/1 to 1/8.
        #expect(reader.embeddedThumbnailSizes.last == PixelSize(width: 1024, height: 683))
        let thumb = try #require(try reader.readEmbeddedThumbnail(atLeast: PixelSize(width: 200, height: 130)))
        #expect(thumb.size == PixelSize(width: 256, height: 171))
    }

    /// The preview's decoder opened to read its size serves the first thumbnail decode; a
    /// second decode opens its own. Both equal djpeg's 1/4 of exiftool's `-PreviewImage`
    /// (the same libjpeg scaling, so pixel-exact), and a lenient read (which opens anew) too.
    @Test(
        .enabled(
            if: FileSystem.kind(of: FileSystem.join(shared, "canon_eos6d_acr_lossy.dng")) == .regular
                && TestSupport.shell("command -v exiftool djpeg > /dev/null") == 0))
    func previewDecodedOnceMatchesExiftoolsPreview() throws {
        let dng = FileSystem.join(Self.shared, "canon_eos6d_acr_lossy.dng")
        let ppm = FileSystem.join(TestSupport.scratch(), "preview.ppm")
        let status = TestSupport.shell("exiftool -b -PreviewImage '\(dng)' | djpeg -scale 1/4 -pnm > '\(ppm)'")
        #expect(status == 0)
        let reference = try #require(TestSupport.readPNM(ppm))
        #expect(reference.width == 256)
        let wanted = PixelSize(width: 200, height: 130)
        let reader = try ImageReader(path: dng)
        let first = try #require(try reader.readEmbeddedThumbnail(atLeast: wanted))
        let second = try #require(try reader.readEmbeddedThumbnail(atLeast: wanted))
        var lenientOptions = DecodeOptions()
        lenientOptions.lenient = true
        let lenientReader = try ImageReader(path: dng, options: lenientOptions)
        let lenient = try #require(try lenientReader.readEmbeddedThumbnail(atLeast: wanted))
        for image in [first, second, lenient] {
            #expect(image.size == reference.size)
            #expect(image.pixels == reference.pixels)
        }
    }
}
