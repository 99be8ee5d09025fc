import TestSupport
import Testing

@testable import FZImage
@testable import FZRender
@testable import Geometry

/// The band-parallel, fixed-point warp against the straightforward per-pixel renderer it
/// replaced (kept here as the reference): bilinear, bicubic and Lanczos within one level a
/// channel (1/1024 phases, `WarpKernel`), nearest equal; threads do not change a byte;
/// quarter turns and whole shifts copy samples exactly.
struct AffineRendererTests {
    /// Noise with structure: every sample differs from its neighbours, alpha varies too.
    static func picture(_ format: PixelFormat, width: Int = 61, height: Int = 47) -> Image {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var pixels = [UInt8](repeating: 0, count: width * height * format.channels)
        for i in pixels.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return Image(width: width, height: height, format: format, pixels: pixels)
    }

    /// The largest difference of what shows: for formats with alpha the premultiplied
    /// colour (a fully transparent pixel's colour is meaningless) and the alpha itself.
    static func visibleDifference(_ a: Image, _ b: Image) -> Int {
        guard a.format.hasAlpha else { return TestSupport.maxDifference(a, b) }
        let c = a.format.channels
        var m = 0
        for p in stride(from: 0, to: a.pixels.count, by: c) {
            let aa = Int(a.pixels[p + c - 1])
            let ba = Int(b.pixels[p + c - 1])
            m = max(m, abs(aa - ba))
            for k in 0..<(c - 1) {
                let x = (Int(a.pixels[p + k]) * aa + 127) / 255
                let y = (Int(b.pixels[p + k]) * ba + 127) / 255
                m = max(m, abs(x - y))
            }
        }
        return m
    }

    static let transforms: [(String, AffineTransform)] = [
        ("rotate 15", AffineTransform.rotation(degrees: 15)),
        ("rotate 33 scale 1.9", AffineTransform.rotation(degrees: 33).then(.scale(1.9, 1.9))),
        ("scale 0.7", AffineTransform.scale(0.7, 0.7)),
        ("skew", AffineTransform.skew(0.3, -0.1)),
        ("shift 2.25", AffineTransform.translation(2.25, -1.5)),
    ]

    /// The canvas around the transformed picture, with some margin (background shows).
    static func canvas(_ image: Image, _ t: AffineTransform) -> (AffineTransform, PixelSize) {
        let box = t.boundingBox(of: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        let placed = t.then(.translation(-box.x + 3, -box.y + 3))
        return (placed, PixelSize(width: Int(box.width.rounded(.up)) + 6, height: Int(box.height.rounded(.up)) + 6))
    }

    @Test(arguments: [PixelFormat.gray, .grayAlpha, .rgb, .rgba])
    func bilinearWithinOneLevelOfTheReference(_ format: PixelFormat) {
        let image = Self.picture(format)
        for (name, t) in Self.transforms {
            for background in [Color.transparent, Color(r: 10, g: 200, b: 30)] {
                let (placed, size) = Self.canvas(image, t)
                let fast = AffineRenderer.render(
                    image, transform: placed, canvas: size, background: background, filter: .bilinear, threads: 2)
                let slow = ReferenceWarp.render(
                    image, transform: placed, canvas: size, background: background, filter: .bilinear)
                #expect(fast.format == slow.format && fast.size == slow.size)
                // Each channel is within one level; premultiplied, a colour and an alpha each
                // one level off (the 1/1024 phase) can show as two.
                #expect(
                    Self.visibleDifference(fast, slow) <= (format.hasAlpha || background.a < 255 ? 2 : 1),
                    "\(format) \(name) \(background)")
            }
        }
    }

