import FZImage
import Geometry

/// Renders a peek: the N x N output for a `PeekGeometry` from the decoded source pixels.
public enum PeekRenderer {
    /// The margin of extra source pixels a zoomed peek reads around its window.
    public static func margin(for geometry: PeekGeometry, filter: ResampleFilter) -> Int {
        geometry.isOneToOne ? 0 : Int(filter.support.rounded(.up)) + 1
    }

    /// The filter used for a zoom: nearest for whole magnifications (crisp pixels, exact),
    /// Catmull-Rom bicubic otherwise.
    public static func defaultFilter(for zoom: Double) -> ResampleFilter {
        zoom >= 1 && zoom == zoom.rounded() ? .nearest : .bicubic
    }

    /// Whether the peek's window reaches outside the image, where `background` shows.
    public static func isPadded(_ geometry: PeekGeometry) -> Bool {
        let window = geometry.window
        return window.x < 0 || window.y < 0 || window.maxX > Double(geometry.image.width)
            || window.maxY > Double(geometry.image.height)
    }

    /// Renders the peek.
    /// - Parameters:
    ///   - geometry: where the peek comes from.
    ///   - source: the decoded pixels of `geometry.sourceRect(margin:)`, upright.
    ///   - sourceRect: the rectangle `source` holds, in upright image pixels.
    ///   - background: fills what lies outside the image (the padded case).
    ///   - filter: the zoom kernel (ignored at zoom 1).
    /// - Returns: an N x N image; gray stays gray and alpha stays alpha unless the
    ///   background needs colour or transparency.
    public static func render(
        _ geometry: PeekGeometry, source: Image, sourceRect: PixelRect,
        background: Color, filter: ResampleFilter
    ) -> Image {
        let n = geometry.side
        let window = geometry.window
        let padded = isPadded(geometry)
        let format = padded ? source.format.union(background.minimalFormat) : source.format
        let src = source.converted(to: format)

        if geometry.isOneToOne {
            if !padded && src.size == PixelSize(width: n, height: n) { return src }
            var canvas = Image(width: n, height: n, format: format, fill: background)
            canvas.place(src, at: geometry.destination)
            return canvas
        }
        // Zoom: resample the window (in source-rect coordinates) to N x N.
        let step = 1 / geometry.zoom
        let resampler = Resampler(
            source: src.size, output: PixelSize(width: n, height: n),
            originX: window.x - Double(sourceRect.x), originY: window.y - Double(sourceRect.y),
            stepX: step, stepY: step, format: format, filter: filter)
        var out = resampler.resample(src)
        if padded {
            // Output pixels whose centre falls outside the image show the background.
            let bg = background.bytes(in: format)
            let c = format.channels
            for oy in 0..<n {
                for ox in 0..<n {
                    let (x, y) = geometry.imageCoordinate(outputX: Double(ox), outputY: Double(oy))
                    if x < 0 || y < 0 || x >= Double(geometry.image.width) || y >= Double(geometry.image.height) {
                        let i = (oy * n + ox) * c
                        for k in 0..<c { out.pixels[i + k] = bg[k] }
                    }
                }
            }
        }
        return out
    }
}
