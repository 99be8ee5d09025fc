import FZImage
import FZRender
import Geometry
import Testing

/// `GainMapRenderer` on a coordinate map (value 20x + 7y + 3 at map pixel (x, y)): at the map's
/// own scale it is the map itself, shifted it is the map shifted with "no gain" where the image is
/// not, and turned a quarter it is the map turned (the warp path).
@Suite("Gain map renderer")
struct GainMapRendererTests {
    /// An 8x6 gray map of a 16x12 image (scale 0.5).
    static let map: Image = {
        var m = Image(width: 8, height: 6, format: .gray)
        for y in 0..<6 { for x in 0..<8 { m.pixels[y * 8 + x] = UInt8(20 * x + 7 * y + 3) } }
        return m
    }()
    static let neutral = Color(r: 85, g: 85, b: 85, a: 255)

    static func render(_ t: AffineTransform, output: PixelSize, filter: ResampleFilter = .bilinear) -> Image {
        GainMapRenderer.render(
            map, scale: (0.5, 0.5), imageToOutput: t, output: output,
            outputMap: PixelSize(width: output.width / 2, height: output.height / 2), neutral: neutral, filter: filter)
    }

    @Test(arguments: [ResampleFilter.nearest, .bilinear, .bicubic, .lanczos])
    func atItsOwnScaleItIsTheMap(_ filter: ResampleFilter) {
        let out = Self.render(.identity, output: PixelSize(width: 16, height: 12), filter: filter)
        #expect(out.format == .gray && out.pixels == Self.map.pixels)
    }

    @Test func shiftedByTwoMapPixelsWithNoGainBeside() {
        // The image 4 px (2 map px) right of the output's left edge.
        let out = Self.render(.translation(4, 0), output: PixelSize(width: 16, height: 12))
        for y in 0..<6 {
            for x in 0..<8 {
                let want = x < 2 ? 85 : 20 * (x - 2) + 7 * y + 3
                #expect(Int(out.pixels[y * 8 + x]) == want, "(\(x), \(y))")
            }
        }
    }

    @Test func aQuarterTurnTurnsTheMap() {
        // Clockwise: image (x, y) goes to output (12 - y, x), a 12x16 output.
        let t = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 12, ty: 0)
        let out = Self.render(t, output: PixelSize(width: 12, height: 16))
        #expect(out.size == PixelSize(width: 6, height: 8))
        for y in 0..<8 {
            for x in 0..<6 {
                // Output map pixel (x, y) shows map pixel (y, 5 - x).
                let want = 20 * y + 7 * (5 - x) + 3
                #expect(abs(Int(out.pixels[y * 6 + x]) - want) <= 1, "(\(x), \(y))")
            }
        }
    }
}
