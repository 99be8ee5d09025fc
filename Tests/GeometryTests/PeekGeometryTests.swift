import Testing

@testable import Geometry

/// Placement of the peek square: exact rectangles, worked out by hand from the rule
/// left = clamp(x - floor(N/2), 0, W - N), per axis with that axis's own extent.
struct PeekGeometryTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let image: PixelSize
        let point: PixelPoint
        let side: Int
        let rect: PixelRect
        let shift: (Int, Int)
        var testDescription: String { name }
    }

    static let landscape = PixelSize(width: 4000, height: 3000)
    static let portrait = PixelSize(width: 3000, height: 4000)
    static let panorama = PixelSize(width: 12000, height: 1000)

    static let cases: [Case] = [
        Case(
            name: "centre", image: landscape, point: PixelPoint(x: 2000, y: 1500), side: 400,
            rect: PixelRect(x: 1800, y: 1300, width: 400, height: 400), shift: (0, 0)),
        Case(
            name: "left edge", image: landscape, point: PixelPoint(x: 10, y: 1500), side: 400,
            rect: PixelRect(x: 0, y: 1300, width: 400, height: 400), shift: (190, 0)),
        Case(
            name: "right edge", image: landscape, point: PixelPoint(x: 3999, y: 1500), side: 400,
            rect: PixelRect(x: 3600, y: 1300, width: 400, height: 400), shift: (-199, 0)),
        Case(
            name: "top edge", image: landscape, point: PixelPoint(x: 2000, y: 0), side: 400,
            rect: PixelRect(x: 1800, y: 0, width: 400, height: 400), shift: (0, 200)),
        Case(
            name: "bottom edge", image: landscape, point: PixelPoint(x: 2000, y: 2999), side: 400,
            rect: PixelRect(x: 1800, y: 2600, width: 400, height: 400), shift: (0, -199)),
        Case(
            name: "top-left corner", image: landscape, point: PixelPoint(x: 0, y: 0), side: 400,
            rect: PixelRect(x: 0, y: 0, width: 400, height: 400), shift: (200, 200)),
        Case(
            name: "top-right corner", image: landscape, point: PixelPoint(x: 3999, y: 0), side: 400,
            rect: PixelRect(x: 3600, y: 0, width: 400, height: 400), shift: (-199, 200)),
        Case(
            name: "bottom-left corner", image: landscape, point: PixelPoint(x: 0, y: 2999), side: 400,
            rect: PixelRect(x: 0, y: 2600, width: 400, height: 400), shift: (200, -199)),
        Case(
            name: "bottom-right corner", image: landscape, point: PixelPoint(x: 3999, y: 2999), side: 400,
            rect: PixelRect(x: 3600, y: 2600, width: 400, height: 400), shift: (-199, -199)),
        // ForceZoom's defect: its vertical offset used the image *width*. On a portrait
        // image a touch low in the frame must still land at the output centre.
        Case(
            name: "portrait, low point (ForceZoom used width for y)", image: portrait,
            point: PixelPoint(x: 1500, y: 3500), side: 390,
            rect: PixelRect(x: 1305, y: 3305, width: 390, height: 390), shift: (0, 0)),
        // ForceZoom's clamp let the rectangle run past the bottom-right: ours stops at W-N.
        Case(
            name: "panorama, far right", image: panorama, point: PixelPoint(x: 11990, y: 990), side: 390,
            rect: PixelRect(x: 11610, y: 610, width: 390, height: 390), shift: (-185, -185)),
        Case(
            name: "odd side", image: landscape, point: PixelPoint(x: 100, y: 100), side: 5,
            rect: PixelRect(x: 98, y: 98, width: 5, height: 5), shift: (0, 0)),
        Case(
            name: "side equals image", image: PixelSize(width: 300, height: 300), point: PixelPoint(x: 5, y: 290),
            side: 300,
            rect: PixelRect(x: 0, y: 0, width: 300, height: 300), shift: (145, -140)),
    ]

    @Test(arguments: cases)
    func placement(_ c: Case) {
        let g = PeekGeometry(image: c.image, point: c.point, side: c.side)
        #expect(g.coveredRect == c.rect)
        #expect(
            g.window == Rect(x: Double(c.rect.x), y: Double(c.rect.y), width: Double(c.side), height: Double(c.side)))
        #expect(g.shiftX == Double(c.shift.0))
        #expect(g.shiftY == Double(c.shift.1))
        #expect(g.destination == PixelPoint(x: 0, y: 0))
        // The touched pixel lands at output (floor(N/2), floor(N/2)) unless shifted.
        if c.shift == (0, 0) {
            #expect(c.point.x - c.rect.x == c.side / 2)
            #expect(c.point.y - c.rect.y == c.side / 2)
        }
        // Never outside the image.
        #expect(c.rect.x >= 0 && c.rect.y >= 0 && c.rect.maxX <= c.image.width && c.rect.maxY <= c.image.height)
    }

    @Test func paddingCentresTheSmallerDimension() {
        // 100x50 image, side 64: width fits (clamped), height padded: starts at floor((64-50)/2) = 7.
        let g = PeekGeometry(image: PixelSize(width: 100, height: 50), point: PixelPoint(x: 99, y: 10), side: 64)
        #expect(g.coveredRect == PixelRect(x: 36, y: 0, width: 64, height: 50))
        #expect(g.destination == PixelPoint(x: 0, y: 7))
        #expect(g.window.y == -7)
        // Odd padding rounds down: (64 - 47) / 2 = 8.5 -> 8.
        let h = PeekGeometry(image: PixelSize(width: 47, height: 47), point: PixelPoint(x: 0, y: 46), side: 64)
        #expect(h.destination == PixelPoint(x: 8, y: 8))
        #expect(h.coveredRect == PixelRect(x: 0, y: 0, width: 47, height: 47))
    }

    @Test func zoomShowsSideOverZoomPixels() {
        let g = PeekGeometry(image: Self.landscape, point: PixelPoint(x: 2000, y: 1500), side: 400, zoom: 4)
        #expect(g.window.width == 100)
        // The touched pixel's centre maps to output pixel 200's centre.
        let (x, y) = g.imageCoordinate(outputX: 200, outputY: 200)
        #expect(x == 2000.5 && y == 1500.5)
        #expect(g.coveredRect.width == 100 || g.coveredRect.width == 101)
        // Near the right edge the zoomed window clamps to W - N/Z.
        let e = PeekGeometry(image: Self.landscape, point: PixelPoint(x: 3999, y: 1500), side: 400, zoom: 4)
        #expect(e.window.maxX == 4000)
        #expect(e.coveredRect.maxX == 4000)
    }

    @Test func normalizedRectIsInUnitsOfTheUprightImage() {
        let g = PeekGeometry(image: Self.landscape, point: PixelPoint(x: 2000, y: 1500), side: 400)
        #expect(g.normalizedRect == Rect(x: 0.45, y: 1300.0 / 3000, width: 0.1, height: 400.0 / 3000))
    }

    @Test func screenSideIsTheShorterSide() {
        #expect(PeekGeometry.side(forScreen: PixelSize(width: 390, height: 844)) == 390)
        #expect(PeekGeometry.side(forScreen: PixelSize(width: 2532, height: 1170)) == 1170)
    }
}
