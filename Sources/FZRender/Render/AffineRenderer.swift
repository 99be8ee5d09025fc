// Length: over 300 lines on purpose: the warp's fixed-point kernels, tiles and unrolled bilinear
// interior are one hot loop, kept together so their integer sums read against each other.

import FZImage
import FZSystem
import Geometry

/// Warps an image by a general affine transform onto a canvas: each output pixel's centre
/// is mapped back into the image and sampled with the chosen kernel, premultiplied, with
/// the background standing in for everything outside the image (so edges are smooth).
/// Reductions are prefiltered by the caller (see `prefilterScale`), so no aliasing.
///
/// How it is fast without `-Ounchecked`: the canvas is cut into bands of rows (one job
/// each on the `WorkerPool`), bands into 64x32 tiles (a rotation then reads a small patch
/// of the source at a time). Along each row of a tile the source position is a start plus
/// a constant step, in 32.32 fixed point; its fraction picks a row of `WarpKernel`'s
/// 1/1024-phase weight table, and pixels are summed with integer multiply-adds. Per row the
/// span whose taps are all inside the image is solved exactly, so that span runs through
/// raw pointers with no bounds checks at all; only the pixels outside it take the careful
/// path that checks each tap and blends the background in.
public enum AffineRenderer {
    /// How far the image should be reduced before warping so the warp itself never
    /// shrinks by more than 2x along an axis (beyond that a point-sampling kernel aliases).
    public static func prefilterScale(for t: AffineTransform) -> Double {
        let s = t.axisScales
        return min(1, 2 * max(s.x, s.y)) < 1 ? 2 * max(s.x, s.y) : 1
    }

    /// Output tile: columns by rows. A band (one job) is one row of tiles.
    package static let tileWidth = 64
    package static let tileHeight = 32

    /// - Parameters:
    ///   - image: the source, upright.
    ///   - transform: image coordinates to canvas coordinates.
    ///   - canvas: output size.
    ///   - background: what shows where the image is not.
    ///   - filter: the kernel (nearest, bilinear, bicubic, lanczos).
    ///   - threads: bands rendered at once (`Threads.perImage` by default; 1: serial; small
    ///     canvases, such as a pin's patch, are always serial). The output is the same for any count.
    public static func render(
        _ image: Image, transform: AffineTransform, canvas: PixelSize, background: Color,
        filter: ResampleFilter, threads: Int = Threads.perImage
    ) -> Image {
        let format = image.format.union(background.minimalFormat)
        let src = image.converted(to: format)
        guard let inverse = transform.inverted, canvas.width > 0, canvas.height > 0 else {
            return Image(width: max(canvas.width, 1), height: max(canvas.height, 1), format: format, fill: background)
        }
        guard src.width > 0, src.height > 0 else {
            return Image(width: canvas.width, height: canvas.height, format: format, fill: background)
        }
        switch format {
        case .gray: return run(WarpGray.self, src, inverse, canvas, background, filter, threads)
        case .grayAlpha: return run(WarpGrayAlpha.self, src, inverse, canvas, background, filter, threads)
        case .rgb: return run(WarpRGB.self, src, inverse, canvas, background, filter, threads)
        case .rgba: return run(WarpRGBA.self, src, inverse, canvas, background, filter, threads)
        }
    }

