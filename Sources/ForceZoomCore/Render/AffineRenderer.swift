/// Warps an image by a general affine transform onto a canvas: each output pixel's centre
/// is mapped back into the image and sampled with the chosen kernel, premultiplied, with
/// the background standing in for everything outside the image (so edges are smooth).
/// Reductions are prefiltered by the caller (see `prefilterScale`), so no aliasing.
///
/// Fast by construction, without `-Ounchecked`: rows are split into bands rendered on the
/// worker pool; along a row the source position advances by the inverse matrix's first
/// column (no matrix product per pixel); bilinear, the default, runs in 10-bit fixed point
/// (1/1024 pixel phases, integer weights summing to 2^20) through raw pointers, with the
/// bounds decided once per pixel (all four taps inside: the interior path; otherwise the
/// edge path that blends in the background). Whole phases are exact, so quarter turns and
/// whole-pixel shifts copy samples unchanged.
public enum AffineRenderer {
    /// How far the image should be reduced before warping so the warp itself never
    /// shrinks by more than 2x along an axis (beyond that a point-sampling kernel aliases).
    public static func prefilterScale(for t: AffineTransform) -> Double {
        let s = t.axisScales
        return min(1, 2 * max(s.x, s.y)) < 1 ? 2 * max(s.x, s.y) : 1
    }

    /// - Parameters:
    ///   - image: the source, upright.
    ///   - transform: image coordinates to canvas coordinates.
    ///   - canvas: output size.
    ///   - background: what shows where the image is not.
    ///   - filter: the kernel (nearest, bilinear, bicubic, lanczos).
    ///   - threads: bands rendered at once (`Threads.perImage` by default; 1: serial).
    public static func render(
        _ image: Image, transform: AffineTransform, canvas: PixelSize, background: Color,
        filter: ResampleFilter, threads: Int = Threads.perImage
    ) -> Image {
        let format = image.format.union(background.minimalFormat)
        let src = image.converted(to: format)
        guard let inverse = transform.inverted, canvas.width > 0, canvas.height > 0 else {
            return Image(width: max(canvas.width, 1), height: max(canvas.height, 1), format: format, fill: background)
        }
        var out = [UInt8](repeating: 0, count: canvas.width * canvas.height * format.channels)
        src.pixels.withUnsafeBufferPointer { sp in
            out.withUnsafeMutableBufferPointer { op in
                let job = WarpJob(
                    source: sp.baseAddress!, width: src.width, height: src.height, output: op.baseAddress!,
                    canvas: canvas, channels: format.channels, alpha: format.hasAlpha,
                    background: background.bytes(in: format), inverse: inverse, filter: filter)
                let rowsPerBand = max(16, canvas.height / max(1, threads * 4))
                let bands = (canvas.height + rowsPerBand - 1) / rowsPerBand
                if threads <= 1 || bands <= 1 {
                    for band in 0..<bands { job.render(rows: band * rowsPerBand..<min(canvas.height, (band + 1) * rowsPerBand)) }
                } else {
                    WorkerPool<Bool>.run(
                        count: bands, threads: threads,
                        work: { band in
                            job.render(rows: band * rowsPerBand..<min(canvas.height, (band + 1) * rowsPerBand))
                            return true
                        }, onResult: { _, _ in }, onTick: { true })
                }
            }
        }
        return Image(width: canvas.width, height: canvas.height, format: format, pixels: out)
    }
}

