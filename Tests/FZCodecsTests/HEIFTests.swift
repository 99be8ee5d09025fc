import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFixtures
@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// HEIF/HEIC/AVIF through libheif against `heif-convert`'s output and the pictures the files
/// were made from (Tools/formats/make-formats.sh, run by `make test`).
struct HEIFTests {
    static func path(_ name: String) -> String { TestSupport.path(".cache/formats/\(name)") }

    /// heif-convert's PNG, as stored: it copies the file's EXIF (orientation included) into
    /// an eXIf chunk, which forcezoom would otherwise apply to the PNG.
    static func reference(_ name: String) throws -> Image {
        var o = DecodeOptions()
        o.autoOrient = false
        return try ImageReader(path: path("\(name).ref.png"), options: o).readImage()
    }

    /// heif-convert decodes with the same libheif call (RGB, interleaved) and writes PNG:
    /// the pixels are identical, for HEVC (libde265) and AV1 (dav1d/aom), with and without alpha.
    @Test(arguments: ["heic-corners.heic", "avif-corners.avif", "heic-alpha.heic", "heic-exif-6.heic"])
    func wholeImageEqualsHeifConvert(_ name: String) throws {
        let reader = try ImageReader(path: Self.path(name))
        #expect(reader.header.format == .heif)
        let image = try reader.readImage()
        let reference = try Self.reference(String(name.split(separator: ".")[0]))
        try #require(image.size == reference.size)
        #expect(image.format == (name.contains("alpha") ? .rgba : .rgb))
        #expect(TestSupport.maxDifference(image, reference.converted(to: image.format)) == 0, "\(name)")
    }

