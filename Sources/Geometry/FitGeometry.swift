/// How a device is held.
public enum DeviceOrientation: String, CaseIterable, Sendable {
    case portrait
    /// Turned a quarter counter-clockwise (home button right): content turns +90 degrees.
    case landscapeLeft = "landscape-left"
    /// Turned a quarter clockwise: content turns -90 degrees.
    case landscapeRight = "landscape-right"
    case upsideDown = "upside-down"

    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    /// The rotation applied to the content, degrees clockwise on screen (UIKit's y-down).
    public var contentRotation: Double {
        switch self {
        case .portrait: return 0
        case .landscapeLeft: return 90
        case .landscapeRight: return -90
        case .upsideDown: return 180
        }
    }

    /// The same turn as an image orientation (rotate the content image by this).
    public var contentTurn: Orientation {
        switch self {
        case .portrait: return .up
        case .landscapeLeft: return .rotate90
        case .landscapeRight: return .rotate270
        case .upsideDown: return .rotate180
        }
    }
}

/// The rotated fullscreen fit: an image aspect-fit (or filled) into a device screen's
/// content bounds for an orientation, then turned into the portrait canvas. Pure geometry.
public struct FitGeometry: Hashable, Sendable {
    public enum Mode: String, CaseIterable, Sendable { case fit, fill }

    public let image: PixelSize
    /// The portrait screen (the output canvas).
    public let screen: PixelSize
    public let orientation: DeviceOrientation
    public let mode: Mode
    /// The content bounds: the screen, with sides swapped in landscape.
    public let bounds: PixelSize
    /// Canvas pixels per image pixel.
    public let scale: Double
    /// The image's scaled size in whole pixels (fit: within bounds; fill: covers them).
    public let scaledSize: PixelSize
    /// Where the scaled image's top-left lies in the content bounds (negative when filled).
    public let offset: PixelPoint
    /// The upright pixel a fill keeps in the middle as far as it can (`fit --at`,
    /// `animate --at`): nil for the centre. A fit shows the whole image, so it means nothing there.
    public let focus: PixelPoint?

    /// - Parameters:
    ///   - image: upright image size.
    ///   - screen: portrait screen size.
    ///   - orientation: how the device is held.
    ///   - mode: fit (letterbox) or fill (centre crop).
    ///   - focus: with fill, the upright pixel to keep in the middle, the crop shifted no
    ///     further than the image's edges (nil: the centre).
    public init(
        image: PixelSize, screen: PixelSize, orientation: DeviceOrientation, mode: Mode = .fit,
        focus: PixelPoint? = nil
    ) {
        self.image = image
        self.screen = screen
        self.orientation = orientation
        self.mode = mode
        bounds = orientation.isLandscape ? screen.transposed : screen
        let sx = Double(bounds.width) / Double(image.width)
        let sy = Double(bounds.height) / Double(image.height)
        scale = mode == .fit ? min(sx, sy) : max(sx, sy)
        // The constrained side is exact; the other rounds to the nearest pixel.
        var w = max(1, Int((Double(image.width) * scale).rounded()))
        var h = max(1, Int((Double(image.height) * scale).rounded()))
        if mode == .fit {
            if sx <= sy { w = bounds.width } else { h = bounds.height }
        } else {
            if sx >= sy { w = bounds.width } else { h = bounds.height }
        }
        scaledSize = PixelSize(width: w, height: h)
        self.focus = mode == .fill ? focus : nil
        offset = PixelPoint(
            x: Self.place(bounds.width, w, image.width, self.focus?.x),
            y: Self.place(bounds.height, h, image.height, self.focus?.y))
    }

    /// The scaled image's offset along one axis: centred, or with `focus` (an image pixel)
    /// in the middle of `bounds` as far as the scaled image still covers them.
    static func place(_ bounds: Int, _ scaled: Int, _ image: Int, _ focus: Int?) -> Int {
        let centred = (bounds - scaled) / 2 - ((bounds - scaled) < 0 && (bounds - scaled) % 2 != 0 ? 1 : 0)
        guard let focus, scaled > bounds else { return centred }
        let wanted = Double(bounds) / 2 - (Double(focus) + 0.5) * Double(scaled) / Double(image)
        return min(0, max(bounds - scaled, Int(wanted.rounded())))
    }

    /// The orientation in which the image covers more of the screen (fit), portrait on a tie;
    /// a wider-than-tall image picks landscape-left.
    public static func automatic(image: PixelSize, screen: PixelSize) -> DeviceOrientation {
        let p = FitGeometry(image: image, screen: screen, orientation: .portrait)
        let l = FitGeometry(image: image, screen: screen, orientation: .landscapeLeft)
        return l.scaledSize.area > p.scaledSize.area ? .landscapeLeft : .portrait
    }

    /// The part of the image shown, in image pixels (fill crops it; fit shows it all).
    public var visibleImageRect: Rect {
        let x0 = max(0, -Double(offset.x)) / Double(scaledSize.width) * Double(image.width)
        let y0 = max(0, -Double(offset.y)) / Double(scaledSize.height) * Double(image.height)
        let w = Double(min(bounds.width, scaledSize.width)) / Double(scaledSize.width) * Double(image.width)
        let h = Double(min(bounds.height, scaledSize.height)) / Double(scaledSize.height) * Double(image.height)
        return Rect(x: x0, y: y0, width: w, height: h)
    }

    /// Image coordinates to content-bounds coordinates.
    public var imageToContent: AffineTransform {
        AffineTransform.scale(
            Double(scaledSize.width) / Double(image.width), Double(scaledSize.height) / Double(image.height)
        )
        .then(.translation(Double(offset.x), Double(offset.y)))
    }

    /// Content-bounds coordinates to the portrait canvas: a turn about the centre.
    public var contentToCanvas: AffineTransform {
        AffineTransform.translation(-Double(bounds.width) / 2, -Double(bounds.height) / 2)
            .then(.rotation(degrees: orientation.contentRotation))
            .then(.translation(Double(screen.width) / 2, Double(screen.height) / 2))
    }

    /// The whole map, image to canvas, as a 2x3 matrix.
    public var transform: AffineTransform { imageToContent.then(contentToCanvas) }

    /// The image's rectangle on the canvas (clipped to it).
    public var canvasImageRect: Rect {
        let r = transform.boundingBox(of: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        let x0 = max(0, r.x)
        let y0 = max(0, r.y)
        return Rect(
            x: x0, y: y0, width: min(Double(screen.width), r.maxX) - x0, height: min(Double(screen.height), r.maxY) - y0
        )
    }
}