    private static func run<L: WarpLayout>(
        _: L.Type, _ src: Image, _ inverse: AffineTransform, _ canvas: PixelSize,
        _ background: Color, _ filter: ResampleFilter, _ threads: Int
    ) -> Image {
        let kernel = WarpKernel(filter)
        let count = canvas.width * canvas.height * L.channels
        let bands = (canvas.height + tileHeight - 1) / tileHeight
        let bg = background.bytes(in: src.format)
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            src.pixels.withUnsafeBufferPointer { sp in
                kernel.weights.withUnsafeBufferPointer { wp in
                    let job = WarpJob<L>(
                        source: sp.baseAddress!, width: src.width, height: src.height,
                        output: out.baseAddress!, canvas: canvas, inverse: inverse,
                        weights: wp.baseAddress!, taps: kernel.taps, nearest: filter == .nearest,
                        background: bg)
                    if threads <= 1 || bands <= 1 || count < 1 << 16 {
                        for band in 0..<bands { job.render(band: band) }
                    } else {
                        WorkerPool<Bool>.run(
                            count: bands, threads: threads,
                            work: {
                                job.render(band: $0)
                                return true
                            },
                            onResult: { _, _ in }, onTick: { true })
                    }
                }
            }
            initialized = count  // every pixel of every band is written
        }
        return Image(width: canvas.width, height: canvas.height, format: src.format, pixels: pixels)
    }
}

// MARK: - Pixel layouts

/// A pixel format as types, so each format gets its own specialised inner loop.
package protocol WarpLayout: Sendable {
    static var channels: Int { get }
    static var alpha: Bool { get }
}

enum WarpGray: WarpLayout {
    static var channels: Int { 1 }
    static var alpha: Bool { false }
}

enum WarpGrayAlpha: WarpLayout {
    static var channels: Int { 2 }
    static var alpha: Bool { true }
}

enum WarpRGB: WarpLayout {
    static var channels: Int { 3 }
    static var alpha: Bool { false }
}

enum WarpRGBA: WarpLayout {
    static var channels: Int { 4 }
    static var alpha: Bool { true }
}

/// Four channel sums (alpha formats: premultiplied colour sums, then the alpha sum last).
struct WarpSums {
    var s0 = 0, s1 = 0, s2 = 0, s3 = 0
}

// MARK: - The job

