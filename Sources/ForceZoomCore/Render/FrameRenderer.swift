/// How the preview box is drawn: ForceZoom's white 4-point stroke with a soft dark shadow.
public struct BoxStyle: Hashable, Sendable {
    public var color = Color.white
    public var stroke = 4.0
    public var shadowColor = Color(r: 0, g: 0, b: 0, a: 150)
    public var shadowRadius = 3

    public init() {}
}

/// Renders what the screen shows on first touch: the aspect-fit view of the image with
/// the preview box around the region `crop` would cut for the same arguments.
public enum FrameRenderer {
    /// The image's place in the view, on whole view pixels.
    static func imagePixels(_ fit: AspectFit) -> PixelRect {
        let r = fit.imageRect
        let x0 = Int(r.x.rounded()), y0 = Int(r.y.rounded())
        return PixelRect(x: x0, y: y0, width: max(1, Int(r.maxX.rounded()) - x0), height: max(1, Int(r.maxY.rounded()) - y0))
    }

    /// What to decode for the view: the whole image at its size in the view.
    public static func pipeline(for fit: AspectFit, threads: Int = Threads.perImage) -> ReductionPipeline {
        ReductionPipeline(target: imagePixels(fit).size, filter: .lanczos, threads: threads)
    }

    /// - Parameters:
    ///   - scaled: the image at its size in the view, as `pipeline(for:)` decodes it.
    ///   - fit: the aspect-fit of the upright image into the view.
    ///   - peek: the crop geometry (its window is what the box marks).
    ///   - background: the letterbox colour.
    ///   - style: the box's look.
    ///   - pins: pins at image points.
    /// - Returns: the view, `fit.view` in size.
    public static func render(
        _ scaled: Image, fit: AspectFit, peek: PeekGeometry, background: Color,
        style: BoxStyle = BoxStyle(), pins: PinLayer = PinLayer([])
    ) -> Image {
        let place = imagePixels(fit)
        precondition(scaled.size == place.size, "FrameRenderer wants the image its pipeline decodes")
        let (x0, y0) = (place.x, place.y)
        let format = scaled.format.union(background.minimalFormat).withColor
        var view = Image(width: fit.view.width, height: fit.view.height, format: format, fill: background)
        view.blend(scaled, at: PixelPoint(x: x0, y: y0))
        let box = boxRect(fit: fit, peek: peek)
        drawBox(box, style: style, on: &view)
        pins.draw(on: &view, transform: .scale(fit.scale, fit.scale).then(.translation(fit.offsetX, fit.offsetY)))
        return view
    }

    /// The preview box in view coordinates: exactly the crop's window (side N * s), shifted
    /// inside the image as the crop is.
    public static func boxRect(fit: AspectFit, peek: PeekGeometry) -> Rect { fit.viewRect(forImage: peek.window) }

    /// Draws a stroked box with its shadow; the stroke lies inside the box, as a layer border.
    public static func drawBox(_ box: Rect, style: BoxStyle, on image: inout Image) {
        let pad = style.shadowRadius * 3 + 2
        let area = PixelRect(
            x: Int(box.x.rounded(.down)) - pad, y: Int(box.y.rounded(.down)) - pad,
            width: Int(box.width.rounded(.up)) + 2 * pad + 1, height: Int(box.height.rounded(.up)) + 2 * pad + 1)
        let stroke = Coverage.stroke(box, width: style.stroke, over: area)
        let shadow = Coverage.blur(stroke, width: area.width, height: area.height, radius: style.shadowRadius)
        image.paint(style.shadowColor, coverage: shadow, in: area)
        image.paint(style.color, coverage: stroke, in: area)
    }
}
