import FZImage
import FZSystem
import Geometry

/// Renders the rotated fullscreen fit: resize first (the command decodes through
/// `pipeline(for:)`, a DCT-scaled decode streamed into an alias-free reducer), letterbox on
/// the background in the content bounds, draw pins, then turn the content into the portrait
/// canvas by an exact quarter turn.
public enum FitRenderer {
    /// What to decode for a fit: the visible part of the image reduced to its shown size.
    public static func pipeline(for g: FitGeometry, filter: ResampleFilter = .lanczos, threads: Int = Threads.perImage)
        -> ReductionPipeline
    {
        ReductionPipeline(target: shownSize(g), window: g.visibleImageRect, filter: filter, threads: threads)
    }

    /// The scaled image's size inside the content bounds.
    package static func shownSize(_ g: FitGeometry) -> PixelSize {
        PixelSize(width: min(g.bounds.width, g.scaledSize.width), height: min(g.bounds.height, g.scaledSize.height))
    }

    /// - Parameters:
    ///   - scaled: the visible image at its shown size, as `pipeline(for:)` decodes it.
    ///   - geometry: the fit.
    ///   - background: the blanking colour (transparent allowed).
    ///   - pins: pins at image points.
    /// - Returns: the canvas, `geometry.screen` in size.
    ///
    /// `scaled` is consumed: letterboxed, its pixels are let go once they are on the canvas,
    /// before the quarter turn copies the canvas (a 20 MP photo's fit held the shown image,
    /// the canvas and its turned copy at once: 25 MB, now 18; issue 51).
    public static func render(
        _ scaled: consuming Image, geometry g: FitGeometry, background: Color, pins: PinLayer = PinLayer([])
    ) -> Image {
        let shown = shownSize(g)
        precondition(scaled.size == shown, "FitRenderer wants the image its pipeline decodes")
        let letterboxed = shown != g.bounds
        let format =
            letterboxed || scaled.format.hasAlpha ? scaled.format.union(background.minimalFormat) : scaled.format
        var content: Image
        if !letterboxed && !scaled.format.hasAlpha {
            content = consume scaled
        } else {
            content = Image(width: g.bounds.width, height: g.bounds.height, format: format, fill: background)
            content.blend(scaled, at: PixelPoint(x: max(0, g.offset.x), y: max(0, g.offset.y)))
            _ = consume scaled
        }
        // Pins are drawn in content space so they turn with the content, upright to the
        // person holding the device.
        pins.draw(on: &content, transform: g.imageToContent)
        return content.oriented(g.orientation.contentTurn)
    }
}
