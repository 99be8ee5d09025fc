/// The peek rule on one axis, shared by `crop` (`PeekGeometry`) and `thumb --crop-at`
/// (`ThumbnailGeometry`): the touched pixel's centre lands on the centre of output pixel
/// floor(side/2), then the window shifts just enough to lie inside the image.
public enum PeekPlacement {
    /// - Parameters:
    ///   - p: the touched pixel's index on this axis.
    ///   - side: the output's length in pixels.
    ///   - zoom: output pixels per image pixel.
    ///   - length: the window's length in image pixels (at most `extent`).
    ///   - extent: the image's length.
    /// - Returns: where the window starts, and where it would start unshifted.
    public static func start(_ p: Int, side: Int, zoom: Double, length: Double, extent: Double) -> (
        start: Double, wanted: Double
    ) {
        // At zoom 1 this is p - floor(side/2) exactly (integers and halves are exact doubles).
        let wanted = Double(p) + 0.5 - (Double(side / 2) + 0.5) / zoom
        return (min(max(wanted, 0), extent - length), wanted)
    }
}