    /// `irot` and `imir` are applied by libheif: the upright picture comes out, exactly as
    /// heif-convert gives it and within 1 level of the orientation pattern (lossless HEVC in
    /// RGB; libheif's conversion rounds), corners included.
    @Test(arguments: ["heic-irot-90", "heic-irot-180", "heic-irot-270", "heic-imir"])
    func transformationsGiveTheUprightPicture(_ name: String) throws {
        let reader = try ImageReader(path: Self.path("\(name).heic"))
        #expect(reader.header.orientation == .up)
        #expect(reader.header.uprightSize == PixelSize(width: 96, height: 64))
        let details = try #require(reader.header.details as? HEIFDetails)
        #expect(
            details.transformations == [
                name == "heic-imir" ? "imir top-bottom" : "irot \(name.split(separator: "-").last!)"
            ])
        let image = try reader.readImage()
        #expect(TestSupport.maxDifference(image, try Self.reference(name)) == 0)
        let picture = try TestSupport.decodeFixture("png-rgb-8-trns.png").converted(to: .rgb)
        #expect(TestSupport.maxDifference(image, picture) <= 1, "\(name)")
        let pattern = Pattern(.orientation, size: PixelSize(width: 96, height: 64))
        for (x, y) in [(0, 0), (95, 0), (0, 63), (95, 63)] {
            let s = pattern.sample(x: x, y: y)
            let c = image.rgba(x: x, y: y)
            #expect(
                abs(Int(c.r) - Int(FixtureWriter.to8(s.r))) <= 1 && abs(Int(c.g) - Int(FixtureWriter.to8(s.g))) <= 1
                    && abs(Int(c.b) - Int(FixtureWriter.to8(s.b))) <= 1, "\(name) corner \(x),\(y): \(c)")
        }
    }

    /// An EXIF Orientation inside an HEIF file is reported, never applied (HEIF/MIAF: the
    /// transformation properties are the orientation), with or without --no-auto-orient.
    @Test func exifOrientationIsNotApplied() throws {
        let reader = try ImageReader(path: Self.path("heic-exif-6.heic"))
        #expect(reader.header.exifOrientationValue == 6)
        #expect(reader.header.orientation == .up)
        #expect(reader.header.uprightSize == PixelSize(width: 64, height: 96))
    }

    @Test func cropsEqualTheFullDecode() throws {
        let full = try Self.reference("heic-corners")
        for rect in [
            PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 301, y: 157, width: 99, height: 203),
            PixelRect(x: 590, y: 390, width: 10, height: 10),
        ] {
            let crop = try ImageReader(path: Self.path("heic-corners.heic")).readStored([rect])[0]
            #expect(TestSupport.maxDifference(crop, full.cropped(to: rect)) == 0, "\(rect)")
        }
    }

    /// 10 bits are rounded to 8 by libheif; heif-convert writes 16-bit PNG, which forcezoom's
    /// PNG reader rounds to 8: the two roundings differ by at most 1 level (measured: 1).
    @Test func tenBitToEight() throws {
        let reader = try ImageReader(path: Self.path("heic-10bit.heic"))
        #expect(reader.header.bitDepth == 10)
        let image = try reader.readImage()
        #expect(TestSupport.maxDifference(image, try Self.reference("heic-10bit")) <= 1)
    }

    @Test func infoShowsBrandCodecThumbnailsAndColour() throws {
        let heic = try #require(try ImageReader(path: Self.path("heic-thumb.heic")).header.details as? HEIFDetails)
        #expect(heic.brand == "heic" && heic.codec == "HEVC" && heic.bitDepth == 8)
        #expect(heic.thumbnails == [PixelSize(width: 160, height: 106)])
        let avif = try #require(try ImageReader(path: Self.path("avif-corners.avif")).header.details as? HEIFDetails)
        #expect(avif.brand == "avif" && avif.codec == "AV1")
        #expect(avif.colorType == "nclx" && avif.nclx?.count == 4)
        let grid = try #require(try ImageReader(path: Self.path("heic-alpha.heic")).header.details as? HEIFDetails)
        #expect(grid.gridTiles == 1 && grid.codec == "HEVC" && grid.hasAlpha)
    }

    /// The box reader survives any cut of a real file (no trap, no hang) and reads the whole one.
    @Test func boxReaderOnEveryPrefix() throws {
        let bytes = try #require(CFile.open(readingFrom: Self.path("heic-irot-90.heic")).get().readAll(limit: 1 << 22))
        #expect(HEIFBoxes(bytes).transformations == ["irot 90"])
        for n in stride(from: 0, to: min(bytes.count, 2000), by: 7) { _ = HEIFBoxes(Array(bytes[0..<n])) }
    }

    /// The SPS reader agrees with the encoder: every HEVC file made by heif-enc declares the
    /// picture its ispe says (a grid tile or a picture rounded up to 64 at most), with the bit
    /// depth libheif reports; the grid descriptor of the hostile set's good grid is its 64x48.
    @Test(arguments: ["heic-corners.heic", "heic-alpha.heic", "heic-irot-90.heic", "heic-10bit.heic"])
    func parameterSetsMatchTheHeader(_ name: String) throws {
        guard FileSystem.kind(of: Self.path(name)) == .regular else { return }
        let boxes = HEIFBoxes(CLIBytes.read(Self.path(name)))
        let coded = try #require(boxes.largestCodedSize, "\(name): no SPS read")
        let ispe = try #require(boxes.primarySize)
        #expect(
            coded.width >= ispe.width && coded.width < ispe.width + 64 && coded.height >= ispe.height
                && coded.height < ispe.height + 64,
            "\(name): SPS \(coded), ispe \(ispe)")
        #expect(boxes.parameterMismatch == nil, "\(name): \(boxes.parameterMismatch ?? "")")
        let reader = try ImageReader(path: Self.path(name))
        let details = try #require(reader.header.details as? HEIFDetails)
        #expect(details.bitDepth == (name.contains("10bit") ? 10 : 8))
    }

    @Test func gridDescriptorAndMismatchAreRead() {
        let hostile = TestSupport.path("Fixtures/hostile")
        #expect(HEIFBoxes(CLIBytes.read(hostile + "/good-grid.heic")).gridSize == PixelSize(width: 64, height: 48))
        #expect(
            HEIFBoxes(CLIBytes.read(hostile + "/grid-size-huge.heic")).gridSize
                == PixelSize(width: 26725, height: 26979))
        #expect(HEIFBoxes(CLIBytes.read(hostile + "/good-grid.heic")).parameterMismatch == nil)
        #expect(
            HEIFBoxes(CLIBytes.read(hostile + "/hvcc-depth-mismatch-grid.heic")).parameterMismatch?.contains("14/8-bit")
                == true)
    }
}

/// A file's bytes for the box reader.
enum CLIBytes {
    static func read(_ path: String) -> [UInt8] {
        guard case .success(let file) = CFile.open(readingFrom: path), let bytes = file.readAll(limit: 1 << 26) else {
            return []
        }
        return bytes
    }
}
