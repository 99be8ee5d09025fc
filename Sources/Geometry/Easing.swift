/// The standard timing curves, as cubic Béziers from (0,0) to (1,1) (CSS and Core
/// Animation use the same control points).
public enum Easing: String, CaseIterable, Sendable {
    case linear
    case easeIn = "ease-in"
    case easeOut = "ease-out"
    case easeInOut = "ease-in-out"

    /// The Bézier control points (x1, y1, x2, y2).
    public var controlPoints: (Double, Double, Double, Double) {
        switch self {
        case .linear: return (0, 0, 1, 1)
        case .easeIn: return (0.42, 0, 1, 1)
        case .easeOut: return (0, 0, 0.58, 1)
        case .easeInOut: return (0.42, 0, 0.58, 1)
        }
    }

    /// The eased progress at time fraction `t` (0...1): solve x(s) = t, return y(s).
    public func progress(_ t: Double) -> Double {
        // The ends are exact: a transition's last frame is exactly at its end state.
        if !(t > 0) { return 0 }
        if t >= 1 { return 1 }
        if self == .linear { return t }
        let (x1, y1, x2, y2) = controlPoints
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        // x(s) is monotonic for these curves: bisection converges without fail.
        var lo = 0.0
        var hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if bezier(mid, x1, x2) < t { lo = mid } else { hi = mid }
        }
        return bezier((lo + hi) / 2, y1, y2)
    }
}
