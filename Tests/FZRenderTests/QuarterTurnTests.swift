import Testing

@testable import FZRender
@testable import Geometry

/// Quarter turns about the image centre into a canvas of the turned size (what `transform
/// --rotate N --canvas` builds) send every pixel centre to a pixel centre, and the warp
/// then copies pixels: the output is the input turned, with no background anywhere.
struct QuarterTurnTests {
    /// --rotate values and the clockwise quarter turns they make.
    static let turns: [(Double, Int)] = [
        (90, 1), (-90, 3), (180, 2), (270, 3), (-270, 1), (450, 1), (360_000_090, 1), (0, 0),
    ]

    /// The transform `transform --canvas` uses: the image centre to the canvas centre.
    static func centred(_ degrees: Double, image: PixelSize, canvas: PixelSize) -> AffineTransform {
        AffineTransform.translation(-Double(image.width) / 2, -Double(image.height) / 2)
            .then(.rotation(degrees: degrees))
            .then(.translation(Double(canvas.width) / 2, Double(canvas.height) / 2))
    }

    /// Input pixel (x, y) turned clockwise `q` times in an image of `size`.
    static func turned(_ x: Int, _ y: Int, _ q: Int, _ size: PixelSize) -> (Int, Int) {
        switch q {
        case 1: return (size.height - 1 - y, x)
        case 2: return (size.width - 1 - x, size.height - 1 - y)
        case 3: return (y, size.width - 1 - x)
        default: return (x, y)
        }
    }

    @Test(arguments: [PixelSize(width: 480, height: 320), PixelSize(width: 481, height: 321)])
    func pixelCentresLandOnPixelCentres(_ size: PixelSize) {
        for (degrees, q) in Self.turns {
            let r = AffineTransform.rotation(degrees: degrees)
            #expect([r.a, r.b, r.c, r.d].allSatisfy { $0 == 0 || abs($0) == 1 }, "\(degrees): \(r)")
            let canvas = q % 2 == 1 ? PixelSize(width: size.height, height: size.width) : size
            let t = Self.centred(degrees, image: size, canvas: canvas)
            var wrong = 0
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let p = t.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let want = Self.turned(x, y, q, size)
                    if p.x != Double(want.0) + 0.5 || p.y != Double(want.1) + 0.5 { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(degrees) on \(size): \(wrong) pixel centres off")
        }
    }

    @Test(arguments: [ResampleFilter.nearest, .bilinear, .lanczos])
    func theWarpCopiesPixels(_ filter: ResampleFilter) {
        let size = PixelSize(width: 480, height: 320)
        let image = AffineRendererTests.picture(.rgb, width: size.width, height: size.height)
        for (degrees, q) in Self.turns {
            let canvas = q % 2 == 1 ? PixelSize(width: size.height, height: size.width) : size
            let out = AffineRenderer.render(
                image, transform: Self.centred(degrees, image: size, canvas: canvas), canvas: canvas,
                background: .black, filter: filter)
            var want = [UInt8](repeating: 0, count: out.pixels.count)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let (tx, ty) = Self.turned(x, y, q, size)
                    for k in 0..<3 {
                        want[(ty * canvas.width + tx) * 3 + k] = image.pixels[(y * size.width + x) * 3 + k]
                    }
                }
            }
            #expect(out.pixels == want, "\(degrees) \(filter)")
        }
    }
}
