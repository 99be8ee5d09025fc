import FZImage
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// Traces a coords piece that is no longer exact — through JPEG or lossy WebP, or
/// resampled by a fraction (a non-integer zoom, a thumbnail) — by fitting the source
/// position each pixel still roughly names.
///
/// Why it works: every filter forcezoom and common resizers use (box, bilinear, bicubic,
/// Lanczos) reproduces a linear ramp, and R and G are ramps of x and y (mod 256), so the
/// value at output pixel centre (u + 0.5, v + 0.5) is the source position there, minus
/// half a pixel, plus the codec's noise. The fit:
/// 1. the slopes: trimmed means of the wrapped differences of R and G between neighbours;
/// 2. the offsets mod 256: the most common remainder, refined by a mean around it;
/// 3. the multiples of 256: the pair of B's nibbles (x/256, y/256) closest to B over
///    most pixels;
/// 4. least squares of x and y on (u, v) (an affine map), refitted three times without
///    the pixels more than 3 times the median residual away (at least 1 level): the
///    wraps at multiples of 256, which every filter blurs, and codec outliers.
/// The orientation is the one of the 8 closest to the fitted linear part; the window is
/// the output's edges mapped back. Fails (nil) when fewer than half the pixels fit within
/// `tolerance` pixels: not a coords piece, or too damaged.
public struct FittedTrace: Hashable, Sendable {
    /// How far (source pixels) a pixel may name a position from the fit and still count.
    /// 4: a thumbnail of a lossy WebP written as lossy WebP again (two codecs' 4:2:0 noise
    /// on R and G) leaves half its pixels within 2.3 and 52% within 2; a picture that is not
    /// a coords piece has under 1% of its pixels within 4.
    public static let tolerance = 4.0

    /// The source region the piece shows (upright output edges mapped to source pixels).
    public let window: Rect
    /// Output pixels per source pixel, along the output's x and y.
    public let scaleX: Double
    public let scaleY: Double
    public let orientation: Orientation
    /// The root mean square distance, in source pixels, of the kept pixels from the fit.
    public let residual: Double
    /// The share of the pixels kept in the fit.
    public let inliers: Double

