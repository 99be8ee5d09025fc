import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZMetadata
@testable import FZSystem
@testable import FZTIFF
@testable import Geometry

/// TIFF through libtiff against Pillow's decode of the same files (NAME.ref.png, written by
/// Tools/formats/tiff-refs.py from the files Tools/formats/make-tiff.sh makes with tiffcp,
/// vips, Pillow and exiftool; `make formats`): exact for every lossless layout.
struct TIFFTests {
    static let dir = TestSupport.path(".cache/formats/tiff")
    static let present = FileSystem.kind(of: dir + "/.done-v2") == .regular
    static func path(_ name: String) -> String { "\(dir)/\(name)" }

    static func reader(_ name: String, autoOrient: Bool = false, page: Int = 1) throws -> ImageReader {
        var o = DecodeOptions()
        o.autoOrient = autoOrient
        o.frame = page
        return try ImageReader(path: path(name), options: o)
    }

    static func reference(_ name: String) throws -> Image { try ImageReader(path: path(name)).readImage() }

    static let lossless = [
        "rgb-strip-none", "rgb-strip-lzw", "rgb-strip-deflate", "rgb-strip-packbits", "rgb-strip-zstd",
        "rgb-tile-none", "rgb-tile-lzw", "rgb-tile-deflate", "rgb-strip-planar", "rgb-tile-planar-lzw",
        "gray-8", "gray-16", "gray-1", "gray-1-tile", "gray-2", "gray-4", "palette-8", "rgba-unassoc",
        "rgba-assoc", "rgb-16", "rgba-16", "rgba-16-tile", "rgb-jpeg-ycbcr",
    ]

    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"), arguments: lossless)
    func wholeImageEqualsPillow(_ name: String) throws {
        let image = try Self.reader("\(name).tif").readImage()
        let reference = try Self.reference("\(name).ref.png")
        #expect(image.size == reference.size)
        #expect(image.format == reference.format, "\(name): the layout Pillow gives")
        if image.size == reference.size && image.format == reference.format {
            #expect(TestSupport.maxDifference(image, reference) == 0, "\(name)")
        }
    }

