#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 2D affine transform in CoreGraphics' convention, y pointing down (as UIKit draws):
/// (x, y) -> (a x + c y + tx, b x + d y + ty). A positive rotation turns content
/// clockwise as seen on screen.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `degrees`, clockwise on screen. Multiples of 90 are exact (no
    /// 6e-17 residue from sin/cos), so quarter turns stay pixel-exact.
    public static func rotation(degrees: Double) -> AffineTransform {
        let q = degrees / 90
        let (s, cs): (Double, Double)
        if q == q.rounded() && q.isFinite {
            // The remainder first: q may be past Int's range.
            switch ((Int(q.truncatingRemainder(dividingBy: 4)) % 4) + 4) % 4 {
            case 0: (s, cs) = (0, 1)
            case 1: (s, cs) = (1, 0)
            case 2: (s, cs) = (0, -1)
            default: (s, cs) = (-1, 0)
            }
        } else {
            let r = degrees * Double.pi / 180
            (s, cs) = (sin(r), cos(r))
        }
        return AffineTransform(a: cs, b: s, c: -s, d: cs, tx: 0, ty: 0)
    }

    /// A shear: x += dx * y, y += dy * x.
    public static func skew(_ dx: Double, _ dy: Double) -> AffineTransform {
        AffineTransform(a: 1, b: dy, c: dx, d: 1, tx: 0, ty: 0)
    }

    /// `self` applied first, then `next`.
    public func then(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * next.a + b * next.c, b: a * next.b + b * next.d,
            c: c * next.a + d * next.c, d: c * next.b + d * next.d,
            tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    public var determinant: Double { a * d - b * c }

    /// The inverse; nil when the transform collapses the plane.
    public var inverted: AffineTransform? {
        let det = determinant
        guard abs(det) > 1e-12 else { return nil }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// How much the transform stretches lengths along the image's x and y axes.
    public var axisScales: (x: Double, y: Double) { ((a * a + b * b).squareRoot(), (c * c + d * d).squareRoot()) }

    /// The bounding box of a rectangle after the transform.
    public func boundingBox(of r: Rect) -> Rect {
        let pts = [
            apply(x: r.x, y: r.y), apply(x: r.maxX, y: r.y), apply(x: r.x, y: r.maxY), apply(x: r.maxX, y: r.maxY),
        ]
        let xs = pts.map(\.x)
        let ys = pts.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}
