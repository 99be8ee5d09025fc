import Geometry

/// What a thumbnail shows: the output size, and the window of the upright source (in
/// source pixels, sub-pixel allowed) that is resampled onto it. Pure geometry, no pixels.
///
/// Without a crop the window is the whole image and the output keeps its aspect ratio
/// (rounded to whole pixels; the side that limits the fit is exact). With a crop the image
/// is scaled to fill the box and the window is the box-shaped part that is kept: centred,
/// or placed around a point by the peek rule of `crop` (the point's pixel lands on the
/// output's centre pixel, the window shifting just enough to stay inside the image).
public struct ThumbnailGeometry: Hashable, Sendable {
    /// How the box is filled.
    public enum Crop: Hashable, Sendable {
        /// Fit inside the box: nothing is cut.
        case none
        /// Fill the box, cutting the overflow evenly from both sides.
        case centre
        /// Fill the box, keeping the part around this point of the upright image.
        case point(TouchPoint)
    }

    /// The upright source size.
    public let source: PixelSize
    /// The thumbnail size.
    public let output: PixelSize
    /// The upright source region shown (the whole image unless cropped).
    public let window: Rect

    /// Output pixels per source pixel along x.
    public var scaleX: Double { Double(output.width) / window.width }
    /// Output pixels per source pixel along y.
    public var scaleY: Double { Double(output.height) / window.height }

    /// True when the thumbnail would be the source itself, pixel for pixel.
    public var isIdentity: Bool {
        output == source && window == Rect(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
    }

    public init(source: PixelSize, output: PixelSize, window: Rect) {
        self.source = source
        self.output = output
        self.window = window
    }

    /// Plans the thumbnail of an image.
    /// - Parameters:
    ///   - source: the upright image size (both sides > 0).
    ///   - size: the requested size and mode.
    ///   - crop: fit (`.none`) or fill and cut; cropping needs a box (`size.isBox`) and
    ///     is ignored for the exact (`!`) mode, which has nothing to cut.
    /// - Returns: the output size and source window.
    /// - Throws: `GeometryError` when the crop point lies outside the image.
    public init(source: PixelSize, size: ThumbnailSize, crop: Crop = .none) throws(GeometryError) {
        let w = Double(source.width)
        let h = Double(source.height)
        let full = Rect(x: 0, y: 0, width: w, height: h)
        if size.mode == .exact {
            self.init(
                source: source,
                output: PixelSize(width: size.width ?? source.width, height: size.height ?? source.height), window: full
            )
            return
        }
        let sx = size.width.map { Double($0) / w }
        let sy = size.height.map { Double($0) / h }
        let cropping = crop != .none && size.isBox
        var s: Double
        switch (sx, sy) {
        case (let x?, let y?): s = cropping ? max(x, y) : min(x, y)
        case (let x?, nil): s = x
        case (nil, let y?): s = y
        case (nil, nil): s = 1
        }
        switch size.mode {
        case .shrinkOnly: s = min(s, 1)
        case .enlargeOnly: s = max(s, 1)
        case .exact: break
        }
        // Whole pixels, at least one; the limiting side comes out exact (256/W*W rounds to 256).
        var ow = max(1, Int((w * s).rounded()))
        var oh = max(1, Int((h * s).rounded()))
        guard cropping, let bw = size.width, let bh = size.height else {
            self.init(source: source, output: PixelSize(width: ow, height: oh), window: full)
            return
        }
        ow = min(ow, bw)
        oh = min(oh, bh)
        // The kept part of the source, never wider than the image (rounding can ask for a
        // hair more when that side was not cut).
        let ww = min(w, Double(ow) / s)
        let wh = min(h, Double(oh) / s)
        let x0: Double
        let y0: Double
        switch crop {
        case .point(let touch):
            let p = try touch.resolve(in: source)
            x0 = PeekPlacement.start(p.x, side: ow, zoom: s, length: ww, extent: w).start
            y0 = PeekPlacement.start(p.y, side: oh, zoom: s, length: wh, extent: h).start
        default:
            x0 = (w - ww) / 2
            y0 = (h - wh) / 2
        }
        self.init(
            source: source, output: PixelSize(width: ow, height: oh), window: Rect(x: x0, y: y0, width: ww, height: wh))
    }
}