    /// Crops across strip and tile edges (64x64 tiles, 16-row strips, a 301x203 image whose
    /// last tiles and strip are partial) equal the same rectangle of Pillow's whole decode.
    @Test(
        .enabled(if: present, "needs .cache/formats/tiff (make formats)"),
        arguments: ["rgb-tile-lzw", "rgb-strip-deflate", "rgb-tile-planar-lzw", "gray-4", "gray-1-tile", "rgba-assoc"])
    func cropsEqualPillow(_ name: String) throws {
        let reference = try Self.reference("\(name).ref.png")
        let rects = [
            PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 63, y: 15, width: 3, height: 3),
            PixelRect(x: 100, y: 70, width: 130, height: 90), PixelRect(x: 300, y: 202, width: 1, height: 1),
            PixelRect(x: 250, y: 150, width: 51, height: 53), PixelRect(x: 1, y: 190, width: 299, height: 13),
        ]
        for rect in rects {
            let crop = try Self.reader("\(name).tif").readStored([rect])[0]
            #expect(TestSupport.maxDifference(crop, reference.cropped(to: rect)) == 0, "\(name) \(rect)")
        }
        let both = try Self.reader("\(name).tif").readStored(rects)
        for (rect, crop) in zip(rects, both) {
            #expect(TestSupport.maxDifference(crop, reference.cropped(to: rect)) == 0, "\(name) \(rect), one pass")
        }
    }

    /// 16-bit gray keeps its samples (`beginDeep`): Pillow's I;16 exactly.
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"))
    func sixteenBitGrayKeepsItsSamples() throws {
        let reader = try Self.reader("gray-16.tif")
        #expect(reader.hasDeepSamples)
        let rect = PixelRect(x: 10, y: 20, width: 200, height: 150)
        let deep = try reader.readStored16([rect])[0]
        let reference = try ImageReader(path: Self.path("gray-16.ref16.png")).readStored16([rect])[0]
        #expect(deep.bytes == reference.bytes)
    }

    /// The 16-bit RGBA vips wrote from png-rgba-16.png gives back that PNG's samples.
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"), arguments: ["rgba-16", "rgba-16-tile"])
    func sixteenBitRGBAKeepsItsSamples(_ name: String) throws {
        let reader = try Self.reader("\(name).tif")
        let size = reader.header.storedSize
        let deep = try reader.readStored16([PixelRect(size: size)])[0]
        let source = try ImageReader(path: TestSupport.fixturePath("png-rgba-16.png")).readStored16([
            PixelRect(size: size)
        ])
        #expect(deep.bytes == source[0].bytes)
    }

    /// Orientation (tag 274) is applied as EXIF's: every stored form gives the upright picture.
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"), arguments: 1...8)
    func orientationIsApplied(_ n: Int) throws {
        let reader = try Self.reader("orient-\(n).tif", autoOrient: true)
        // Orientation 1 alone makes no EXIF block (nothing to carry).
        #expect(reader.header.exifOrientationValue == (n == 1 ? nil : n))
        let upright = try reader.readImage()
        let picture = try TestSupport.decodeFixture("png-rgb-8-trns.png")
        let rgb = Image(
            width: picture.width, height: picture.height, format: .rgb,
            pixels: stride(from: 0, to: picture.pixels.count, by: picture.format.channels).flatMap {
                picture.pixels[$0..<($0 + 3)]
            })
        #expect(upright.size == rgb.size)
        if upright.size == rgb.size { #expect(TestSupport.maxDifference(upright, rgb) == 0, "orientation \(n)") }
        // Pillow turns a TIFF by its Orientation when it loads it: the same upright pixels.
        let pillow = try Self.reference("orient-\(n).ref.png")
        #expect(upright.size == pillow.size)
        if upright.size == pillow.size { #expect(TestSupport.maxDifference(upright, pillow) == 0, "Pillow \(n)") }
    }

    /// `--page N` reads the Nth directory; past the last is one error naming the count.
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"))
    func pages() throws {
        for page in 2...3 {
            let image = try Self.reader("pages.tif", page: page).readImage()
            #expect(TestSupport.maxDifference(image, try Self.reference("pages.page-\(page).ref.png")) == 0)
        }
        #expect(throws: DecodeError.noSuchFrame(path: Self.path("pages.tif"), frame: 4, frames: 3)) {
            _ = try Self.reader("pages.tif", page: 4)
        }
        let details = try #require(try Self.reader("pages.tif").header.details as? TIFFDetails)
        #expect(details.pages == 3)
    }

    /// A pyramid's reduced copies (later pages, or SubIFDs) are the decoding reductions; a
    /// reduced decode is that level's pixels (Pillow's decode of that directory).
    @Test(
        .enabled(if: present, "needs .cache/formats/tiff (make formats)"),
        arguments: ["pyramid.tif", "pyramid-subifd.tif"])
    func pyramidLevelsAreReductions(_ name: String) throws {
        let reader = try Self.reader(name)
        #expect(reader.decoder.denominators == [1, 2, 4, 8, 16])
        #expect(reader.reductionDenominator(keepingAtLeast: PixelSize(width: 256, height: 160)) == 4)
        let size = try reader.beginRows(denominator: 4)
        #expect(size == PixelSize(width: 500, height: 333))
        let channels = reader.header.pixelFormat.channels
        var pixels = [UInt8](repeating: 0, count: Int(size.area) * channels)
        try pixels.withUnsafeMutableBufferPointer { b throws(DecodeError) in
            for y in 0..<size.height { _ = try reader.readNextRow(into: b.baseAddress! + y * size.width * channels) }
        }
        let image = Image(width: size.width, height: size.height, format: reader.header.pixelFormat, pixels: pixels)
        #expect(TestSupport.maxDifference(image, try Self.reference("pyramid.page-3.ref.png")) == 0)
    }

    /// The ICC profile, the XMP packet and the EXIF (as a block the reader and outputs use).
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"))
    func metadataIsRead() throws {
        let reader = try Self.reader("meta.tif")
        let xmp = String(decoding: try #require(reader.metadata.xmp), as: UTF8.self)
        #expect(xmp.contains("tiff-xmp-title"))
        let exif = try EXIFBlock(parsing: try #require(reader.metadata.exif))
        #expect(
            exif.ifd0.contains {
                $0.tag == 0x010F && String(decoding: $0.value, as: UTF8.self).hasPrefix("ForceZoomTest")
            })
        #expect(exif.exif.contains { $0.tag == 0x9003 }, "DateTimeOriginal from the Exif IFD")
        #expect(try Self.reader("rgb-strip-none.tif").metadata.exif == nil, "resolution alone is no EXIF")
    }

    /// CMYK goes through lcms2 with the same profile, intent and black-point compensation as
    /// Pillow's ImageCms transform of Pillow's CMYK decode, each evaluated without lcms2's
    /// resampled grid (Pillow's NOTPRECALC is lcms2's NOOPTIMIZE, as CMYK TIFFs are read:
    /// fz_tiff_use_cmyk_profile); exact here, a level allowed.
    @Test(.enabled(if: present && CMYKProfile.system != nil, "needs .cache/formats/tiff and a CMYK profile"))
    func cmykThroughTheProfile() throws {
        let reader = try Self.reader("cmyk.tif")
        #expect(reader.header.color.madeFromCMYK != nil)
        let image = try reader.readImage()
        let dir = TestSupport.scratch()
        let out = dir + "/cmyk.png"
        let profile = try #require(CMYKProfile.system).path
        #expect(
            TestSupport.shell(
                "/usr/bin/python3 -c \"from PIL import Image, ImageCms; im=Image.open('\(Self.path("cmyk.tif"))'); "
                    + "t=ImageCms.buildTransform('\(profile)', ImageCms.createProfile('sRGB'), 'CMYK', 'RGB', "
                    + "renderingIntent=1, flags=ImageCms.FLAGS['BLACKPOINTCOMPENSATION'] | ImageCms.FLAGS['NOTPRECALC']); ImageCms.applyTransform(im, t).save('\(out)')\""
            ) == 0)
        let reference = try ImageReader(path: out).readImage()
        #expect(TestSupport.maxDifference(image, reference) <= 1, "the same lcms2 transform (exact here)")
        TestSupport.shell("rm -rf '\(dir)'")
    }
}
