/// An image aspect-fit into a view: scaled by `scale` = min(VW/W, VH/H) and centred, with
/// letterbox borders where the aspect ratios differ. Pure geometry, no pixels.
public struct AspectFit: Hashable, Sendable {
    public let image: PixelSize
    public let view: PixelSize
    /// View points per image pixel.
    public let scale: Double
    /// The left border (letterbox) in view points.
    public let offsetX: Double
    /// The top border in view points.
    public let offsetY: Double

    /// - Parameters:
    ///   - image: the upright image size (both sides > 0).
    ///   - view: the view size in points (both sides > 0).
    public init(image: PixelSize, view: PixelSize) {
        self.image = image
        self.view = view
        scale = min(Double(view.width) / Double(image.width), Double(view.height) / Double(image.height))
        offsetX = (Double(view.width) - Double(image.width) * scale) / 2
        offsetY = (Double(view.height) - Double(image.height) * scale) / 2
    }

    /// The image pixel under a view point; a touch on the letterbox goes to the nearest edge.
    public func imagePixel(x vx: Double, y vy: Double) -> PixelPoint {
        let x = Int(((vx - offsetX) / scale).rounded(.down))
        let y = Int(((vy - offsetY) / scale).rounded(.down))
        return PixelPoint(x: min(max(x, 0), image.width - 1), y: min(max(y, 0), image.height - 1))
    }

    /// Where a rectangle of image pixels (sub-pixel allowed) appears in the view.
    public func viewRect(forImage r: Rect) -> Rect {
        Rect(x: offsetX + r.x * scale, y: offsetY + r.y * scale, width: r.width * scale, height: r.height * scale)
    }

    /// The image's own rectangle in the view.
    public var imageRect: Rect {
        viewRect(forImage: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
    }
}
