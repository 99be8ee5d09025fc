import FZImage

/// mapbox/pixelmatch's comparison, as its Python port (`pixelmatch` 0.4.0 on PyPI) computes
/// it, so the counts and the picture can be checked against it:
/// - each pixel's colour difference is the YIQ distance of Kotsarenko and Ramos,
///   `0.5053 dY^2 + 0.299 dI^2 + 0.1957 dQ^2`, a translucent pixel first blended onto white;
///   it differs when that is over `35215 x threshold^2` (35215: the largest distance;
///   threshold 0.1 by default);
/// - a differing pixel is anti-aliasing, and not counted unless `includeAA`, when either
///   image's pixel looks like it (Vysniauskas 2009): among its 8 neighbours no more than 2
///   of equal brightness, both a darker and a brighter one, and the darkest or the
///   brightest has 3 or more equal neighbours in both images;
/// - the picture: differing pixels red (255, 0, 0), anti-aliased ones yellow (255, 255, 0),
///   the rest the first image's brightness faded to white at alpha 0.1
///   (`255 + (Y - 255) x 0.1 x A / 255`, truncated).
/// The floating-point steps are the port's, in the same order, so boundary cases agree.
public enum Pixelmatch {
    public struct Result: Equatable, Sendable {
        /// Pixels over the threshold that are not anti-aliasing (all of them with includeAA).
        public var different: Int
        /// Pixels over the threshold taken as anti-aliasing (0 with includeAA).
        public var antialiased: Int
    }

    /// pixelmatch's default threshold.
    public static let defaultThreshold = 0.1
    /// The largest YIQ distance.
    static let largestDelta = 35215.0
    /// The opacity of the first image in the picture.
    static let fade = 0.1

