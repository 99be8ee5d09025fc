import FZImage
import Geometry

/// Pins at image points, drawn over any output: the one place that turns a marker's pixel
/// index into the point its tip marks (the pixel's centre, index + 0.5).
public struct PinLayer: Sendable {
    /// Pins at image pixel indices (`--marker 1200,800` marks pixel (1200, 800)).
    public var markers: [Marker]
    /// The pin size: 1 for the standard pin.
    public var size: Double
    /// The pin's body colour (in the output's colour space: see `DrawingColors`).
    public var color: Color

    public init(_ markers: [Marker], size: Double = 1, color: Color = PinRenderer.color) {
        self.markers = markers
        self.size = size
        self.color = color
    }

    public var isEmpty: Bool { markers.isEmpty }

    /// Draws every pin whose tip lands inside `image`.
    /// A gray image becomes colour first, since pins are red.
    /// - Parameters:
    ///   - transform: image coordinates (continuous: pixel (x, y) spans x..x+1) to output
    ///     coordinates.
    public func draw(on image: inout Image, transform: AffineTransform) {
        guard !markers.isEmpty else { return }
        if image.format.isGray { image = image.converted(to: image.format.withColor) }
        PinRenderer.draw(tips, on: &image, transform: transform, size: size, color: color)
    }

    /// The points the tips mark, in continuous image coordinates: each pixel's centre.
    public var tips: [Marker] { markers.map { Marker(x: $0.x + 0.5, y: $0.y + 0.5, label: $0.label) } }
}

/// Draws pins. The map-pin rule: a pin is the same size in output pixels whatever the
/// image's scale (its size is corrected by the inverse of the scale), and its tip sits
/// exactly on the transformed image point.
public enum PinRenderer {
    /// Pin body radius in output pixels.
    public static let radius = 7.0
    /// Tip-to-centre distance in output pixels.
    public static let height = 20.0
    /// The body's colour, in sRGB.
    public static let color = Color(r: 230, g: 40, b: 40)

    /// The output pixels a pin with its tip at (tx, ty) may touch.
    public static func bounds(tipX tx: Double, tipY ty: Double, size: Double = 1) -> PixelRect {
        let r = radius * size
        let h = height * size
        let x0 = Int((tx - r - 2).rounded(.down))
        let y0 = Int((ty - h - r - 2).rounded(.down))
        return PixelRect(x: x0, y: y0, width: Int(2 * r + 5), height: Int(h + r + 5))
    }

    /// Draws one pin (and its label) with its tip at (tx, ty) in output pixels.
    /// - Parameter size: 1 for the standard pin; animations pass other sizes when the zoom
    ///   leaves --pin-scale-range.
    public static func draw(
        on image: inout Image, tipX tx: Double, tipY ty: Double, label: String?,
        color: Color = PinRenderer.color, size: Double = 1
    ) {
        let radius = Self.radius * size
        let height = Self.height * size
        let area = bounds(tipX: tx, tipY: ty, size: size)
        guard !area.intersection(PixelRect(size: image.size)).isEmpty else { return }
        let cx = tx
        let cy = ty - height
        // A circle plus a triangle whose apex is the tip and whose sides are tangent-ish.
        func inside(_ x: Double, _ y: Double) -> Bool {
            let dx = x - cx
            let dy = y - cy
            if dx * dx + dy * dy <= radius * radius { return true }
            guard y >= cy && y <= ty else { return false }
            let half = radius * 0.8 * (ty - y) / (ty - cy)
            return abs(x - tx) <= half
        }
        let outline = Coverage.shape(over: area) { x, y in
            let dx = x - cx
            let dy = y - cy
            if dx * dx + dy * dy <= (radius + 1.2) * (radius + 1.2) { return true }
            guard y >= cy && y <= ty + 1 else { return false }
            return abs(x - tx) <= radius * 0.8 * (ty + 1.5 - y) / (ty - cy) + 0.9
        }
        image.paint(Color(r: 0, g: 0, b: 0, a: 200), coverage: outline, in: area)
        image.paint(color, coverage: Coverage.shape(over: area, inside: inside), in: area)
        let hole = Coverage.shape(over: area) { x, y in
            let dx = x - cx
            let dy = y - cy
            return dx * dx + dy * dy <= (radius * 0.35) * (radius * 0.35)
        }
        image.paint(.white, coverage: hole, in: area)
        if let label, !label.isEmpty {
            let font = BitmapFont.standard
            let s = font.size(of: label, scale: 1)
            let lx = Int((cx + radius + 3).rounded())
            let ly = Int((cy - Double(s.height) / 2).rounded())
            let box = PixelRect(x: lx - 2, y: ly - 2, width: s.width + 4, height: s.height + 4)
            image.paint(
                Color(r: 255, g: 255, b: 255, a: 220), coverage: [Float](repeating: 1, count: box.width * box.height),
                in: box)
            image.draw(label, x: lx, y: ly, scale: 1, color: .black)
        }
    }

    /// Draws every marker whose image point maps inside the output; the rest are skipped.
    /// - Parameters:
    ///   - markers: image points.
    ///   - transform: image coordinates to output coordinates.
    public static func draw(
        _ markers: [Marker], on image: inout Image, transform: AffineTransform, size: Double = 1,
        color: Color = PinRenderer.color
    ) {
        for m in markers {
            let p = transform.apply(x: m.x, y: m.y)
            guard p.x >= 0, p.y >= 0, p.x <= Double(image.width), p.y <= Double(image.height) else { continue }
            draw(on: &image, tipX: p.x, tipY: p.y, label: m.label, color: color, size: size)
        }
    }
}
