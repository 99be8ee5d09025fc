import FZImage
import Geometry

/// A region outlined over a picture (`view --outline-regions`, `frame --outline-regions`, the
/// peek's current region): a stroke lying inside the rectangle, on whole output pixels so
/// its edges are exact, and its label in a dark tab above its top-left corner (inside the
/// rectangle when there is no room above).
public struct RegionOutline: Hashable, Sendable {
    /// The rectangle in image coordinates (continuous: pixel (x, y) spans x..x+1).
    public var rect: Rect
    /// What the tab says ("1 Marie Curie", "2 face"); empty: no tab.
    public var label: String

    public init(rect: Rect, label: String) {
        self.rect = rect
        self.label = label
    }

    /// The stroke's colour (sRGB): a yellow that shows over skin, sky and foliage alike.
    public static let color = Color(r: 255, g: 214, b: 0)
    /// The stroke's width in output pixels.
    public static let stroke = 2

    /// The rectangle in output pixels: its corners through `transform` (a scale and a
    /// translation), each edge rounded to the nearest pixel, at least one pixel a side.
    public static func box(_ rect: Rect, transform: AffineTransform) -> PixelRect {
        let a = transform.apply(x: rect.x, y: rect.y)
        let b = transform.apply(x: rect.maxX, y: rect.maxY)
        // Clamped before the Int conversion: a region far outside a zoomed view stays finite.
        func whole(_ v: Double) -> Int { Int(min(max(v, -1e9), 1e9).rounded()) }
        let x0 = whole(min(a.x, b.x))
        let y0 = whole(min(a.y, b.y))
        let x1 = max(x0 + 1, whole(max(a.x, b.x)))
        let y1 = max(y0 + 1, whole(max(a.y, b.y)))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Draws every outline that reaches `image`. A gray image becomes colour first.
    /// - Parameters:
    ///   - transform: image coordinates to output coordinates.
    ///   - color: the stroke's colour in the output's colour space (`DrawingColors`).
    public static func draw(
        _ outlines: [RegionOutline], on image: inout Image, transform: AffineTransform, color: Color = color
    ) {
        guard !outlines.isEmpty else { return }
        if image.format.isGray { image = image.converted(to: image.format.withColor) }
        let canvas = PixelRect(size: image.size)
        for outline in outlines {
            let box = Self.box(outline.rect, transform: transform)
            if box.intersection(canvas).isEmpty { continue }
            let s = min(stroke, box.width / 2, box.height / 2)
            // Four bands inside the box, each cut to the canvas: nothing is allocated for the
            // part of a huge box that is off the picture.
            for band in [
                PixelRect(x: box.x, y: box.y, width: box.width, height: max(1, s)),
                PixelRect(x: box.x, y: box.maxY - max(1, s), width: box.width, height: max(1, s)),
                PixelRect(x: box.x, y: box.y, width: max(1, s), height: box.height),
                PixelRect(x: box.maxX - max(1, s), y: box.y, width: max(1, s), height: box.height),
            ] {
                image.fill(band.intersection(canvas), color)
            }
            tab(outline.label, box: box, on: &image, color: color)
        }
    }

    /// The label's tab: dark, the text in the stroke's colour, above the box's top-left
    /// corner, or just inside it when the box touches the top.
    static func tab(_ label: String, box: PixelRect, on image: inout Image, color: Color) {
        guard !label.isEmpty else { return }
        let font = BitmapFont.standard
        let size = font.size(of: label, scale: 1)
        let height = size.height + 4
        let top = box.y - height >= 0 ? box.y - height : box.y + stroke
        let area = PixelRect(x: box.x, y: top, width: size.width + 4, height: height)
            .intersection(PixelRect(size: image.size))
        if area.isEmpty { return }
        image.paint(
            Color(r: 0, g: 0, b: 0, a: 190), coverage: [Float](repeating: 1, count: area.width * area.height), in: area)
        image.draw(label, x: box.x + 2, y: top + 2, scale: 1, color: color)
    }
}
