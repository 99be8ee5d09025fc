/// Warps an image by a general affine transform onto a canvas: each output pixel's centre
/// is mapped back into the image and sampled with the chosen kernel, premultiplied, with
/// the background standing in for everything outside the image (so edges are smooth).
/// Reductions are prefiltered by the caller (see `prefilterScale`), so no aliasing.
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
    public static func render(_ image: Image, transform: AffineTransform, canvas: PixelSize, background: Color,
                              filter: ResampleFilter) -> Image {
        let format = image.format.union(background.minimalFormat)
        let src = image.converted(to: format)
        guard let inverse = transform.inverted else { return Image(width: canvas.width, height: canvas.height, format: format, fill: background) }
        let c = format.channels, alpha = format.hasAlpha
        let bgBytes = background.bytes(in: format)
        let bgA: Float = alpha ? Float(bgBytes[c - 1]) / 255 : 1
        var bgPre = [Float](repeating: 0, count: c)
        for k in 0..<c { bgPre[k] = alpha && k < c - 1 ? Float(bgBytes[k]) * bgA : Float(bgBytes[k]) }
        if alpha { bgPre[c - 1] = Float(bgBytes[c - 1]) }
        var out = [UInt8](repeating: 0, count: canvas.width * canvas.height * c)
        let support = filter == .nearest ? 0.5 : filter.support
        let taps = filter == .nearest ? 1 : Int((2 * support).rounded(.up))
        var wx = [Float](repeating: 0, count: taps), wy = [Float](repeating: 0, count: taps)
        var acc = [Float](repeating: 0, count: c)
        src.pixels.withUnsafeBufferPointer { sp in
            for oy in 0..<canvas.height {
                for ox in 0..<canvas.width {
                    var (u, v) = inverse.apply(x: Double(ox) + 0.5, y: Double(oy) + 0.5)
                    // Snap sub-1e-9 residues so quarter turns and whole shifts stay exact.
                    if abs(u - u.rounded()) < 1e-9 { u = u.rounded() }
                    if abs(v - v.rounded()) < 1e-9 { v = v.rounded() }
                    let d = (oy * canvas.width + ox) * c
                    if filter == .nearest {
                        let x = Int((u).rounded(.down)), y = Int((v).rounded(.down))
                        if x < 0 || y < 0 || x >= src.width || y >= src.height {
                            for k in 0..<c { out[d + k] = bgBytes[k] }
                        } else {
                            let s = (y * src.width + x) * c
                            for k in 0..<c { out[d + k] = sp[s + k] }
                        }
                        continue
                    }
                    // Sample centre (u - 0.5, v - 0.5) in pixel-index space.
                    let fu = u - 0.5, fv = v - 0.5
                    let x0 = Int((fu - support).rounded(.up)), y0 = Int((fv - support).rounded(.up))
                    if x0 + taps <= 0 || y0 + taps <= 0 || x0 >= src.width || y0 >= src.height {
                        for k in 0..<c { out[d + k] = bgBytes[k] }  // no tap reaches the image
                        continue
                    }
                    var sx: Float = 0, sy: Float = 0
                    for j in 0..<taps { wx[j] = Float(filter.weight(Double(x0 + j) - fu)); sx += wx[j] }
                    for j in 0..<taps { wy[j] = Float(filter.weight(Double(y0 + j) - fv)); sy += wy[j] }
                    for j in 0..<taps { wx[j] /= sx; wy[j] /= sy }
                    for k in 0..<c { acc[k] = 0 }
                    for jy in 0..<taps {
                        let y = y0 + jy
                        for jx in 0..<taps {
                            let w = wx[jx] * wy[jy]
                            if w == 0 { continue }
                            let x = x0 + jx
                            if x < 0 || y < 0 || x >= src.width || y >= src.height {
                                for k in 0..<c { acc[k] += w * bgPre[k] }
                            } else {
                                let s = (y * src.width + x) * c
                                if alpha {
                                    let a = Float(sp[s + c - 1])
                                    for k in 0..<(c - 1) { acc[k] += w * Float(sp[s + k]) * a / 255 }
                                    acc[c - 1] += w * a
                                } else {
                                    for k in 0..<c { acc[k] += w * Float(sp[s + k]) }
                                }
                            }
                        }
                    }
                    if alpha {
                        let a = acc[c - 1]
                        let inv: Float = a > 0 ? 255 / a : 0
                        for k in 0..<(c - 1) { out[d + k] = Resampler.clampByte(acc[k] * inv) }
                        out[d + c - 1] = Resampler.clampByte(a)
                    } else {
                        for k in 0..<c { out[d + k] = Resampler.clampByte(acc[k]) }
                    }
                }
            }
        }
        return Image(width: canvas.width, height: canvas.height, format: format, pixels: out)
    }
}
