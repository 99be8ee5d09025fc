import FZImage
import Geometry

/// A supplementary view (ZOZolaZoomTransition's): an image such as a toolbar or a caption,
/// composited unzoomed at a fixed screen position on top of every frame and faded with
/// the transition: `out` (the default) belongs to the screen the thumbnail is on, so it is
/// opaque while the view is at its rect and gone when the view is fullscreen; `in` is the
/// opposite (a caption of the fullscreen view).
public struct Overlay: Sendable {
    public enum Fade: String, CaseIterable, Sendable {
        case out, `in`
    }

    public var image: Image
    /// Top-left, in screen pixels.
    public var origin: PixelPoint
    public var fade: Fade

    public init(image: Image, origin: PixelPoint, fade: Fade = .out) {
        self.image = image
        self.origin = origin
        self.fade = fade
    }

    /// The overlay's opacity when the view is `presented` (0 at the rect, 1 fullscreen).
    public func opacity(presented: Double) -> Double {
        let p = min(max(presented, 0), 1)
        return fade == .out ? 1 - p : p
    }

    /// Composites the overlay, its alpha scaled by the opacity.
    public func composite(on canvas: inout Image, presented: Double) {
        let k = opacity(presented: presented)
        if k <= 0 { return }
        var faded = image.converted(to: image.format.withColor.withAlpha)
        if k < 1 {
            let c = faded.format.channels
            for i in Swift.stride(from: c - 1, to: faded.pixels.count, by: c) {
                faded.pixels[i] = UInt8((Double(faded.pixels[i]) * k).rounded())
            }
        }
        if canvas.format.isGray { canvas = canvas.converted(to: canvas.format.withColor) }
        canvas.blend(faded, at: origin)
    }
}
