/// Renders the rotated fullscreen fit: resize first (DCT-scaled decode streamed into an
/// alias-free reducer), letterbox on the background in the content bounds, draw pins,
/// then turn the content into the portrait canvas by an exact quarter turn.
public enum FitRenderer {
    /// - Parameters:
    ///   - reader: an opened input (consumed).
    ///   - geometry: the fit.
    ///   - background: the blanking colour (transparent allowed).
    ///   - markers: pins at image points (pixel indices; the tip marks the pixel centre).
    ///   - filter: the reduction kernel.
    /// - Returns: the canvas, `geometry.screen` in size.
    /// - Throws: `DecodeError`.
    public static func render(_ reader: ImageReader, geometry g: FitGeometry, background: Color,
                              markers: [Marker] = [], filter: ResampleFilter = .lanczos) throws(DecodeError) -> Image {
        let visible = g.visibleImageRect
        let shown = PixelSize(width: min(g.bounds.width, g.scaledSize.width), height: min(g.bounds.height, g.scaledSize.height))
        let (scaled, _) = try reader.readResampled(to: shown, window: visible, filter: filter)
        let letterboxed = shown != g.bounds
        let format = letterboxed || scaled.format.hasAlpha ? scaled.format.union(background.minimalFormat) : scaled.format
        var content: Image
        if !letterboxed && !scaled.format.hasAlpha {
            content = scaled
        } else {
            content = Image(width: g.bounds.width, height: g.bounds.height, format: format, fill: background)
            content.blend(scaled, at: PixelPoint(x: max(0, g.offset.x), y: max(0, g.offset.y)))
        }
        if !markers.isEmpty {
            if content.format.isGray { content = content.converted(to: content.format.withColor) }
            // Pins are drawn in content space so they turn with the content, upright to the
            // person holding the device.
            PinRenderer.draw(markers.map { Marker(x: $0.x + 0.5, y: $0.y + 0.5, label: $0.label) }, on: &content,
                             transform: g.imageToContent)
        }
        return content.oriented(g.orientation.contentTurn)
    }
}
