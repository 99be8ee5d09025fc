/// Where a ForceZoom peek comes from: an N x N output showing N/zoom image pixels around a
/// touched pixel, kept inside the image. Pure geometry, no pixels.
///
/// Placement rule, per axis, with c = floor(N/2) and window side S = N/zoom: the touched
/// pixel's centre lands on output pixel c's centre, so the window starts at
/// p + 0.5 - (c + 0.5)/zoom (at zoom 1 simply p - c). Where the window would leave the
/// image it shifts just enough to lie inside: left = clamp(left, 0, W - S). Where the image
/// is smaller than the window, all of it is used and centred: it starts at output pixel
/// floor((N - W*zoom)/2). Unlike ForceZoom's own math, each axis uses its own extent, and
/// the clamp keeps the window off the right and bottom edges.
public struct PeekGeometry: Hashable, Sendable {
    /// The upright image size.
    public let image: PixelSize
    /// The touched upright pixel.
    public let point: PixelPoint
    /// The output side N.
    public let side: Int
    /// Magnification (1 = 1:1).
    public let zoom: Double
    /// The window of image coordinates shown, after the shift (may extend past the image
    /// only where the image is smaller than the window: the padded case).
    public let window: Rect
    /// How far the window moved to stay inside the image (x, y in image pixels).
    public let shiftX: Double
    public let shiftY: Double

    /// - Parameters:
    ///   - image: upright image size.
    ///   - point: the touched pixel, inside the image.
    ///   - side: output side N, > 0.
    ///   - zoom: magnification, > 0.
    public init(image: PixelSize, point: PixelPoint, side: Int, zoom: Double = 1) {
        self.image = image
        self.point = point
        self.side = side
        self.zoom = zoom
        let (x, dx) = Self.place(point.x, extent: image.width, side: side, zoom: zoom)
        let (y, dy) = Self.place(point.y, extent: image.height, side: side, zoom: zoom)
        let s = Double(side) / zoom
        window = Rect(x: x, y: y, width: s, height: s)
        shiftX = dx
        shiftY = dy
    }

    /// One axis: (window start, shift applied).
    package static func place(_ p: Int, extent: Int, side: Int, zoom: Double) -> (Double, Double) {
        let s = Double(side) / zoom
        let (placed, wanted) = PeekPlacement.start(p, side: side, zoom: zoom, length: s, extent: Double(extent))
        // An image shorter than the window is centred on the padding instead.
        let start = Double(extent) >= s ? placed : -((Double(side) - Double(extent) * zoom) / 2).rounded(.down) / zoom
        return (start, start - wanted)
    }

    /// True when the output is an exact 1:1 copy (zoom 1: every window edge is whole).
    public var isOneToOne: Bool { zoom == 1 }

    /// The image pixels the output shows (the window within the image, rounded out).
    public var coveredRect: PixelRect {
        let x0 = Int(window.x.rounded(.down))
        let y0 = Int(window.y.rounded(.down))
        let x1 = Int(window.maxX.rounded(.up))
        let y1 = Int(window.maxY.rounded(.up))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            .intersection(PixelRect(size: image))
    }

    /// The pixels a sampler needs: the covered rect plus `margin` pixels for its kernel.
    public func sourceRect(margin: Int) -> PixelRect {
        let r = coveredRect
        return PixelRect(x: r.x - margin, y: r.y - margin, width: r.width + 2 * margin, height: r.height + 2 * margin)
            .intersection(PixelRect(size: image))
    }

    /// At zoom 1: where the covered pixels land in the output (non-zero only when padded).
    public var destination: PixelPoint {
        PixelPoint(x: max(0, Int(-window.x)), y: max(0, Int(-window.y)))
    }

    /// The covered region in 0...1 units of the upright image (ForceZoom's normalised rect).
    public var normalizedRect: Rect {
        let r = Rect(
            x: max(window.x, 0), y: max(window.y, 0),
            width: min(window.maxX, Double(image.width)) - max(window.x, 0),
            height: min(window.maxY, Double(image.height)) - max(window.y, 0))
        return Rect(
            x: r.x / Double(image.width), y: r.y / Double(image.height),
            width: r.width / Double(image.width), height: r.height / Double(image.height))
    }

    /// Output pixel (ox, oy) centre in image coordinates: the inverse map a sampler uses.
    public func imageCoordinate(outputX ox: Double, outputY oy: Double) -> (x: Double, y: Double) {
        (window.x + (ox + 0.5) / zoom, window.y + (oy + 0.5) / zoom)
    }

    /// The peek's output side for a screen, as ForceZoom sizes it: min(W, H).
    public static func side(forScreen screen: PixelSize) -> Int { min(screen.width, screen.height) }
}