    /// Fits `image` (RGB or RGBA; pixels not opaque are left out), nil when it does not fit.
    public static func fit(_ image: Image) -> FittedTrace? {
        guard !image.format.isGray, image.width >= 4, image.height >= 4 else { return nil }
        let samples = Samples(image)
        let w = samples.w
        let h = samples.h
        let opaque = samples.opaque
        // 1. Slopes along u and v.
        let sx = (u: samples.slope(samples.r, du: 1, dv: 0), v: samples.slope(samples.r, du: 0, dv: 1))
        let sy = (u: samples.slope(samples.g, du: 1, dv: 0), v: samples.slope(samples.g, du: 0, dv: 1))
        // 2. Offsets mod 256, then every pixel's value unwrapped next to the prediction.
        var xs = samples.unwrapped(samples.r, sx)
        var ys = samples.unwrapped(samples.g, sy)
        // 3. The multiples of 256 from B's nibbles.
        let best = samples.multiples(xs, ys)
        let (shiftX, shiftY) = (samples.period(xs, best.kx), samples.period(ys, best.ky))
        xs = xs.map { $0 + shiftX }
        ys = ys.map { $0 + shiftY }
        // 4. Least squares with outliers left out.
        guard let fit = samples.leastSquares(xs, ys) else { return nil }
        var (fx, fy) = (fit.fx, fit.fy)
        let keep = fit.keep
        // Crops, zooms, thumbnails and the eight orientations map axes onto axes: once the
        // orientation is known, x follows one output axis and y the other, and the cross
        // terms the codec's noise leaves (which would widen the window's bounding box) are 0.
        let orientation = nearestOrientation(fx, fy)
        if let ax = AffineFit(w: w, values: xs, keep: keep, along: orientation.swapsAxes ? 1 : 0),
            let ay = AffineFit(w: w, values: ys, keep: keep, along: orientation.swapsAxes ? 0 : 1)
        {
            (fx, fy) = (ax, ay)
        }
        let kept = keep.indices.filter { keep[$0] }
        var squares = 0.0
        var within = 0
        for i in 0..<(w * h) where opaque[i] {
            let (u, v) = (Double(i % w) + 0.5, Double(i / w) + 0.5)
            let e = hypot(xs[i] - fx.at(u, v), ys[i] - fy.at(u, v))
            if keep[i] { squares += e * e }
            if e <= Self.tolerance { within += 1 }
        }
        guard within * 2 >= w * h, !kept.isEmpty else { return nil }
        // Values name pixel centres: source position = value + 0.5.
        let corners = [(0.0, 0.0), (Double(w), 0.0), (0.0, Double(h)), (Double(w), Double(h))].map {
            (fx.at($0.0, $0.1) + 0.5, fy.at($0.0, $0.1) + 0.5)
        }
        let minX = corners.map(\.0).min()!
        let maxX = corners.map(\.0).max()!
        let minY = corners.map(\.1).min()!
        let maxY = corners.map(\.1).max()!
        return FittedTrace(
            window: Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY),
            scaleX: 1 / hypot(fx.a, fy.a), scaleY: 1 / hypot(fx.b, fy.b),
            orientation: orientation, residual: (squares / Double(kept.count)).squareRoot(),
            inliers: Double(kept.count) / Double(w * h))
    }

    /// The piece's channels as doubles, row-major, and which pixels are opaque: what each
    /// step of `fit` reads.
    private struct Samples {
        let w: Int
        let h: Int
        var r: [Double]
        var g: [Double]
        var b: [Double]
        var opaque: [Bool]

        init(_ image: Image) {
            w = image.width
            h = image.height
            r = [Double](repeating: 0, count: w * h)
            g = r
            b = r
            opaque = [Bool](repeating: false, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let c = image.rgba(x: x, y: y)
                    let i = y * w + x
                    (r[i], g[i], b[i], opaque[i]) = (Double(c.r), Double(c.g), Double(c.b), c.a == 255)
                }
            }
        }

        /// `d` brought into -128...128 (mod 256).
        static func wrap(_ d: Double) -> Double { d - 256 * (d / 256).rounded() }

        /// Step 1: the slope of `p` along (du, dv), the trimmed mean of the wrapped
        /// differences between opaque neighbours (those within 4 of their median).
        func slope(_ p: [Double], du: Int, dv: Int) -> Double {
            var d: [Double] = []
            for y in 0..<(h - dv) {
                for x in 0..<(w - du) where opaque[y * w + x] && opaque[(y + dv) * w + x + du] {
                    d.append(Self.wrap(p[(y + dv) * w + x + du] - p[y * w + x]))
                }
            }
            guard !d.isEmpty else { return 0 }
            let m = FittedTrace.median(d)
            let near = d.filter { abs($0 - m) <= 4 }
            return near.reduce(0, +) / Double(max(1, near.count))
        }

        /// Step 2: the offset of `p` mod 256 for slopes `s` (the most common remainder,
        /// refined by a mean around it), then every pixel's value unwrapped next to the
        /// prediction.
        func unwrapped(_ p: [Double], _ s: (u: Double, v: Double)) -> [Double] {
            var bins = [Int](repeating: 0, count: 256)
            var rest = [Double](repeating: 0, count: w * h)
            for i in 0..<(w * h) where opaque[i] {
                let pred = s.u * (Double(i % w) + 0.5) + s.v * (Double(i / w) + 0.5)
                var k = (p[i] - pred).truncatingRemainder(dividingBy: 256)
                if k < 0 { k += 256 }
                rest[i] = k
                bins[Int(k.rounded()) % 256] += 1
            }
            let mode = Double(bins.indices.max { bins[$0] < bins[$1] }!)
            let near = rest.indices.filter { opaque[$0] && abs(Self.wrap(rest[$0] - mode)) <= 8 }.map {
                Self.wrap(rest[$0] - mode)
            }
            let c = mode + near.reduce(0, +) / Double(max(1, near.count))
            return (0..<(w * h)).map { i in
                let pred = s.u * (Double(i % w) + 0.5) + s.v * (Double(i / w) + 0.5) + c
                return pred + Self.wrap(p[i] - pred)
            }
        }

        /// Step 3: the multiples of 256 (kx, ky) to add to `xs` and `ys`, the pair of B's
        /// nibbles closest to B. Scored by the summed distance (capped): neighbouring codes
        /// differ by 1 level. Over at most about 4096 pixels spread through the piece: 256
        /// candidates over a whole 600x400 thumbnail would be 61 million steps, and a few
        /// thousand decide as well.
        func multiples(_ xs: [Double], _ ys: [Double]) -> (kx: Int, ky: Int) {
            var best = (kx: 0, ky: 0, misses: Double.infinity)
            let sampled = Array(Swift.stride(from: 0, to: w * h, by: max(1, w * h / 4096))).filter { opaque[$0] }
            for kx in 0..<16 {
                for ky in 0..<16 {
                    var misses = 0.0
                    for i in sampled {
                        let x = Int((xs[i] + Double(256 * kx)).rounded())
                        let y = Int((ys[i] + Double(256 * ky)).rounded())
                        let want = Double(((x >> 8) & 15) << 4 | ((y >> 8) & 15))
                        misses += min(abs(want - b[i]), 8)
                    }
                    if misses < best.misses { best = (kx, ky, misses) }
                }
            }
            return (best.kx, best.ky)
        }

        /// The shift that adds `k` multiples of 256 to `values`. The code repeats every 4096
        /// pixels: a piece at the left or top edge whose values come out a hair below 0 is
        /// at 4095.9 by the nibbles; moved back next to 0.
        func period(_ values: [Double], _ k: Int) -> Double {
            let kept = values.indices.filter { opaque[$0] }
            let mean = kept.reduce(0.0) { $0 + values[$1] } / Double(max(1, kept.count)) + Double(256 * k)
            return Double(256 * k) - 4096 * (mean / 4096).rounded(.down)
        }

        /// Step 4: least squares of x and y on (u, v), refitted three times without the
        /// pixels more than 3 times the median residual away (at least 1 level): the fits
        /// and the pixels kept, nil when a fit has too few pixels.
        func leastSquares(_ xs: [Double], _ ys: [Double]) -> (fx: AffineFit, fy: AffineFit, keep: [Bool])? {
            var keep = opaque
            var fx = AffineFit()
            var fy = AffineFit()
            for _ in 0..<4 {
                guard let ax = AffineFit(w: w, values: xs, keep: keep), let ay = AffineFit(w: w, values: ys, keep: keep)
                else { return nil }
                (fx, fy) = (ax, ay)
                var d = [Double](repeating: .infinity, count: w * h)
                for i in 0..<(w * h) where opaque[i] {
                    let (u, v) = (Double(i % w) + 0.5, Double(i / w) + 0.5)
                    d[i] = hypot(xs[i] - fx.at(u, v), ys[i] - fy.at(u, v))
                }
                let limit = max(1, 3 * FittedTrace.median(d.filter { $0.isFinite }))
                keep = d.map { $0 <= limit }
            }
            return (fx, fy, keep)
        }
    }

    /// The orientation whose steps (an upright step right, down: which stored step) are
    /// closest in sign to the fitted map's.
    package static func nearestOrientation(_ fx: AffineFit, _ fy: AffineFit) -> Orientation {
        let stored = PixelSize(width: 100, height: 100)
        func steps(_ o: Orientation) -> [Double] {
            let p0 = o.storedPixel(forUpright: PixelPoint(x: 10, y: 10), stored: stored)
            let pu = o.storedPixel(forUpright: PixelPoint(x: 11, y: 10), stored: stored)
            let pv = o.storedPixel(forUpright: PixelPoint(x: 10, y: 11), stored: stored)
            return [Double(pu.x - p0.x), Double(pv.x - p0.x), Double(pu.y - p0.y), Double(pv.y - p0.y)]
        }
        let fitted = [fx.a, fx.b, fy.a, fy.b]
        return Orientation.allCases.max { a, b in
            zip(steps(a), fitted).map { $0 * $1 }.reduce(0, +) < zip(steps(b), fitted).map { $0 * $1 }.reduce(0, +)
        }!
    }

    package static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