    @Test(arguments: [ResampleFilter.nearest, .bicubic, .lanczos])
    func otherKernelsEqualTheReference(_ filter: ResampleFilter) {
        for format in [PixelFormat.rgb, .rgba] {
            let image = Self.picture(format)
            for (name, t) in Self.transforms {
                let (placed, size) = Self.canvas(image, t)
                let fast = AffineRenderer.render(
                    image, transform: placed, canvas: size, background: .black, filter: filter, threads: 2)
                let slow = ReferenceWarp.render(
                    image, transform: placed, canvas: size, background: .black, filter: filter)
                // Fixed point like bilinear (WarpKernel's 1/1024 phases): within one level a
                // channel, so premultiplied with alpha as two.
                #expect(
                    Self.visibleDifference(fast, slow) <= (filter == .nearest ? 0 : format.hasAlpha ? 2 : 1),
                    "\(filter) \(format) \(name)")
            }
        }
    }

    @Test func threadsDoNotChangeAByte() {
        let image = Self.picture(.rgba, width: 301, height: 203)
        let (placed, size) = Self.canvas(image, AffineTransform.rotation(degrees: 21))
        let one = AffineRenderer.render(
            image, transform: placed, canvas: size, background: .white, filter: .bilinear, threads: 1)
        let two = AffineRenderer.render(
            image, transform: placed, canvas: size, background: .white, filter: .bilinear, threads: 2)
        let many = AffineRenderer.render(
            image, transform: placed, canvas: size, background: .white, filter: .bilinear, threads: 7)
        #expect(one.pixels == two.pixels && two.pixels == many.pixels)
    }

    /// A quarter turn and a whole shift move samples: the output is the input, permuted.
    @Test(arguments: [PixelFormat.rgb, .rgba])
    func quarterTurnsAndWholeShiftsAreExact(_ format: PixelFormat) {
        let image = Self.picture(format)
        let c = format.channels
        let turn = AffineTransform.rotation(degrees: 90).then(.translation(Double(image.height), 0))
        for filter in [ResampleFilter.bilinear, .nearest, .bicubic] {
            let out = AffineRenderer.render(
                image, transform: turn, canvas: PixelSize(width: image.height, height: image.width),
                background: .black, filter: filter)
            var same = true
            for y in 0..<out.height {
                for x in 0..<out.width {
                    // Clockwise on screen: output (x, y) shows input (y, H - 1 - x).
                    let s = ((image.height - 1 - x) * image.width + y) * c
                    let d = (y * out.width + x) * c
                    // (A fully transparent pixel's colour is not kept: premultiplied, it is 0.)
                    let visible = c < 4 || image.pixels[s + c - 1] != 0
                    for k in 0..<c where out.pixels[d + k] != image.pixels[s + k] && (visible || k == c - 1) {
                        same = false
                    }
                }
            }
            #expect(same, "\(filter) \(format)")
            let shifted = AffineRenderer.render(
                image, transform: .translation(5, 2),
                canvas: PixelSize(width: image.width + 5, height: image.height + 2),
                background: .black, filter: filter)
            #expect(
                Array(shifted.pixels[((2 * shifted.width) + 5) * c..<((2 * shifted.width) + 5) * c + c])
                    == Array(image.pixels[0..<c]))
            #expect(Array(shifted.pixels.suffix(c)) == Array(image.pixels.suffix(c)))
        }
    }
}

/// The renderer before the bands and the fixed point: one matrix product and one set of
/// Float weights per output pixel.
enum ReferenceWarp {
    static func render(
        _ image: Image, transform: AffineTransform, canvas: PixelSize, background: Color,
        filter: ResampleFilter
    ) -> Image {
        let format = image.format.union(background.minimalFormat)
        let src = image.converted(to: format)
        guard let inverse = transform.inverted else {
            return Image(width: canvas.width, height: canvas.height, format: format, fill: background)
        }
        let c = format.channels
        let alpha = format.hasAlpha
        let bgBytes = background.bytes(in: format)
        let bgA: Float = alpha ? Float(bgBytes[c - 1]) / 255 : 1
        var bgPre = [Float](repeating: 0, count: c)
        for k in 0..<c { bgPre[k] = alpha && k < c - 1 ? Float(bgBytes[k]) * bgA : Float(bgBytes[k]) }
        if alpha { bgPre[c - 1] = Float(bgBytes[c - 1]) }
        var out = [UInt8](repeating: 0, count: canvas.width * canvas.height * c)
        let support = filter == .nearest ? 0.5 : filter.support
        let taps = filter == .nearest ? 1 : Int((2 * support).rounded(.up))
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
                        let x = Int((u).rounded(.down))
                        let y = Int((v).rounded(.down))
                        if x < 0 || y < 0 || x >= src.width || y >= src.height {
                            for k in 0..<c { out[d + k] = bgBytes[k] }
                        } else {
                            let s = (y * src.width + x) * c
                            for k in 0..<c { out[d + k] = sp[s + k] }
                        }
                        continue
                    }
                    // Sample centre (u - 0.5, v - 0.5) in pixel-index space.
                    let fu = u - 0.5
                    let fv = v - 0.5
                    let x0 = Int((fu - support).rounded(.up))
                    let y0 = Int((fv - support).rounded(.up))
                    if x0 + taps <= 0 || y0 + taps <= 0 || x0 >= src.width || y0 >= src.height {
                        for k in 0..<c { out[d + k] = bgBytes[k] }  // no tap reaches the image
                        continue
                    }
                    let wx = weights(filter, first: x0, centre: fu, taps: taps)
                    let wy = weights(filter, first: y0, centre: fv, taps: taps)
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
                    store(acc, alpha: alpha, into: &out, at: d)
                }
            }
        }
        return Image(width: canvas.width, height: canvas.height, format: format, pixels: out)
    }

    /// The filter's `taps` weights for pixels `first`, `first + 1`... around `centre`, summing to 1.
    static func weights(_ filter: ResampleFilter, first: Int, centre: Double, taps: Int) -> [Float] {
        let w = (0..<taps).map { Float(filter.weight(Double(first + $0) - centre)) }
        let sum = w.reduce(0, +)
        return w.map { $0 / sum }
    }

    /// One output pixel from its premultiplied sums: unpremultiplied where there is alpha.
    static func store(_ acc: [Float], alpha: Bool, into out: inout [UInt8], at d: Int) {
        let c = acc.count
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
