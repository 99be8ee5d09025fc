import Testing

@testable import FZImage
@testable import FZRender
@testable import Geometry

/// The preview box's masks are cut to the canvas: their size follows the view (which the
/// budget checks), not the box (which follows --size and can be far larger), and the
/// pixels drawn are the same as with masks over the whole box.
struct FrameBoxTests {
    /// A canvas with something on it, so a wrong blend shows.
    static func canvas(_ size: PixelSize) -> Image {
        var image = Image(width: size.width, height: size.height, format: .rgb, fill: Color(r: 20, g: 90, b: 160))
        for y in 0..<size.height where y % 7 == 0 {
            for x in 0..<size.width { image.pixels[(y * size.width + x) * 3] = UInt8(x % 256) }
        }
        return image
    }

    /// `drawBox` as it was before the cut: masks over the whole box and its shadow pad.
    static func drawWhole(_ box: Rect, style: BoxStyle, on image: inout Image) {
        let pad = style.shadowRadius * 3 + 2
        let area = PixelRect(
            x: Int(box.x.rounded(.down)) - pad, y: Int(box.y.rounded(.down)) - pad,
            width: Int(box.width.rounded(.up)) + 2 * pad + 1, height: Int(box.height.rounded(.up)) + 2 * pad + 1)
        let stroke = Coverage.stroke(box, width: style.stroke, over: area)
        let shadow = Coverage.blur(stroke, width: area.width, height: area.height, radius: style.shadowRadius)
        image.paint(style.shadowColor, coverage: shadow, in: area)
        image.paint(style.color, coverage: stroke, in: area)
    }

    /// Boxes inside, across every edge, around and past the canvas, at fractional places.
    static let boxes: [Rect] = [
        Rect(x: 10.25, y: 20.5, width: 40, height: 30),
        Rect(x: -37.3, y: 15.1, width: 90.6, height: 300.2),
        Rect(x: -300.5, y: -250.25, width: 700.75, height: 720.5),
        Rect(x: 60.7, y: -9.9, width: 800, height: 60),
        Rect(x: -12, y: -12, width: 124, height: 224),
        Rect(x: 95.5, y: 190.5, width: 3, height: 3),
        Rect(x: 140, y: 30, width: 50, height: 50),
    ]

    @Test(arguments: boxes)
    func cutMasksDrawTheSamePixels(_ box: Rect) {
        let size = PixelSize(width: 100, height: 200)
        for radius in [0, 3, 6] {
            var style = BoxStyle()
            style.shadowRadius = radius
            var cut = Self.canvas(size)
            var whole = Self.canvas(size)
            FrameRenderer.drawBox(box, style: style, on: &cut)
            Self.drawWhole(box, style: style, on: &whole)
            #expect(cut.pixels == whole.pixels, "\(box), shadow radius \(radius)")
        }
    }

    /// A box of 2^22 points a side (a --size past the budget on a small image in a large
    /// view) on a 100x200 view: the masks are at most the view plus the pad, so this draws
    /// at once; over the whole box they were 2^44 floats.
    @Test func aHugeBoxCostsWhatTheCanvasCosts() {
        let size = PixelSize(width: 100, height: 200)
        let style = BoxStyle()
        let pad = style.shadowRadius * 3 + 2
        let limit = (size.width + 2 * pad) * (size.height + 2 * pad)
        let side = Double(1 << 22)
        for box in [
            Rect(x: -side / 2, y: -side / 2, width: side, height: side),
            Rect(x: 50.5, y: -side / 2, width: side, height: side),
            Rect(x: -side, y: -side, width: side + 40.5, height: side + 80.5),
        ] {
            let area = FrameRenderer.maskArea(box, style: style, canvas: size)
            #expect(area.width * area.height <= limit, "\(box): \(area)")
            var image = Self.canvas(size)
            FrameRenderer.drawBox(box, style: style, on: &image)
            // The box's edges that cross the view are drawn; a box all around it leaves it be.
            if box.x < 0 && box.maxX > Double(size.width) && box.y < 0 && box.maxY > Double(size.height) {
                #expect(image.pixels == Self.canvas(size).pixels, "\(box)")
            } else {
                #expect(image.pixels != Self.canvas(size).pixels, "\(box): no edge drawn")
            }
        }
    }
}
