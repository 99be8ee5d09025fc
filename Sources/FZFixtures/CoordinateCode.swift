import FZImage
import Geometry

/// The `coords` fixture's colour code: every pixel says where it came from.
///
/// R = x mod 256, G = y mod 256, B = (x / 256 mod 16) * 16 + (y / 256 mod 16), alpha 255.
/// Positions are unique up to 4096 x 4096 (they repeat beyond). Any 1:1 piece of such an
/// image, in any of the 8 orientations, can be traced back to its source rectangle.
public enum CoordinateCode {
    /// The largest side whose coordinates are unique.
    public static let period = 4096

    /// The colour of source pixel (x, y).
    @inline(__always)
    public static func color(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        (
            UInt8(truncatingIfNeeded: x), UInt8(truncatingIfNeeded: y),
            UInt8(truncatingIfNeeded: ((x >> 8) & 15) << 4 | ((y >> 8) & 15))
        )
    }

    /// The source pixel a colour names.
    @inline(__always)
    public static func point(r: UInt8, g: UInt8, b: UInt8) -> PixelPoint {
        PixelPoint(x: Int(r) | Int(b >> 4) << 8, y: Int(g) | Int(b & 15) << 8)
    }

    /// Where a 1:1 piece of a coords image came from.
    public struct Trace: Hashable, Sendable {
        /// The source rectangle, in the coords image's pixels.
        public let sourceRect: PixelRect
        /// How the source rectangle was turned to give the piece (EXIF orientation sense:
        /// the piece is the source rectangle shown with this orientation).
        public let orientation: Orientation
    }

    /// Traces a piece back to its source.
    /// - Parameter image: an RGB or RGBA image (alpha must be 255 everywhere).
    /// - Returns: the source rectangle and orientation, or nil when the image is not an
    ///   exact 1:1 piece of a coords image (scaled, blurred, recoloured, padded...).
    public static func trace(_ image: Image) -> Trace? {
        guard !image.format.isGray, image.width > 0, image.height > 0 else { return nil }
        func at(_ x: Int, _ y: Int) -> PixelPoint? {
            let c = image.rgba(x: x, y: y)
            guard c.a == 255 else { return nil }
            return point(r: c.r, g: c.g, b: c.b)
        }
        guard let p00 = at(0, 0) else { return nil }
        for o in Orientation.allCases {
            let stored = image.size.swapsFor(o)
            let origin0 = o.storedPixel(forUpright: PixelPoint(x: 0, y: 0), stored: stored)
            let origin = PixelPoint(x: p00.x - origin0.x, y: p00.y - origin0.y)
            guard origin.x >= 0, origin.y >= 0 else { continue }
            var ok = true
            outer: for y in 0..<image.height {
                for x in 0..<image.width {
                    let s = o.storedPixel(forUpright: PixelPoint(x: x, y: y), stored: stored)
                    let want = color(x: origin.x + s.x, y: origin.y + s.y)
                    let got = image.rgba(x: x, y: y)
                    if got.r != want.r || got.g != want.g || got.b != want.b || got.a != 255 {
                        ok = false
                        break outer
                    }
                }
            }
            if ok { return Trace(sourceRect: PixelRect(origin: origin, size: stored), orientation: o) }
        }
        return nil
    }
}

extension PixelSize {
    /// The stored size of an upright image of this size under `o`.
    package func swapsFor(_ o: Orientation) -> PixelSize { o.swapsAxes ? transposed : self }
}