extension AffineRenderer {
    /// Everything a band needs: raw pointers to the source, the output, the weights.
    /// Bands write disjoint rows of the output.
    package final class WarpJob<L: WarpLayout>: @unchecked Sendable {
        /// 32.32 fixed point.
        static var fracBits: Int { 32 }
        static var unit: Int { 1 << 32 }
        /// Positions beyond this many pixels are clamped (far outside any image).
        static var limit: Double { 536_870_912 }  // 2^29

        let src: UnsafePointer<UInt8>
        let sw: Int, sh: Int
        let out: UnsafeMutablePointer<UInt8>
        let cw: Int, ch: Int
        let inverse: AffineTransform
        let weights: UnsafePointer<Int32>
        let taps: Int
        let nearest: Bool
        /// The background as bytes, and premultiplied as the sums take it.
        let bg: (UInt8, UInt8, UInt8, UInt8)
        let bgSums: WarpSums
        /// Fixed-point steps along a row, when the steps are sane (else every pixel is mapped on its own).
        let du: Int, dv: Int, linear: Bool

        init(
            source: UnsafePointer<UInt8>, width: Int, height: Int, output: UnsafeMutablePointer<UInt8>,
            canvas: PixelSize, inverse: AffineTransform, weights: UnsafePointer<Int32>, taps: Int, nearest: Bool,
            background: [UInt8]
        ) {
            (src, sw, sh, out, cw, ch) = (source, width, height, output, canvas.width, canvas.height)
            (self.inverse, self.weights, self.taps, self.nearest) = (inverse, weights, taps, nearest)
            let b = background + [0, 0, 0, 0]
            bg = (b[0], b[1], b[2], b[3])
            var s = WarpSums()
            if L.alpha {
                let a = Int(b[L.channels - 1])
                s.s0 = Int(b[0]) * a
                if L.channels == 4 {
                    s.s1 = Int(b[1]) * a
                    s.s2 = Int(b[2]) * a
                    s.s3 = a
                } else {
                    s.s1 = a
                }
            } else {
                (s.s0, s.s1, s.s2) = (Int(b[0]), Int(b[1]), Int(b[2]))
            }
            bgSums = s
            linear = abs(inverse.a) < 1_048_576 && abs(inverse.b) < 1_048_576
            du = linear ? Self.fixed(inverse.a) : 0
            dv = linear ? Self.fixed(inverse.b) : 0
        }

        static func fixed(_ v: Double) -> Int { Int((v * 4_294_967_296).rounded()) }

        /// A position snapped as the per-pixel renderer did: sub-1e-9 residues of whole
        /// numbers go, so quarter turns and whole-pixel shifts stay exact.
        static func snapped(_ v: Double) -> Double {
            let r = v.rounded()
            return abs(v - r) < 1e-9 ? r : v
        }

        func render(band: Int) {
            let y0 = band * AffineRenderer.tileHeight
            let y1 = min(ch, y0 + AffineRenderer.tileHeight)
            var x0 = 0
            while x0 < cw {
                let x1 = min(cw, x0 + AffineRenderer.tileWidth)
                for y in y0..<y1 { segment(y: y, from: x0, to: x1) }
                x0 = x1
            }
        }

        /// Output pixels x0..<x1 of row y.
        func segment(y: Int, from x0: Int, to x1: Int) {
            let cy = Double(y) + 0.5
            let cx = Double(x0) + 0.5
            let n = x1 - x0
            let u = inverse.a * cx + inverse.c * cy + inverse.tx
            let v = inverse.b * cx + inverse.d * cy + inverse.ty
            let uEnd = u + inverse.a * Double(n - 1)
            let vEnd = v + inverse.b * Double(n - 1)
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let C = L.channels
            let o = out + (y * cw + x0) * C
            if nearest {
                // Each pixel mapped on its own, as before: floor of the snapped position,
                // so nearest picks exactly the pixels it always did.
                for k in 0..<n {
                    let px = Double(x0 + k) + 0.5
                    let pu = Self.snapped(inverse.a * px + inverse.c * cy + inverse.tx)
                    let pv = Self.snapped(inverse.b * px + inverse.d * cy + inverse.ty)
                    if pu >= 0 && pv >= 0 && pu < Double(sw) && pv < Double(sh) {
                        // Non-negative: truncation is the floor.
                        let p = src + (Int(pv) &* sw &+ Int(pu)) &* C
                        for j in 0..<C { o[k * C + j] = p[j] }
                    } else {
                        fillBackground(o + k * C)
                    }
                }
                return
            }
            guard linear, max(abs(u), abs(v), abs(uEnd), abs(vEnd)) < Self.limit else {
                // Wild positions: map each pixel by itself, clamped far outside the image.
                for k in 0..<n {
                    let px = Double(x0 + k) + 0.5
                    let pu = min(Self.limit, max(-Self.limit, inverse.a * px + inverse.c * cy + inverse.tx))
                    let pv = min(Self.limit, max(-Self.limit, inverse.b * px + inverse.d * cy + inverse.ty))
                    edgePixel(Self.fixed(Self.snapped(pu)), Self.fixed(Self.snapped(pv)), o + k * C)
                }
                return
            }
            let uf = Self.fixed(Self.snapped(u))
            let vf = Self.fixed(Self.snapped(v))
            // The span whose taps are all inside: a kernel reads i - taps/2 + 1 ... i + taps/2
            // with i = floor(u - 0.5).
            let unit = Self.unit
            let s = taps / 2
            let (lo, hiX, hiY, shift) = (s - 1, sw - 1 - s, sh - 1 - s, unit / 2)
            var (a, b) = (0, 0)
            if hiX >= lo && hiY >= lo {
                let sx = Self.span(uf - shift, du, lo: lo * unit, hi: (hiX + 1) * unit, n: n)
                let sy = Self.span(vf - shift, dv, lo: lo * unit, hi: (hiY + 1) * unit, n: n)
                (a, b) = (max(sx.0, sy.0), min(sx.1, sy.1))
                if a >= b { (a, b) = (0, 0) }
            }
            for k in 0..<a { edgePixel(uf &+ k &* du, vf &+ k &* dv, o + k * C) }
            if taps == 2 {
                for k in a..<b { bilinearPixel(uf &+ k &* du, vf &+ k &* dv, o + k * C) }
            } else {
                for k in a..<b { interiorPixel(uf &+ k &* du, vf &+ k &* dv, o + k * C) }
            }
            for k in b..<n { edgePixel(uf &+ k &* du, vf &+ k &* dv, o + k * C) }
        }

        /// The k in 0..<n with lo <= x0 + k * d < hi, as a half-open range (empty: a >= b).
        static func span(_ x0: Int, _ d: Int, lo: Int, hi: Int, n: Int) -> (Int, Int) {
            func floorDiv(_ p: Int, _ q: Int) -> Int { p >= 0 ? p / q : -((-p + q - 1) / q) }
            func ceilDiv(_ p: Int, _ q: Int) -> Int { -floorDiv(-p, q) }
            var a: Int
            var b: Int
            if d == 0 {
                (a, b) = lo <= x0 && x0 < hi ? (0, n) : (0, 0)
            } else if d > 0 {
                (a, b) = (ceilDiv(lo - x0, d), floorDiv(hi - 1 - x0, d) + 1)
            } else {
                (a, b) = (ceilDiv(x0 - hi + 1, -d), floorDiv(x0 - lo, -d) + 1)
            }
            a = max(0, a)
            b = min(n, b)
            return a < b ? (a, b) : (0, 0)
        }

        // MARK: Pixels

        /// A kernel's taps, all inside: no checks.
        @inline(__always)
        func interiorPixel(_ u: Int, _ v: Int, _ o: UnsafeMutablePointer<UInt8>) {
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let C = L.channels
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let T = taps
            let fu = u &- Self.unit / 2
            let fv = v &- Self.unit / 2
            let xs = (fu >> 32) &- (T / 2 - 1)
            let ys = (fv >> 32) &- (T / 2 - 1)
            let wx = weights + Self.phase(fu) &* T
            let wy = weights + Self.phase(fv) &* T
            var row = src + (ys &* sw &+ xs) &* C
            let stride = sw &* C
            var sums = WarpSums()
            for ky in 0..<T {
                var r = WarpSums()
                var p = row
                for kx in 0..<T {
                    Self.add(p, Int(wx[kx]), &r)
                    p += C
                }
                Self.add(r, Int(wy[ky]), &sums)
                row += stride
            }
            Self.store(sums, o)
        }

        /// `interiorPixel` for two taps (bilinear), unrolled: the same sums in the same order.
        @inline(__always)
        func bilinearPixel(_ u: Int, _ v: Int, _ o: UnsafeMutablePointer<UInt8>) {
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let C = L.channels
            let fu = u &- Self.unit / 2
            let fv = v &- Self.unit / 2
            let wx = weights + Self.phase(fu) &* 2
            let wy = weights + Self.phase(fv) &* 2
            let p = src + ((fv >> 32) &* sw &+ (fu >> 32)) &* C
            let q = p + sw &* C
            let x0 = Int(wx[0])
            let x1 = Int(wx[1])
            var top = WarpSums()
            var bottom = WarpSums()
            var sums = WarpSums()
            Self.add(p, x0, &top)
            Self.add(p + C, x1, &top)
            Self.add(q, x0, &bottom)
            Self.add(q + C, x1, &bottom)
            Self.add(top, Int(wy[0]), &sums)
            Self.add(bottom, Int(wy[1]), &sums)
            Self.store(sums, o)
        }

        /// Any pixel: taps outside the image take the background.
        func edgePixel(_ u: Int, _ v: Int, _ o: UnsafeMutablePointer<UInt8>) {
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let C = L.channels
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let T = taps
            let fu = u &- Self.unit / 2
            let fv = v &- Self.unit / 2
            let xs = (fu >> 32) &- (T / 2 - 1)
            let ys = (fv >> 32) &- (T / 2 - 1)
            if xs + T <= 0 || ys + T <= 0 || xs >= sw || ys >= sh {
                fillBackground(o)  // no tap reaches the image
                return
            }
            let wx = weights + Self.phase(fu) &* T
            let wy = weights + Self.phase(fv) &* T
            var sums = WarpSums()
            for ky in 0..<T {
                let y = ys + ky
                var r = WarpSums()
                for kx in 0..<T {
                    let x = xs + kx
                    let w = Int(wx[kx])
                    if x < 0 || y < 0 || x >= sw || y >= sh {
                        Self.add(bgSums, w, &r)
                    } else {
                        Self.add(src + (y * sw + x) * C, w, &r)
                    }
                }
                Self.add(r, Int(wy[ky]), &sums)
            }
            Self.store(sums, o)
        }

        @inline(__always)
        func fillBackground(_ o: UnsafeMutablePointer<UInt8>) {
            o[0] = bg.0
            if L.channels > 1 { o[1] = bg.1 }
            if L.channels > 2 { o[2] = bg.2 }
            if L.channels > 3 { o[3] = bg.3 }
        }

        /// The weight-table row of a position's fraction (0...1024).
        @inline(__always)
        static func phase(_ f: Int) -> Int {
            ((f & (unit - 1)) &+ (1 << (fracBits - WarpKernel.phaseBits - 1))) >> (fracBits - WarpKernel.phaseBits)
        }

        /// Adds a source pixel, weighted (premultiplied when there is alpha).
        @inline(__always)
        static func add(_ p: UnsafePointer<UInt8>, _ w: Int, _ r: inout WarpSums) {
            if L.alpha {
                let wa = w &* Int(p[L.channels - 1])
                r.s0 &+= wa &* Int(p[0])
                if L.channels == 4 {
                    r.s1 &+= wa &* Int(p[1])
                    r.s2 &+= wa &* Int(p[2])
                    r.s3 &+= wa
                } else {
                    r.s1 &+= wa
                }
            } else {
                r.s0 &+= w &* Int(p[0])
                if L.channels == 3 {
                    r.s1 &+= w &* Int(p[1])
                    r.s2 &+= w &* Int(p[2])
                }
            }
        }

        /// Adds weighted sums (a row's, or the background's).
        @inline(__always)
        static func add(_ s: WarpSums, _ w: Int, _ r: inout WarpSums) {
            r.s0 &+= s.s0 &* w
            if L.channels > 1 { r.s1 &+= s.s1 &* w }
            if L.channels > 2 { r.s2 &+= s.s2 &* w }
            if L.channels > 3 { r.s3 &+= s.s3 &* w }
        }

        /// Sums (scaled by one^2) to bytes; alpha formats unpremultiply.
        @inline(__always)
        static func store(_ s: WarpSums, _ o: UnsafeMutablePointer<UInt8>) {
            let half = 1 << (2 * WarpKernel.weightBits - 1)
            let bits = 2 * WarpKernel.weightBits
            @inline(__always) func byte(_ v: Int) -> UInt8 {
                let r = (v &+ half) >> bits
                return r <= 0 ? 0 : (r >= 255 ? 255 : UInt8(truncatingIfNeeded: r))
            }
            @inline(__always) func ratio(_ v: Int, _ inv: Double) -> UInt8 {
                let r = Double(v) * inv + 0.5
                return r <= 0 ? 0 : (r >= 255 ? 255 : UInt8(r))
            }
            if L.alpha {
                let a = L.channels == 4 ? s.s3 : s.s1
                let inv = a > 0 ? 1 / Double(a) : 0
                o[0] = ratio(s.s0, inv)
                if L.channels == 4 {
                    o[1] = ratio(s.s1, inv)
                    o[2] = ratio(s.s2, inv)
                    o[3] = byte(a)
                } else {
                    o[1] = byte(a)
                }
            } else {
                o[0] = byte(s.s0)
                if L.channels == 3 {
                    o[1] = byte(s.s1)
                    o[2] = byte(s.s2)
                }
            }
        }
    }
}
