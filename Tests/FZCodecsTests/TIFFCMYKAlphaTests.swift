import FZImage
import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat

/// CMYK TIFFs from ../shared/formats/tiff (image-tiff's test images), when present, against
/// ImageMagick (Pillow 9.4 opens neither): the CMYK file with an unassociated alpha sample
/// keeps its alpha (issue 51 item 10: its 3,218 transparent pixels were made opaque), and
/// its colours equal ImageMagick's conversion through the same profile (Ghostscript's
/// default CMYK, relative colorimetric with black-point compensation, as forcezoom
/// converts) within a level: both evaluate the profile itself per pixel (lcms2's 17-point
/// resampled grid, which CMYK JPEGs use, was up to 7 levels off here); the tiled
/// signed-sample CMYK file (no alpha) equals ImageMagick's formula reading exactly.
@Suite("TIFF CMYK alpha")
struct TIFFCMYKAlphaTests {
    static let dir = TIFFSharedFilesTests.dir
    static let withAlpha = FileSystem.join(dir, "image-tiff_cmyk-4c-8b.tiff")
    static let tiled = FileSystem.join(dir, "image-tiff_tiled-cmyk-i8.tif")
    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
    static let srgbProfile = "/usr/share/color/icc/ghostscript/srgb.icc"

    /// ImageMagick's RGBA reading of `path`, with `options` before the output.
    static func imageMagick(_ path: String, _ options: String = "") -> Image? {
        let out = FileSystem.join(TestSupport.scratch(), "im.png")
        guard
            TestSupport.shell("/usr/bin/convert \(CLI.quote(path)) \(options) png:\(CLI.quote(out)) 2>/dev/null") == 0
        else { return nil }
        return try? ImageReader(path: out).readImage().converted(to: .rgba)
    }

    /// The largest difference of channel `channels` between two RGBA images of one size.
    static func maxDifference(_ a: Image, _ b: Image, channels: [Int]) -> Int {
        let (x, y) = (a.pixels, b.pixels)
        var worst = 0
        for i in stride(from: 0, to: min(x.count, y.count), by: 4) {
            for c in channels { worst = max(worst, abs(Int(x[i + c]) - Int(y[i + c]))) }
        }
        return worst
    }

    @Test(.enabled(if: FileSystem.kind(of: withAlpha) == .regular, "needs ../shared/formats/tiff"))
    func cmykAlphaEqualsImageMagick() throws {
        let reader = try ImageReader(path: Self.withAlpha)
        #expect(reader.header.pixelFormat == .rgba)
        let image = try reader.readImage()
        let reference = try #require(Self.imageMagick(Self.withAlpha))
        #expect(image.size == reference.size && image.format == .rgba)
        guard image.size == reference.size, image.format == .rgba else { return }
        #expect(Self.maxDifference(image, reference, channels: [3]) <= 1, "alpha against ImageMagick")
        let transparent = stride(from: 3, to: reference.pixels.count, by: 4).filter { reference.pixels[$0] == 0 }
        #expect(!transparent.isEmpty && transparent.allSatisfy { image.pixels[$0] == 0 })
        // A crop keeps it too (the shim's window path).
        let rect = PixelRect(x: 20, y: 30, width: 90, height: 70)
        let crop = try ImageReader(path: Self.withAlpha).readStored([rect])[0]
        #expect(Self.maxDifference(crop, reference.cropped(to: rect), channels: [3]) <= 1, "crop's alpha")
        guard FileSystem.kind(of: Self.cmykProfile) == .regular, FileSystem.kind(of: Self.srgbProfile) == .regular
        else { return }
        let converted = try #require(
            Self.imageMagick(
                Self.withAlpha,
                "-intent relative -black-point-compensation -profile \(Self.cmykProfile) -profile \(Self.srgbProfile)"))
        #expect(Self.maxDifference(image, converted, channels: [0, 1, 2]) <= 1, "colours against ImageMagick's lcms2")
    }

    @Test(.enabled(if: FileSystem.kind(of: tiled) == .regular, "needs ../shared/formats/tiff"))
    func tiledSignedCMYKEqualsImageMagick() throws {
        let image = try ImageReader(path: Self.tiled).readImage().converted(to: .rgba)
        let reference = try #require(Self.imageMagick(Self.tiled))
        #expect(image.size == reference.size)
        guard image.size == reference.size else { return }
        #expect(Self.maxDifference(image, reference, channels: [0, 1, 2, 3]) == 0)
    }
}
