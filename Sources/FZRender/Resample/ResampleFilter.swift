/// A reconstruction kernel for resampling.
public enum ResampleFilter: String, CaseIterable, Sendable {
    /// Pixel replication: exact for whole magnifications.
    case nearest
    /// Triangle; area-correct box at large reductions comes from `box`.
    case bilinear
    /// Catmull-Rom cubic (sharp, interpolating: an integer-aligned 1:1 is an exact copy).
    case bicubic
    /// Lanczos, 3 lobes: the reference quality for reductions (Pillow, vips).
    case lanczos
    /// Box: each output pixel the exact area average of what it covers (reductions).
    case box

    /// Half-width of the kernel in source pixels at scale 1.
    public var support: Double {
        switch self {
        case .nearest, .box: return 0.5
        case .bilinear: return 1
        case .bicubic: return 2
        case .lanczos: return 3
        }
    }

    /// The kernel's value at distance `x`.
    public func weight(_ x: Double) -> Double {
        let t = abs(x)
        switch self {
        case .nearest, .box:
            return t < 0.5 ? 1 : (t == 0.5 ? 0.5 : 0)
        case .bilinear:
            return t < 1 ? 1 - t : 0
        case .bicubic:
            // Catmull-Rom (a = -0.5).
            if t < 1 { return (1.5 * t - 2.5) * t * t + 1 }
            if t < 2 { return ((-0.5 * t + 2.5) * t - 4) * t + 2 }
            return 0
        case .lanczos:
            if t == 0 { return 1 }
            if t >= 3 { return 0 }
            let px = Double.pi * t
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}

/// Per-output-pixel taps along one axis: which source pixels, with what weights.
///
/// Output pixel o's centre maps to source coordinate u = origin + (o + 0.5) * step. When
/// reducing (step > 1) the kernel is stretched by step, so every source pixel contributes
/// in proportion to its coverage: no aliasing. Taps past the edges are clamped onto the
/// edge pixels. Weights are normalised to sum to 1.
package struct AxisTaps {
    package let outputLength: Int
    package let sourceLength: Int
    package let origin: Double
    package let step: Double
    package let filter: ResampleFilter
    /// The most taps any output pixel has.
    package let maxTaps: Int
    /// Kernel half-width in source pixels (stretched when reducing).
    private let support: Double
    private let scale: Double

    package init(outputLength: Int, sourceLength: Int, origin: Double, step: Double, filter: ResampleFilter) {
        self.outputLength = outputLength
        self.sourceLength = sourceLength
        self.origin = origin
        self.step = step
        self.filter = filter
        scale = max(1, step)
        support = filter.support * scale
        maxTaps = filter == .nearest ? 1 : Int((2 * support).rounded(.up)) + 2
    }

    /// Output pixel `o`'s first source pixel, tap count, and its normalised weights
    /// written to `weights` (room for `maxTaps`).
    package func taps(_ o: Int, into weights: UnsafeMutablePointer<Float>) -> (first: Int, count: Int) {
        let u = origin + (Double(o) + 0.5) * step
        if filter == .nearest {
            weights[0] = 1
            return (min(max(Int(u.rounded(.down)), 0), sourceLength - 1), 1)
        }
        let lo = Int((u - support).rounded(.down))
        let hi = Int((u + support).rounded(.up))
        let clampedLo = min(max(lo, 0), sourceLength - 1)
        let clampedHi = min(max(hi, 0), sourceLength - 1)
        let n = min(clampedHi - clampedLo + 1, maxTaps)
        // Accumulate in Double: a stretched kernel can have thousands of small taps.
        var raw = [Double](repeating: 0, count: n)
        var sum = 0.0
        for k in lo...hi {
            let w = filter.weight((Double(k) + 0.5 - u) / scale)
            if w == 0 { continue }
            let j = min(max(k, 0), sourceLength - 1) - clampedLo
            if j >= 0 && j < n {
                raw[j] += w
                sum += w
            }
        }
        if sum == 0 {  // a window with no weight (cannot happen for these kernels)
            raw[0] = 1
            sum = 1
        }
        for j in 0..<n { weights[j] = Float(raw[j] / sum) }
        return (clampedLo, n)
    }

    /// Every output pixel's taps at once: `maxTaps` weights per output pixel. Used for the
    /// horizontal axis, whose weights every source row reuses; the vertical axis computes
    /// each output row's weights once, when it is made (so an extreme reduction never holds
    /// a table of outputs x taps).
    package func table() -> (first: [Int], count: [Int], weights: [Float]) {
        var first = [Int](repeating: 0, count: outputLength)
        var count = [Int](repeating: 0, count: outputLength)
        var weights = [Float](repeating: 0, count: outputLength * maxTaps)
        weights.withUnsafeMutableBufferPointer { w in
            for o in 0..<outputLength {
                (first[o], count[o]) = taps(o, into: w.baseAddress! + o * maxTaps)
            }
        }
        return (first, count, weights)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
