import FZImage
import FZSystem
import Geometry

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
    package static func imagePixels(_ fit: AspectFit) -> PixelRect {
        let r = fit.imageRect
        let x0 = Int(r.x.rounded())
        let y0 = Int(r.y.rounded())
        return PixelRect(
            x: x0, y: y0, width: max(1, Int(r.maxX.rounded()) - x0), height: max(1, Int(r.maxY.rounded()) - y0))
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
        let area = maskArea(box, style: style, canvas: image.size)
        if area.isEmpty { return }
        let stroke = Coverage.stroke(box, width: style.stroke, over: area)
        let shadow = Coverage.blur(stroke, width: area.width, height: area.height, radius: style.shadowRadius)
        image.paint(style.shadowColor, coverage: shadow, in: area)
        image.paint(style.color, coverage: stroke, in: area)
    }

    /// The pixels `drawBox` computes its masks over: the box with room for its shadow, cut to
    /// the canvas with the same room. The box is the crop's window at the view's scale, so
    /// a large --size (or a small image in a large view) makes it far larger than the view;
    /// masks over all of it took (side * scale)^2 floats three times over (800 MB for
    /// --size 65536 on an 800x600 image in a 100x200 view; a Swift abort where the scale is
    /// larger) past every budget check, which sizes the canvas. Cut, they are never more than the canvas plus the pad,
    /// and still exact on it: the three box blurs reach 3 * radius < pad pixels, so no pixel
    /// of the canvas sees the cut edge.
    package static func maskArea(_ box: Rect, style: BoxStyle, canvas: PixelSize) -> PixelRect {
        let pad = style.shadowRadius * 3 + 2
        // Box edges clamped to just outside the padded canvas first: the Int conversions and
        // the width arithmetic then never see a value past the canvas.
        let lo = -Double(pad) - 1
        let x0 = min(max(box.x, lo), Double(canvas.width + pad))
        let y0 = min(max(box.y, lo), Double(canvas.height + pad))
        let x1 = min(max(box.maxX, lo), Double(canvas.width + pad))
        let y1 = min(max(box.maxY, lo), Double(canvas.height + pad))
        let left = Int(x0.rounded(.down)) - pad
        let top = Int(y0.rounded(.down)) - pad
        let whole = PixelRect(
            x: left, y: top, width: Int(x1.rounded(.up)) + pad + 1 - left, height: Int(y1.rounded(.up)) + pad + 1 - top)
        return whole.intersection(
            PixelRect(x: -pad, y: -pad, width: canvas.width + 2 * pad, height: canvas.height + 2 * pad))
    }
}

extension FrameRenderer {
    /// The gap between the view and the peek `frame --with-peek` shows beside it.
    public static let peekGap = 16

    /// `view` with `peek` to its right, `peekGap` pixels apart and centred on it vertically,
    /// on `gapColor`.
    public static func beside(_ view: Image, _ peek: Image, gapColor: Color) -> Image {
        var both = Image(
            width: view.width + peekGap + peek.width, height: max(view.height, peek.height),
            format: view.format.union(peek.format), fill: gapColor)
        both.blend(view, at: PixelPoint(x: 0, y: 0))
        both.blend(peek, at: PixelPoint(x: view.width + peekGap, y: (both.height - peek.height) / 2))
        return both
    }
}
