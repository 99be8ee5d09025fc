import Testing

@testable import Geometry

/// The rotated fullscreen fit, without pixels: bounds, scale, placement and the matrix.
struct FitGeometryTests {
    static let screen = PixelSize(width: 1170, height: 2532)

    struct Case: CustomTestStringConvertible, Sendable {
        let image: PixelSize
        let orientation: DeviceOrientation
        let mode: FitGeometry.Mode
        let bounds: PixelSize
        let scaled: PixelSize
        let offset: PixelPoint
        var testDescription: String { "\(image) \(orientation.rawValue) \(mode.rawValue)" }
    }

    static let cases: [Case] = [
        // 4000x3000 landscape photo.
        Case(
            image: PixelSize(width: 4000, height: 3000), orientation: .portrait, mode: .fit,
            bounds: screen, scaled: PixelSize(width: 1170, height: 878), offset: PixelPoint(x: 0, y: 827)),
        Case(
            image: PixelSize(width: 4000, height: 3000), orientation: .landscapeLeft, mode: .fit,
            bounds: PixelSize(width: 2532, height: 1170), scaled: PixelSize(width: 1560, height: 1170),
            offset: PixelPoint(x: 486, y: 0)),
        Case(
            image: PixelSize(width: 4000, height: 3000), orientation: .landscapeRight, mode: .fill,
            bounds: PixelSize(width: 2532, height: 1170), scaled: PixelSize(width: 2532, height: 1899),
            offset: PixelPoint(x: 0, y: -365)),
        Case(
            image: PixelSize(width: 4000, height: 3000), orientation: .upsideDown, mode: .fill,
            bounds: screen, scaled: PixelSize(width: 3376, height: 2532), offset: PixelPoint(x: -1103, y: 0)),
        // Portrait and square images.
        Case(
            image: PixelSize(width: 3000, height: 4000), orientation: .portrait, mode: .fit,
            bounds: screen, scaled: PixelSize(width: 1170, height: 1560), offset: PixelPoint(x: 0, y: 486)),
        Case(
            image: PixelSize(width: 3000, height: 4000), orientation: .landscapeLeft, mode: .fit,
            bounds: PixelSize(width: 2532, height: 1170), scaled: PixelSize(width: 878, height: 1170),
            offset: PixelPoint(x: 827, y: 0)),
        Case(
            image: PixelSize(width: 1000, height: 1000), orientation: .landscapeRight, mode: .fit,
            bounds: PixelSize(width: 2532, height: 1170), scaled: PixelSize(width: 1170, height: 1170),
            offset: PixelPoint(x: 681, y: 0)),
        Case(
            image: PixelSize(width: 1000, height: 1000), orientation: .portrait, mode: .fill,
            bounds: screen, scaled: PixelSize(width: 2532, height: 2532), offset: PixelPoint(x: -681, y: 0)),
    ]

    @Test(arguments: cases)
    func boundsScaleAndPlacement(_ c: Case) {
        let g = FitGeometry(image: c.image, screen: Self.screen, orientation: c.orientation, mode: c.mode)
        #expect(g.bounds == c.bounds)
        #expect(g.scaledSize == c.scaled)
        #expect(g.offset == c.offset)
        if c.mode == .fit {
            #expect(g.scaledSize.width <= g.bounds.width && g.scaledSize.height <= g.bounds.height)
            #expect(
                g.visibleImageRect == Rect(x: 0, y: 0, width: Double(c.image.width), height: Double(c.image.height)))
        } else {
            #expect(g.scaledSize.width >= g.bounds.width && g.scaledSize.height >= g.bounds.height)
        }
    }

    @Test func autoPicksTheOrientationThatCoversMore() {
        #expect(
            FitGeometry.automatic(image: PixelSize(width: 4000, height: 3000), screen: Self.screen) == .landscapeLeft)
        #expect(FitGeometry.automatic(image: PixelSize(width: 3000, height: 4000), screen: Self.screen) == .portrait)
        #expect(FitGeometry.automatic(image: PixelSize(width: 1000, height: 1000), screen: Self.screen) == .portrait)
    }

    /// The image's corners after the whole transform, per orientation (UIKit y-down:
    /// landscape-left turns content +90, clockwise on screen).
    @Test(arguments: DeviceOrientation.allCases)
    func imageCornersLandWhereTheTurnSays(_ o: DeviceOrientation) {
        let image = PixelSize(width: 2532, height: 1170)  // fills landscape bounds exactly
        let g = FitGeometry(image: image, screen: Self.screen, orientation: o)
        let topLeft = g.transform.apply(x: 0, y: 0)
        let expected: (Double, Double)
        switch o {
        case .portrait: expected = (0, Double(g.offset.y))  // letterboxed vertically
        case .landscapeLeft: expected = (1170, 0)  // top-left goes to the top-right
        case .landscapeRight: expected = (0, 2532)  // to the bottom-left
        case .upsideDown: expected = (1170, 2532 - Double(g.offset.y))
        }
        #expect(abs(topLeft.x - expected.0) < 1e-9 && abs(topLeft.y - expected.1) < 1e-9, "\(o): \(topLeft)")
    }

    @Test func affineTransformAlgebra() {
        let t = AffineTransform.rotation(degrees: 30).then(.scale(2, 3)).then(.translation(5, -7))
        let inv = t.inverted!
        let p = t.apply(x: 12.5, y: -4)
        let q = inv.apply(x: p.x, y: p.y)
        #expect(abs(q.x - 12.5) < 1e-9 && abs(q.y + 4) < 1e-9)
        // Quarter turns are exact: no 6e-17 residue.
        #expect(AffineTransform.rotation(degrees: 90) == AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
        #expect(AffineTransform.rotation(degrees: -270) == AffineTransform.rotation(degrees: 90))
        // +90 turns (1, 0) to (0, 1): right becomes down, clockwise on a y-down screen.
        let r = AffineTransform.rotation(degrees: 90).apply(x: 1, y: 0)
        #expect(r.x == 0 && r.y == 1)
        #expect(AffineTransform.scale(0, 1).inverted == nil)
    }
}
