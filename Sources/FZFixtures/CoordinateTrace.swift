import FZImage
import Geometry

/// Traces what `crop` makes of a coords fixture, beyond an exact 1:1 piece: a piece padded
/// on a background (an image smaller than the square) and a piece magnified by a whole
/// number (each source pixel a Z x Z block, the edge blocks possibly cut).
public struct CoordinateTrace: Hashable, Sendable {
    /// Background rows and columns around the traced part: left, top, right, bottom.
    public struct Padding: Hashable, Sendable {
        public var left = 0, top = 0, right = 0, bottom = 0
        public var isZero: Bool { left == 0 && top == 0 && right == 0 && bottom == 0 }
    }

    /// Where the traced part lies in the file.
    public let piece: PixelRect
    public let padding: Padding
    /// The magnification: each source pixel is a zoom x zoom block.
    public let zoom: Int
    /// The source pixels shown, whole (edge blocks that are cut included).
    public let sourceRect: PixelRect
    /// The source region shown exactly (fractional where edge blocks are cut), as `crop`'s
    /// `window`.
    public let window: Rect
    /// As `CoordinateCode.Trace.orientation`.
    public let orientation: Orientation

    /// Traces `image`, or nil when no part of it is a (padded, whole-number zoomed) piece.
    public static func trace(_ image: Image) -> CoordinateTrace? {
        guard !image.format.isGray, image.width > 0, image.height > 0 else { return nil }
        var rect = PixelRect(size: image.size)
        // Padding is first what is not opaque (a transparent --background), then rows and
        // columns of one colour (an opaque one): a coords row or column never is, unless
        // it is a single block.
        strip(&rect, in: image) { image.rgba(x: $0, y: $1).a != 255 }
        if let t = traceZoomed(image, rect) { return t }
        let corner = image.rgba(x: rect.x, y: rect.y)
        strip(&rect, in: image, uniform: true) { image.rgba(x: $0, y: $1) == corner }
        return traceZoomed(image, rect)
    }

    /// Removes border rows and columns whose every pixel `matches`.
    package static func strip(_ r: inout PixelRect, in image: Image, uniform: Bool = false, matches: (Int, Int) -> Bool)
    {
        func rowMatches(_ y: Int) -> Bool {
            if uniform {
                let c = image.rgba(x: r.x, y: y)
                return (r.x..<r.maxX).allSatisfy { image.rgba(x: $0, y: y) == c }
            }
            return (r.x..<r.maxX).allSatisfy { matches($0, y) }
        }
        func columnMatches(_ x: Int) -> Bool {
            if uniform {
                let c = image.rgba(x: x, y: r.y)
                return (r.y..<r.maxY).allSatisfy { image.rgba(x: x, y: $0) == c }
            }
            return (r.y..<r.maxY).allSatisfy { matches(x, $0) }
        }
        while r.height > 1 && rowMatches(r.y) {
            r.y += 1
            r.height -= 1
        }
        while r.height > 1 && rowMatches(r.maxY - 1) { r.height -= 1 }
        while r.width > 1 && columnMatches(r.x) {
            r.x += 1
            r.width -= 1
        }
        while r.width > 1 && columnMatches(r.maxX - 1) { r.width -= 1 }
    }

    /// Lengths of the runs of equal pixels along a row (dx 1) or a column (dy 1).
    package static func runs(_ image: Image, from start: PixelPoint, count: Int, dx: Int, dy: Int) -> [Int] {
        var out: [Int] = []
        var last: Color?
        for i in 0..<count {
            let c = image.rgba(x: start.x + i * dx, y: start.y + i * dy)
            if c == last {
                out[out.count - 1] += 1
            } else {
                out.append(1)
                last = c
            }
        }
        return out
    }

    package static func traceZoomed(_ image: Image, _ r: PixelRect) -> CoordinateTrace? {
        let across = runs(image, from: PixelPoint(x: r.x, y: r.y), count: r.width, dx: 1, dy: 0)
        let down = runs(image, from: PixelPoint(x: r.x, y: r.y), count: r.height, dx: 0, dy: 1)
        let z = max(across.max() ?? 1, down.max() ?? 1)
        // The first block may be cut: it shows z - offset of its columns (rows).
        let ox = across.count > 1 ? z - across[0] : 0
        let oy = down.count > 1 ? z - down[0] : 0
        guard ox >= 0, oy >= 0 else { return nil }
        let bw = (r.width + ox + z - 1) / z
        let bh = (r.height + oy + z - 1) / z
        var small = Image(width: bw, height: bh, format: .rgba)
        for by in 0..<bh {
            for bx in 0..<bw {
                let x = r.x + max(0, bx * z - ox)
                let y = r.y + max(0, by * z - oy)
                let c = image.rgba(x: x, y: y)
                let i = (by * bw + bx) * 4
                small.pixels[i] = c.r
                small.pixels[i + 1] = c.g
                small.pixels[i + 2] = c.b
                small.pixels[i + 3] = c.a
            }
        }
        guard let t = CoordinateCode.trace(small) else { return nil }
        // Every pixel must be its block's.
        for y in 0..<r.height {
            for x in 0..<r.width {
                let i = (((y + oy) / z) * bw + (x + ox) / z) * 4
                let c = image.rgba(x: r.x + x, y: r.y + y)
                if c.r != small.pixels[i] || c.g != small.pixels[i + 1] || c.b != small.pixels[i + 2] || c.a != 255 {
                    return nil
                }
            }
        }
        let zd = Double(z)
        let shown = Rect(
            x: Double(ox) / zd, y: Double(oy) / zd, width: Double(r.width) / zd, height: Double(r.height) / zd)
        let w = t.orientation.storedRect(forUpright: shown, stored: t.sourceRect.size)
        let padding = Padding(left: r.x, top: r.y, right: image.width - r.maxX, bottom: image.height - r.maxY)
        return CoordinateTrace(
            piece: r, padding: padding, zoom: z, sourceRect: t.sourceRect,
            window: Rect(
                x: w.x + Double(t.sourceRect.x), y: w.y + Double(t.sourceRect.y), width: w.width, height: w.height),
            orientation: t.orientation)
    }
}