/// value = a u + b v + c over the kept pixels (u, v: pixel centres), by least squares.
package struct AffineFit: Hashable, Sendable {
    package var a = 0.0, b = 0.0, c = 0.0

    package init() {}

    /// nil when the kept pixels do not determine the plane.
    package init?(w: Int, values: [Double], keep: [Bool]) {
        var m = [Double](repeating: 0, count: 9)
        var t = [Double](repeating: 0, count: 3)
        for i in values.indices where keep[i] {
            let row = [Double(i % w) + 0.5, Double(i / w) + 0.5, 1]
            for j in 0..<3 {
                for k in 0..<3 { m[j * 3 + k] += row[j] * row[k] }
                t[j] += row[j] * values[i]
            }
        }
        // Cramer's rule on the 3x3 normal equations.
        func det(_ q: [Double]) -> Double {
            q[0] * (q[4] * q[8] - q[5] * q[7]) - q[1] * (q[3] * q[8] - q[5] * q[6]) + q[2] * (q[3] * q[7] - q[4] * q[6])
        }
        let d = det(m)
        guard abs(d) > 1e-9 else { return nil }
        func replaced(_ col: Int) -> [Double] {
            var q = m
            for j in 0..<3 { q[j * 3 + col] = t[j] }
            return q
        }
        (a, b, c) = (det(replaced(0)) / d, det(replaced(1)) / d, det(replaced(2)) / d)
    }

    /// value = a u + c (`along` 0) or b v + c (`along` 1): the other slope held at 0.
    package init?(w: Int, values: [Double], keep: [Bool], along: Int) {
        var n = 0.0
        var st = 0.0
        var stt = 0.0
        var sv = 0.0
        var stv = 0.0
        for i in values.indices where keep[i] {
            let t = along == 0 ? Double(i % w) + 0.5 : Double(i / w) + 0.5
            n += 1
            st += t
            stt += t * t
            sv += values[i]
            stv += t * values[i]
        }
        let d = n * stt - st * st
        guard abs(d) > 1e-9 else { return nil }
        let slope = (n * stv - st * sv) / d
        (a, b, c) = along == 0 ? (slope, 0, (sv - slope * st) / n) : (0, slope, (sv - slope * st) / n)
    }

    package func at(_ u: Double, _ v: Double) -> Double { a * u + b * v + c }
}