    /// Compares `a` and `b` (same size and format, RGB or RGBA).
    /// - Parameter draw: whether to return pixelmatch's picture (RGB; pixelmatch's alpha
    ///   is 255 everywhere).
    public static func compare(
        _ a: Image, _ b: Image, threshold: Double = defaultThreshold, includeAA: Bool = false, draw: Bool = false
    ) -> (Result, Image?) {
        precondition(a.size == b.size && a.format == b.format, "compared images differ in size or format")
        precondition(a.format == .rgb || a.format == .rgba, "compare RGB or RGBA")
        let (w, h, c) = (a.width, a.height, a.format.channels)
        var out = draw ? [UInt8](repeating: 0, count: w * h * 3) : []
        let maxDelta = largestDelta * threshold * threshold
        var result = Result(different: 0, antialiased: 0)
        let identical = a.pixels == b.pixels
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                let one = Pixels(data: p, width: w, height: h, channels: c)
                let two = Pixels(data: q, width: w, height: h, channels: c)
                for y in 0..<h {
                    for x in 0..<w {
                        let n = y * w + x
                        let delta = identical ? 0 : one.delta(n * c, two, n * c, brightnessOnly: false)
                        var colour: (UInt8, UInt8, UInt8)?
                        if delta > maxDelta {
                            if !includeAA && (one.antialiased(x, y, other: two) || two.antialiased(x, y, other: one)) {
                                result.antialiased += 1
                                colour = (255, 255, 0)
                            } else {
                                result.different += 1
                                colour = (255, 0, 0)
                            }
                        }
                        guard draw else { continue }
                        let rgb = colour ?? one.faded(n * c)
                        out[n * 3] = rgb.0
                        out[n * 3 + 1] = rgb.1
                        out[n * 3 + 2] = rgb.2
                    }
                }
            }
        }
        return (result, draw ? Image(width: w, height: h, format: .rgb, pixels: out) : nil)
    }

    /// One image's samples and the port's per-pixel functions over them.
    struct Pixels {
        let data: UnsafeBufferPointer<UInt8>
        let width: Int
        let height: Int
        let channels: Int

        @inline(__always) func alpha(_ i: Int) -> UInt8 { channels == 4 ? data[i + 3] : 255 }

        /// `color_delta`: the YIQ distance of the pixels at `i` here and `j` in `other`, or
        /// with `brightnessOnly` the signed brightness difference (`y_only`).
        @inline(__always)
        func delta(_ i: Int, _ other: Pixels, _ j: Int, brightnessOnly: Bool) -> Double {
            let a1 = alpha(i)
            let a2 = other.alpha(j)
            if a1 == a2 && data[i] == other.data[j] && data[i + 1] == other.data[j + 1]
                && data[i + 2] == other.data[j + 2]
            {
                return 0
            }
            var (r1, g1, b1) = (Double(data[i]), Double(data[i + 1]), Double(data[i + 2]))
            var (r2, g2, b2) = (Double(other.data[j]), Double(other.data[j + 1]), Double(other.data[j + 2]))
            if a1 < 255 {
                let a = Double(a1) / 255
                (r1, g1, b1) = (Self.blend(r1, a), Self.blend(g1, a), Self.blend(b1, a))
            }
            if a2 < 255 {
                let a = Double(a2) / 255
                (r2, g2, b2) = (Self.blend(r2, a), Self.blend(g2, a), Self.blend(b2, a))
            }
            let y = Self.luma(r1, g1, b1) - Self.luma(r2, g2, b2)
            if brightnessOnly { return y }
            let ci = Self.inPhase(r1, g1, b1) - Self.inPhase(r2, g2, b2)
            let cq = Self.quadrature(r1, g1, b1) - Self.quadrature(r2, g2, b2)
            // Left to right, as Python evaluates it.
            let dy = 0.5053 * y * y
            let di = 0.299 * ci * ci
            let dq = 0.1957 * cq * cq
            return dy + di + dq
        }

        /// `antialiased`: whether the pixel at (x1, y1) looks like anti-aliasing, `other`
        /// being the other image. The neighbours go column by column, as the port's loops.
        func antialiased(_ x1: Int, _ y1: Int, other: Pixels) -> Bool {
            let (x0, y0) = (max(x1 - 1, 0), max(y1 - 1, 0))
            let (x2, y2) = (min(x1 + 1, width - 1), min(y1 + 1, height - 1))
            let pos = (y1 * width + x1) * channels
            var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
            var (minDelta, maxDelta) = (0.0, 0.0)
            var (minX, minY, maxX, maxY) = (0, 0, 0, 0)
            for x in x0...x2 {
                for y in y0...y2 where x != x1 || y != y1 {
                    let delta = self.delta(pos, self, (y * width + x) * channels, brightnessOnly: true)
                    if delta == 0 {
                        zeroes += 1
                        if zeroes > 2 { return false }
                    } else if delta < minDelta {
                        (minDelta, minX, minY) = (delta, x, y)
                    } else if delta > maxDelta {
                        (maxDelta, maxX, maxY) = (delta, x, y)
                    }
                }
            }
            if minDelta == 0 || maxDelta == 0 { return false }
            return (hasManySiblings(minX, minY) && other.hasManySiblings(minX, minY))
                || (hasManySiblings(maxX, maxY) && other.hasManySiblings(maxX, maxY))
        }

        /// `has_many_siblings`: 3 or more neighbours with exactly the same samples (the
        /// image's edge counts as one).
        func hasManySiblings(_ x1: Int, _ y1: Int) -> Bool {
            let (x0, y0) = (max(x1 - 1, 0), max(y1 - 1, 0))
            let (x2, y2) = (min(x1 + 1, width - 1), min(y1 + 1, height - 1))
            let pos = (y1 * width + x1) * channels
            var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
            for x in x0...x2 {
                for y in y0...y2 where x != x1 || y != y1 {
                    let other = (y * width + x) * channels
                    var same = true
                    for k in 0..<channels where data[pos + k] != data[other + k] { same = false }
                    if same { zeroes += 1 }
                    if zeroes > 2 { return true }
                }
            }
            return false
        }

        /// `draw_gray_pixel`: the brightness of the pixel at `i` faded towards white.
        func faded(_ i: Int) -> (UInt8, UInt8, UInt8) {
            let y = Self.luma(Double(data[i]), Double(data[i + 1]), Double(data[i + 2]))
            let value = Self.blend(y, Pixelmatch.fade * Double(alpha(i)) / 255)
            let v = UInt8(max(0, min(255, value.rounded(.towardZero))))
            return (v, v, v)
        }

        @inline(__always) static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }
        @inline(__always) static func luma(_ r: Double, _ g: Double, _ b: Double) -> Double {
            r * 0.29889531 + g * 0.58662247 + b * 0.11448223
        }
        @inline(__always) static func inPhase(_ r: Double, _ g: Double, _ b: Double) -> Double {
            r * 0.59597799 - g * 0.27417610 - b * 0.32180189
        }
        @inline(__always) static func quadrature(_ r: Double, _ g: Double, _ b: Double) -> Double {
            r * 0.21147017 - g * 0.52261711 + b * 0.31114694
        }
    }
}