/// One warp: the source and output pixels (borrowed for the render's duration) and what
/// every band needs. Bands write disjoint rows, so they share it without locks.
final class WarpJob: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let width: Int, height: Int
    let output: UnsafeMutablePointer<UInt8>
    let canvas: PixelSize
    let channels: Int
    let alpha: Bool
    let background: [UInt8]
    let inverse: AffineTransform
    let filter: ResampleFilter

    init(
        source: UnsafePointer<UInt8>, width: Int, height: Int, output: UnsafeMutablePointer<UInt8>, canvas: PixelSize,
        channels: Int, alpha: Bool, background: [UInt8], inverse: AffineTransform, filter: ResampleFilter
    ) {
        self.source = source
        self.width = width
        self.height = height
        self.output = output
        self.canvas = canvas
        self.channels = channels
        self.alpha = alpha
        self.background = background
        self.inverse = inverse
        self.filter = filter
    }

    /// Past this (in pixels) a source position is off any image, and converting it to an
    /// integer could overflow: the background is drawn.
    static let farAway = 1e15

    func render(rows: Range<Int>) {
        for oy in rows {
            // The source position of output pixel (0, oy)'s centre, and its step along the row.
            let (u0, v0) = inverse.apply(x: 0.5, y: Double(oy) + 0.5)
            let du = inverse.a, dv = inverse.b
            let row = output + oy * canvas.width * channels
            switch filter {
            case .bilinear: bilinearRow(row, u0: u0, v0: v0, du: du, dv: dv)
            case .nearest: nearestRow(row, u0: u0, v0: v0, du: du, dv: dv)
            default: generalRow(row, u0: u0, v0: v0, du: du, dv: dv)
            }
        }
    }

    /// Writes the background into pixel `d`.
    @inline(__always) func fill(_ d: UnsafeMutablePointer<UInt8>) {
        for k in 0..<channels { d[k] = background[k] }
    }

    // MARK: - Bilinear, fixed point

    func bilinearRow(_ row: UnsafeMutablePointer<UInt8>, u0: Double, v0: Double, du: Double, dv: Double) {
        let c = channels, stride = width * c
        let bgAlpha = alpha ? Int(background[c - 1]) : 255
        for ox in 0..<canvas.width {
            let d = row + ox * c
            // Sample centre in pixel-index space, in 1/1024 pixel phases (rounded: residues
            // of a quarter turn or a whole shift vanish).
            let fu = (u0 + Double(ox) * du - 0.5) * 1024, fv = (v0 + Double(ox) * dv - 0.5) * 1024
            guard abs(fu) < WarpJob.farAway, abs(fv) < WarpJob.farAway else {
                fill(d)
                continue
            }
            let qx = Int(fu.rounded()), qy = Int(fv.rounded())
            let x = qx >> 10, y = qy >> 10
            let wx = qx & 1023, wy = qy & 1023
            if x + 1 < 0 || y + 1 < 0 || x >= width || y >= height {
                fill(d)  // no tap reaches the image
                continue
            }
            let w00 = (1024 - wx) * (1024 - wy), w01 = wx * (1024 - wy), w10 = (1024 - wx) * wy, w11 = wx * wy
            if x >= 0 && y >= 0 && x + 1 < width && y + 1 < height {
                // Interior: all four taps in the image.
                let p00 = source + y * stride + x * c
                let p01 = p00 + c, p10 = p00 + stride, p11 = p10 + c
                if alpha {
                    let a00 = Int(p00[c - 1]) * w00, a01 = Int(p01[c - 1]) * w01
                    let a10 = Int(p10[c - 1]) * w10, a11 = Int(p11[c - 1]) * w11
                    let a = a00 + a01 + a10 + a11
                    if a == 0 {
                        for k in 0..<c { d[k] = 0 }
                        continue
                    }
                    for k in 0..<(c - 1) {
                        let sum = Int(p00[k]) * a00 + Int(p01[k]) * a01 + Int(p10[k]) * a10 + Int(p11[k]) * a11
                        d[k] = UInt8(min(255, (sum + a / 2) / a))
                    }
                    d[c - 1] = UInt8((a + (1 << 19)) >> 20)
                } else {
                    for k in 0..<c {
                        let sum = Int(p00[k]) * w00 + Int(p01[k]) * w01 + Int(p10[k]) * w10 + Int(p11[k]) * w11
                        d[k] = UInt8((sum + (1 << 19)) >> 20)
                    }
                }
                continue
            }
            edge(d, x: x, y: y, weights: (w00, w01, w10, w11), backgroundAlpha: bgAlpha)
        }
    }

    /// A pixel whose taps are partly outside the image: those taps are the background,
    /// premultiplied like the rest.
    func edge(_ d: UnsafeMutablePointer<UInt8>, x: Int, y: Int, weights: (Int, Int, Int, Int), backgroundAlpha: Int) {
        let c = channels, stride = width * c
        let taps = [(x, y, weights.0), (x + 1, y, weights.1), (x, y + 1, weights.2), (x + 1, y + 1, weights.3)]
        var a = 0
        var sums = [0, 0, 0, 0]
        for (tx, ty, w) in taps where w != 0 {
            let inside = tx >= 0 && ty >= 0 && tx < width && ty < height
            let base = ty * stride + tx * c
            let ta = (alpha ? (inside ? Int(source[base + c - 1]) : backgroundAlpha) : 255) * w
            a += ta
            for k in 0..<c { sums[k] += (inside ? Int(source[base + k]) : Int(background[k])) * ta }
        }
        let colorChannels = alpha ? c - 1 : c
        for k in 0..<colorChannels { d[k] = a > 0 ? UInt8(min(255, (sums[k] + a / 2) / a)) : 0 }
        if alpha { d[c - 1] = UInt8((a + (1 << 19)) >> 20) }
    }

    // MARK: - Nearest

    func nearestRow(_ row: UnsafeMutablePointer<UInt8>, u0: Double, v0: Double, du: Double, dv: Double) {
        let c = channels
        for ox in 0..<canvas.width {
            let d = row + ox * c
            var u = u0 + Double(ox) * du, v = v0 + Double(ox) * dv
            guard abs(u) < WarpJob.farAway, abs(v) < WarpJob.farAway else {
                fill(d)
                continue
            }
            // Snap sub-1e-9 residues so quarter turns and whole shifts stay exact.
            if abs(u - u.rounded()) < 1e-9 { u = u.rounded() }
            if abs(v - v.rounded()) < 1e-9 { v = v.rounded() }
            let x = Int(u.rounded(.down)), y = Int(v.rounded(.down))
            if x < 0 || y < 0 || x >= width || y >= height {
                fill(d)
            } else {
                let s = source + (y * width + x) * c
                for k in 0..<c { d[k] = s[k] }
            }
        }
    }

    // MARK: - Bicubic and Lanczos (floating point, premultiplied)

    func generalRow(_ row: UnsafeMutablePointer<UInt8>, u0: Double, v0: Double, du: Double, dv: Double) {
        let c = channels
        let support = filter.support
        let taps = Int((2 * support).rounded(.up))
        let bgA: Float = alpha ? Float(background[c - 1]) / 255 : 1
        var bgPre = [Float](repeating: 0, count: c)
        for k in 0..<c { bgPre[k] = alpha && k < c - 1 ? Float(background[k]) * bgA : Float(background[k]) }
        if alpha { bgPre[c - 1] = Float(background[c - 1]) }
        var wx = [Float](repeating: 0, count: taps), wy = [Float](repeating: 0, count: taps)
        var acc = [Float](repeating: 0, count: c)
        for ox in 0..<canvas.width {
            let d = row + ox * c
            var u = u0 + Double(ox) * du, v = v0 + Double(ox) * dv
            guard abs(u) < WarpJob.farAway, abs(v) < WarpJob.farAway else {
                fill(d)
                continue
            }
            if abs(u - u.rounded()) < 1e-9 { u = u.rounded() }
            if abs(v - v.rounded()) < 1e-9 { v = v.rounded() }
            let fu = u - 0.5, fv = v - 0.5
            let x0 = Int((fu - support).rounded(.up)), y0 = Int((fv - support).rounded(.up))
            if x0 + taps <= 0 || y0 + taps <= 0 || x0 >= width || y0 >= height {
                fill(d)
                continue
            }
            var sx: Float = 0, sy: Float = 0
            for j in 0..<taps {
                wx[j] = Float(filter.weight(Double(x0 + j) - fu))
                sx += wx[j]
                wy[j] = Float(filter.weight(Double(y0 + j) - fv))
                sy += wy[j]
            }
            for j in 0..<taps {
                wx[j] /= sx
                wy[j] /= sy
            }
            for k in 0..<c { acc[k] = 0 }
            for jy in 0..<taps {
                let y = y0 + jy
                for jx in 0..<taps {
                    let w = wx[jx] * wy[jy]
                    if w == 0 { continue }
                    let x = x0 + jx
                    if x < 0 || y < 0 || x >= width || y >= height {
                        for k in 0..<c { acc[k] += w * bgPre[k] }
                    } else {
                        let s = source + (y * width + x) * c
                        if alpha {
                            let a = Float(s[c - 1])
                            for k in 0..<(c - 1) { acc[k] += w * Float(s[k]) * a / 255 }
                            acc[c - 1] += w * a
                        } else {
                            for k in 0..<c { acc[k] += w * Float(s[k]) }
                        }
                    }
                }
            }
            if alpha {
                let a = acc[c - 1]
                let inv: Float = a > 0 ? 255 / a : 0
                for k in 0..<(c - 1) { d[k] = Resampler.clampByte(acc[k] * inv) }
                d[c - 1] = Resampler.clampByte(a)
            } else {
                for k in 0..<c { d[k] = Resampler.clampByte(acc[k]) }
            }
        }
    }
}
