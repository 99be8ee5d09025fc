import TestSupport
import Testing

@testable import FZFixtures
@testable import FZImage
@testable import Geometry

/// The committed fixtures decode to the samples their patterns define.
struct FixtureTests {
    @Test(arguments: [
        (1, "png-gray-1.png"), (2, "png-gray-2.png"), (4, "png-gray-4.png"), (8, "png-gray-8.png"),
        (16, "png-gray-16.png"), (16, "png-gray-16-interlaced.png"),
    ])
    func grayDepthsDecodeToTheirScaledSamples(_ depth: Int, _ name: String) throws {
        let image = try TestSupport.decodeFixture(name)
        #expect(image.format == .gray)
        var pattern =
            name.contains("interlaced")
            ? Pattern(.gradient, size: image.size, direction: .radial)
            : (depth == 1 ? Pattern(.checker, size: image.size, step: 4) : Pattern(.gradient, size: image.size))
        pattern.fade = false
        for y in 0..<image.height {
            for x in 0..<image.width {
                let v16 = UInt32(pattern.sample(x: x, y: y).luma)
                // What each depth stores, and what forcezoom's 8-bit decode gives back.
                let want: UInt32
                switch depth {
                case 16: want = (v16 * 255 + 32895) >> 16
                case 8: want = (v16 * 255 + 32895) >> 16
                default:
                    let q = v16 >> (16 - UInt32(depth))
                    want = q * 255 / ((1 << UInt32(depth)) - 1)
                }
                #expect(UInt32(image[x, y].first!) == want, "\(name) at \(x),\(y)")
                if UInt32(image[x, y].first!) != want { return }
            }
        }
    }

    @Test func transparencyAndFadingAlpha() throws {
        let trns = try TestSupport.decodeFixture("png-gray-8-trns.png")
        #expect(trns.format == .grayAlpha)
        // Checker cells of 8: black cells are the transparent colour.
        #expect(trns.rgba(x: 8, y: 0).a == 0 && trns.rgba(x: 0, y: 0).a == 255)
        let faded = try TestSupport.decodeFixture("png-rgba-8.png")
        #expect(faded.rgba(x: 5, y: 0).a == 255)
        #expect(faded.rgba(x: 5, y: faded.height - 1).a == 0)
        let mid = faded.rgba(x: 5, y: 23).a
        #expect(abs(Int(mid) - 255 * 24 / 47) <= 1)
        // Coordinates survive in the colour channels despite the alpha.
        #expect(
            CoordinateCode.point(
                r: faded.rgba(x: 33, y: 20).r, g: faded.rgba(x: 33, y: 20).g, b: faded.rgba(x: 33, y: 20).b)
                == PixelPoint(x: 33, y: 20))
    }

    @Test(arguments: ["png-palette-4.png", "png-palette-8.png", "png-palette-8-interlaced.png", "png-rgb-8-trns.png"])
    func palettesDecodeToThePicture(_ name: String) throws {
        let image = try TestSupport.decodeFixture(name)
        let pattern = Pattern(.orientation, size: image.size)
        for y in stride(from: 0, to: image.height, by: 3) {
            for x in stride(from: 0, to: image.width, by: 3) {
                let s = pattern.sample(x: x, y: y)
                let c = image.rgba(x: x, y: y)
                #expect(
                    c.r == FixtureWriter.to8(s.r) && c.g == FixtureWriter.to8(s.g) && c.b == FixtureWriter.to8(s.b),
                    "\(name) \(x),\(y)")
            }
        }
    }

    @Test func exifPNGIsUprightCoords() throws {
        let image = try TestSupport.decodeFixture("png-exif-6.png")
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(
            CoordinateCode.trace(image)
                == CoordinateCode.Trace(sourceRect: PixelRect(x: 0, y: 0, width: 64, height: 48), orientation: .up))
        let stored = try TestSupport.decodeFixture("png-exif-6.png", autoOrient: false)
        #expect(CoordinateCode.trace(stored)?.orientation == .rotate270)
    }

    @Test(
        arguments: (1...8).map { "jpeg-exif-\($0).jpg" } + [
            "jpeg-444.jpg", "jpeg-422.jpg", "jpeg-420.jpg", "jpeg-440.jpg", "jpeg-411.jpg", "jpeg-progressive.jpg",
            "jpeg-arithmetic.jpg", "jpeg-arithmetic-progressive.jpg", "jpeg-restart.jpg", "jpeg-rgb-coded.jpg",
            "jpeg-cmyk-adobe.jpg", "jpeg-ycck-adobe.jpg",
        ])
    func everyJPEGFormShowsTheSameUprightPicture(_ name: String) throws {
        let reference = Pattern(.orientation, size: PixelSize(width: 96, height: 64))
        let image = try TestSupport.decodeFixture(name)
        #expect(image.format == .rgb, "CMYK and YCCK are converted to RGB")
        #expect(image.size == PixelSize(width: 96, height: 64))
        var total = 0
        for y in 0..<64 {
            for x in 0..<96 {
                let s = reference.sample(x: x, y: y)
                let c = image.rgba(x: x, y: y)
                if name.contains("cmyk") && x == 0 && y == 0 {
                    // Inverted CMYK decoded as plain CMYK would turn the red corner cyan.
                    #expect(c.r > 180 && c.g < 60, "\(name): top-left \(c)")
                }
                total +=
                    abs(Int(c.r) - Int(FixtureWriter.to8(s.r))) + abs(Int(c.g) - Int(FixtureWriter.to8(s.g)))
                    + abs(Int(c.b) - Int(FixtureWriter.to8(s.b)))
            }
        }
        let mean = Double(total) / Double(96 * 64 * 3)
        // The fixture splits RGB into inks by the plain formula; forcezoom reads CMYK back
        // through a real CMYK profile (SWOP, when libgs-common is installed), whose inks are
        // not that formula's: the same picture, a few levels apart (measured 6.4).
        let cmyk = name.contains("cmyk") || name.contains("ycck")
        #expect(mean < (cmyk ? 10 : 4), "\(name): mean error \(mean) (JPEG quality 92)")
    }
}
