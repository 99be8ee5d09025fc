import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// The real TIFFs in ../shared/formats/tiff (Pillow's test images and image-tiff's; licences
/// in SOURCES.md), when present: each decodes, and those Pillow reads as gray, RGB, RGBA or
/// palette give Pillow's pixels exactly (JPEG-in-TIFF included: both go through libtiff's
/// libjpeg), whole and as a crop.
struct TIFFSharedFilesTests {
    static let dir = FileSystem.join(FileSystem.directory(of: TestSupport.root), "shared/formats/tiff")
    static let files: [String] =
        (try? FileSystem.list(dir).filter { $0.hasSuffix(".tif") || $0.hasSuffix(".tiff") })
        ?? []

    /// Files whose pixels are compared: Pillow's mode is one forcezoom delivers unchanged.
    static let compared = [
        "pillow_hopper_bigtiff.tif", "pillow_hopper_iccprofile.tif", "pillow_multipage.tiff",
        "pillow_old_style_jpeg.tif", "pillow_strip_planar_raw_with_overviews.tif", "pillow_tiff_16bit_RGB.tiff",
        "pillow_tiff_adobe_deflate.tif", "pillow_tiff_strip_planar_lzw.tiff", "pillow_tiff_strip_raw.tif",
        "pillow_tiff_strip_ycbcr_jpeg_1x1.tif", "pillow_tiff_tiled_planar_16bit_RGBa.tiff",
        "pillow_tiff_tiled_planar_lzw.tiff", "pillow_tiff_tiled_raw.tif", "pillow_tiff_tiled_ycbcr_jpeg_2x2.tif",
    ]

    static func stored(_ name: String) throws -> ImageReader {
        var o = DecodeOptions()
        o.autoOrient = false
        return try ImageReader(path: FileSystem.join(dir, name), options: o)
    }

    @Test(.enabled(if: !files.isEmpty, "needs ../shared/formats/tiff"), arguments: files)
    func everyFileDecodes(_ name: String) throws {
        let image = try Self.stored(name).readImage()
        #expect(image.width > 0 && image.height > 0)
    }

    @Test(.enabled(if: !files.isEmpty, "needs ../shared/formats/tiff"), arguments: compared)
    func pixelsEqualPillow(_ name: String) throws {
        let scratch = TestSupport.scratch()
        defer { TestSupport.shell("rm -rf '\(scratch)'") }
        let out = scratch + "/ref.png"
        let convert =
            "m=im.mode; im=im.convert('L' if m in ('1','L') else 'RGBA' if m in ('RGBA','RGBa','LA','PA') else 'RGB')"
        let status = TestSupport.shell(
            "/usr/bin/python3 -c \"from PIL import Image; im=Image.open('\(FileSystem.join(Self.dir, name))'); "
                + "\(convert); im.save('\(out)')\"")
        #expect(status == 0)
        let reference = try ImageReader(path: out).readImage()
        let image = try Self.stored(name).readImage()
        #expect(image.size == reference.size && image.format == reference.format, "\(name)")
        guard image.size == reference.size && image.format == reference.format else { return }
        #expect(TestSupport.maxDifference(image, reference) == 0, "\(name)")
        let rect = PixelRect(
            x: image.width / 3, y: image.height / 4, width: max(1, image.width / 2), height: max(1, image.height / 2))
        let crop = try Self.stored(name).readStored([rect])[0]
        #expect(TestSupport.maxDifference(crop, reference.cropped(to: rect)) == 0, "\(name) crop \(rect)")
    }

    /// CCITT G4 with Orientation 6 and 8: upright, they equal what Pillow shows (its libtiff
    /// path turns them while decoding).
    @Test(
        .enabled(if: !files.isEmpty, "needs ../shared/formats/tiff"),
        arguments: ["pillow_g4_orientation_6.tif", "pillow_g4_orientation_8.tif"])
    func orientedBilevelEqualsPillow(_ name: String) throws {
        let scratch = TestSupport.scratch()
        defer { TestSupport.shell("rm -rf '\(scratch)'") }
        let out = scratch + "/ref.png"
        #expect(
            TestSupport.shell(
                "/usr/bin/python3 -c \"from PIL import Image; Image.open('\(FileSystem.join(Self.dir, name))').convert('L').save('\(out)')\""
            ) == 0)
        let upright = try ImageReader(path: FileSystem.join(Self.dir, name)).readImage()
        let reference = try ImageReader(path: out).readImage()
        #expect(upright.size == reference.size)
        if upright.size == reference.size { #expect(TestSupport.maxDifference(upright, reference) == 0) }
    }

    /// The overviews of pillow_strip_planar_raw_with_overviews.tif are its reductions.
    @Test(.enabled(if: files.contains("pillow_strip_planar_raw_with_overviews.tif"), "needs ../shared/formats/tiff"))
    func overviewsAreReductions() throws {
        let reader = try Self.stored("pillow_strip_planar_raw_with_overviews.tif")
        #expect(reader.decoder.denominators == [1, 2, 4, 8, 16])
    }
}
