import Testing

@testable import Geometry

/// The aspect-fit view: s = min(VW/W, VH/H), borders centred, x = floor((vx - bx)/s).
struct ViewMappingTests {
    @Test func landscapeImageInPortraitView() {
        // 4000x3000 in 390x844: s = 390/4000 = 0.0975, image height 292.5, by = 275.75.
        let fit = AspectFit(image: PixelSize(width: 4000, height: 3000), view: PixelSize(width: 390, height: 844))
        #expect(fit.scale == 0.0975)
        #expect(fit.offsetX == 0)
        #expect(fit.offsetY == 275.75)
        #expect(fit.imagePixel(x: 195, y: 422) == PixelPoint(x: 2000, y: 1500))
        #expect(fit.imagePixel(x: 0, y: 275.75) == PixelPoint(x: 0, y: 0))
    }

    @Test func letterboxTouchesGoToTheNearestEdge() {
        let fit = AspectFit(image: PixelSize(width: 4000, height: 3000), view: PixelSize(width: 390, height: 844))
        #expect(fit.imagePixel(x: 100, y: 10) == PixelPoint(x: 1025, y: 0))
        #expect(fit.imagePixel(x: 389.9, y: 843) == PixelPoint(x: 3998, y: 2999))
    }

    @Test func previewBoxIsTheCropWindowScaled() {
        let image = PixelSize(width: 4000, height: 3000)
        let fit = AspectFit(image: image, view: PixelSize(width: 390, height: 844))
        let g = PeekGeometry(image: image, point: fit.imagePixel(x: 195, y: 422), side: 390)
        let box = fit.viewRect(forImage: g.window)
        #expect(box.width == 390 * 0.0975)
        #expect(box.x == 1805 * 0.0975)
        #expect(box.y == 275.75 + 1305 * 0.0975)
    }

    @Test func touchPointsResolve() throws {
        let image = PixelSize(width: 4000, height: 3000)
        #expect(try TouchPoint(parsing: "1200,800")!.resolve(in: image) == PixelPoint(x: 1200, y: 800))
        #expect(try TouchPoint(parsing: "50%,25%")!.resolve(in: image) == PixelPoint(x: 2000, y: 750))
        // floor(p/100 * W), clamped to W-1: 100% is the last pixel.
        #expect(try TouchPoint(parsing: "100%,100%")!.resolve(in: image) == PixelPoint(x: 3999, y: 2999))
        #expect(try TouchPoint(parsing: "33.3%,0%")!.resolve(in: image) == PixelPoint(x: 1332, y: 0))
        var view = TouchPoint(parsing: "195,422")!
        view.view = PixelSize(width: 390, height: 844)
        #expect(try view.resolve(in: image) == PixelPoint(x: 2000, y: 1500))
    }

    @Test(arguments: ["4000,0", "0,3000", "-1,5", "101%,0"])
    func outsidePointsAreRefused(_ text: String) {
        #expect(throws: GeometryError.self) {
            try TouchPoint(parsing: text)!.resolve(in: PixelSize(width: 4000, height: 3000))
        }
    }

    @Test(arguments: ["", "1200", "a,b", "1,2,3", "50%%,1"])
    func badSyntaxDoesNotParse(_ text: String) {
        #expect(TouchPoint(parsing: text) == nil)
    }

    @Test func outsideMessageNamesTheImageSize() {
        do {
            _ = try TouchPoint(parsing: "5000,10")!.resolve(in: PixelSize(width: 4000, height: 3000))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("4000x3000"))
        }
    }
}
