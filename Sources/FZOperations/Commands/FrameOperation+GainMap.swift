import FZCodecs
import FZGainMap
import FZImage
import FZRender
import Geometry

extension FrameOperation {
    /// The gain map at the frame's geometry: the view's image where the view shows it (the
    /// letterbox neutral), and with `withPeek` the 1:1 peek's beside it (the gap neutral).
    /// Each part is the map rendered with its own affine over the whole canvas; a map pixel
    /// takes the part its centre lies in. The box and pins carry the gain of the image under
    /// them, as the colour they are drawn over would.
    /// The map from image pixels to the view's, as the view is drawn (`FrameRenderer.imagePixels`):
    /// the regions follow it (in the view only, not again in a peek beside it).
    static func imageToView(_ fit: AspectFit, image: PixelSize) -> AffineTransform {
        let place = FrameRenderer.imagePixels(fit)
        return AffineTransform.scale(
            Double(place.width) / Double(image.width), Double(place.height) / Double(image.height)
        ).then(.translation(Double(place.x), Double(place.y)))
    }

    func gainMap(_ gain: GainMapCarry, fit: AspectFit, peek: PeekGeometry, canvas: PixelSize) -> CarriedGainMap? {
        guard let map = gain.map else { return nil }
        let place = FrameRenderer.imagePixels(fit)
        let image = map.primary
        let toView = AffineTransform.scale(
            Double(place.width) / Double(image.width), Double(place.height) / Double(image.height)
        ).then(.translation(Double(place.x), Double(place.y)))
        var carried = map.carried(imageToOutput: toView, output: canvas, filter: .lanczos)
        guard withPeek else { return carried }
        let viewWidth = fit.view.width
        let top = (canvas.height - peek.side) / 2
        let toPeek = AffineTransform.translation(-peek.window.x, -peek.window.y)
            .then(.translation(Double(viewWidth + FrameRenderer.peekGap), Double(top)))
        let shot = map.carried(imageToOutput: toPeek, output: canvas, filter: .nearest).image
        let out = carried.image
        let mx = Double(out.width) / Double(canvas.width)
        let my = Double(out.height) / Double(canvas.height)
        let neutral = map.neutral.bytes(in: out.format)
        let c = out.format.channels
        var merged = out
        for y in 0..<out.height {
            let cy = (Double(y) + 0.5) / my
            for x in 0..<out.width {
                let cx = (Double(x) + 0.5) / mx
                guard cx >= Double(viewWidth) || cy >= Double(fit.view.height) else { continue }
                let inPeek =
                    cx >= Double(viewWidth + FrameRenderer.peekGap) && cy >= Double(top)
                    && cy < Double(top + peek.side)
                let i = (y * out.width + x) * c
                for k in 0..<c { merged.pixels[i + k] = inPeek ? shot.pixels[i + k] : neutral[k] }
            }
        }
        carried.image = merged
        return carried
    }
}
