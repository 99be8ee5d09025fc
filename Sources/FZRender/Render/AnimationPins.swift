import FZImage
import Geometry

/// Pins in an animation frame, drawn as subviews of the zooming view: they follow their
/// image points, turn with the view and are clipped to its bounds.
extension AnimationRenderer {
    /// Draws `markers` (pixel indices; tips on pixel centres) on a rendered frame.
    /// - Parameters:
    ///   - frame: the frame's geometry. A frame at rest in a `fit` gets its pins exactly as
    ///     `fit` draws them: in the content's own orientation, turned with it.
    ///   - size: the pin's drawn size (1 = standard).
    ///   - clip: clip to the view's bounds (the zoom transition; not the bounce).
    public static func drawPins(
        _ markers: [Marker], on canvas: inout Image, frame: ZoomAnimation.Frame, size: Double,
        clip: Bool, color: Color = PinRenderer.color
    ) {
        if markers.isEmpty { return }
        if canvas.format.isGray { canvas = canvas.converted(to: canvas.format.withColor) }
        let layer = PinLayer(markers, size: size, color: color)
        if let fit = frame.fit {
            // Fullscreen at rest: the view is the whole screen, nothing to clip. Back to the
            // content's orientation (an exact pixel move), pins as `FitRenderer` draws them,
            // and turn.
            var content = canvas.oriented(fit.orientation.contentTurn.inverse)
            layer.draw(on: &content, transform: fit.imageToContent)
            canvas = content.oriented(fit.orientation.contentTurn)
            return
        }
        let centred = layer.tips
        let before = clip ? canvas : nil
        var touched: [PixelRect] = []
        let view = frame.view
        let upright = abs(view.rotation.remainder(dividingBy: 360)) < 1e-9
        for m in centred {
            let tip = frame.transform.apply(x: m.x, y: m.y)
            if upright {
                PinRenderer.draw([m], on: &canvas, transform: frame.transform, size: size, color: color)
                touched.append(PinRenderer.area(tipX: tip.x, tipY: tip.y, label: m.label, size: size))
            } else if let r = drawTurned(m, tip: tip, degrees: view.rotation, size: size, color: color, on: &canvas) {
                touched.append(r)
            }
        }
        guard let before else { return }
        // Outside the view, the frame as it was before the pins; at its edge, the same
        // one-pixel anti-aliased coverage the image's clip uses.
        let toLocal = AffineTransform.translation(-view.centerX, -view.centerY).then(.rotation(degrees: -view.rotation))
        let halfW = view.width / 2 + 0.5
        let halfH = view.height / 2 + 0.5
        let c = canvas.format.channels
        let full = PixelRect(size: canvas.size)
        for area in touched {
            let r = area.intersection(full)
            if r.isEmpty { continue }
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX {
                    let l = toLocal.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let k = min(1, max(0, halfW - abs(l.x))) * min(1, max(0, halfH - abs(l.y)))
                    if k >= 1 { continue }
                    let i = (y * canvas.width + x) * c
                    for j in 0..<c {
                        let v = Double(canvas.pixels[i + j]) * k + Double(before.pixels[i + j]) * (1 - k)
                        canvas.pixels[i + j] = UInt8(v.rounded())
                    }
                }
            }
        }
    }

    /// A pin turned by `degrees` about its tip: drawn upright on a transparent patch, then
    /// warped (bilinear) onto the canvas. Returns the canvas pixels it may have touched.
    package static func drawTurned(
        _ m: Marker, tip: (x: Double, y: Double), degrees: Double, size: Double, color: Color = PinRenderer.color,
        on canvas: inout Image
    ) -> PixelRect? {
        let local = PinRenderer.area(tipX: 0, tipY: 0, label: m.label, size: size)
        var patch = Image(width: local.width, height: local.height, format: .rgba, fill: .transparent)
        PinRenderer.draw(
            on: &patch, tipX: Double(-local.x), tipY: Double(-local.y), label: m.label, color: color, size: size)
        let place = AffineTransform.translation(Double(local.x), Double(local.y)).then(.rotation(degrees: degrees))
            .then(.translation(tip.x, tip.y))
        let box = place.boundingBox(of: Rect(x: 0, y: 0, width: Double(patch.width), height: Double(patch.height)))
        let area = PixelRect(
            x: Int(box.x.rounded(.down)) - 1, y: Int(box.y.rounded(.down)) - 1,
            width: Int(box.width.rounded(.up)) + 3, height: Int(box.height.rounded(.up)) + 3)
        guard !area.intersection(PixelRect(size: canvas.size)).isEmpty else { return nil }
        let warped = AffineRenderer.render(
            patch, transform: place.then(.translation(-Double(area.x), -Double(area.y))),
            canvas: area.size, background: .transparent, filter: .bilinear)
        canvas.blend(warped, at: PixelPoint(x: area.x, y: area.y))
        return area
    }
}

extension PinRenderer {
    /// The output pixels a pin and its label may touch, tip at (tx, ty).
    public static func area(tipX tx: Double, tipY ty: Double, label: String?, size: Double = 1) -> PixelRect {
        var r = bounds(tipX: tx, tipY: ty, size: size)
        if let label, !label.isEmpty {
            let s = BitmapFont.standard.size(of: label, scale: 1)
            let cx = tx
            let cy = ty - height * size
            let lx = Int((cx + radius * size + 3).rounded())
            let ly = Int((cy - Double(s.height) / 2).rounded())
            r = r.union(PixelRect(x: lx - 3, y: ly - 3, width: s.width + 6, height: s.height + 6))
        }
        return r
    }
}
