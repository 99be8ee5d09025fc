import Testing

@testable import FZImage
@testable import FZRender
@testable import Geometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The resampler's two-thread halves, its conversion of only the columns its taps read, the
/// held decode's reduction made while the rows arrive, and Blur's tap-by-tap loops (issue 49)
/// give the bytes of the plain per-pixel sums, written out here independently.
struct ResamplerHalvesTests {
    /// A deterministic noise image (no two neighbours alike), RGB or RGBA.
    static func noise(_ w: Int, _ h: Int, _ format: PixelFormat, seed: UInt64) -> Image {
        var state = seed
        let pixels = (0..<(w * h * format.channels)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return Image(width: w, height: h, format: format, pixels: pixels)
    }

    /// The separable sums one output pixel at a time, from the same tap weights: each source
    /// row filtered horizontally (sum over taps from the first), then the rows combined.
    static func reference(_ r: Resampler, _ image: Image) -> [UInt8] {
        let c = image.format.channels
        let ow = r.outputSize.width
        let h = r.horizontal.table()
        var out: [UInt8] = []
        let vw = UnsafeMutablePointer<Float>.allocate(capacity: r.vertical.maxTaps)
        defer { vw.deallocate() }
        for oy in 0..<r.outputSize.height {
            let (f, n) = r.vertical.taps(oy, into: vw)
            let weights = (0..<n).map { vw[$0] }
            // The vertical pass over horizontally filtered rows f..<f+n.
            var acc = [Float](repeating: 0, count: ow * c)
            for j in 0..<n {
                let y = f + j
                for ox in 0..<ow {
                    for k in 0..<c {
                        var s: Float = 0
                        for t in 0..<h.count[ox] {
                            let x = h.first[ox] + t
                            s +=
                                h.weights[ox * r.horizontal.maxTaps + t]
                                * Float(image.pixels[(y * image.width + x) * c + k])
                        }
                        acc[ox * c + k] = j == 0 ? weights[0] * s : acc[ox * c + k] + weights[j] * s
                    }
                }
            }
            out += acc.map { Resampler.clampByte($0) }
        }
        return out
    }

    @Test(arguments: [ResampleFilter.lanczos, .bilinear, .box])
    func aWindowsHalvesAreThePlainSums(filter: ResampleFilter) {
        // A window of the middle columns (the taps read about half the row), reduced 3.3x.
        let image = Self.noise(180, 120, .rgb, seed: 7)
        let r = Resampler(
            source: image.size, output: PixelSize(width: 24, height: 33), originX: 61.25, originY: 3.5, stepX: 3.3,
            stepY: 3.4, format: .rgb, filter: filter)
        let plain = r.resample(image)
        #expect(plain.pixels == Self.reference(r, image))
        #expect(r.resample(image, threads: 2).pixels == plain.pixels)
    }

    @Test func columnsNoTapReadsChangeNothing() {
        var image = Self.noise(180, 120, .rgb, seed: 11)
        let r = Resampler(
            source: image.size, output: PixelSize(width: 20, height: 40), originX: 70, originY: 0, stepX: 2,
            stepY: 3, format: .rgb, filter: .lanczos)
        let before = r.resample(image, threads: 2)
        // Columns 0..<60 and 120..<180 lie outside every tap (70 + 40 +- the kernel's 6 px).
        for y in 0..<image.height {
            for x in Array(0..<60) + Array(120..<180) {
                for k in 0..<3 { image.pixels[(y * image.width + x) * 3 + k] = 0 }
            }
        }
        #expect(r.resample(image, threads: 2).pixels == before.pixels)
    }

    @Test func alphaHalvesAreTheWholes() {
        let image = Self.noise(97, 151, .rgba, seed: 3)
        let r = Resampler(source: image.size, output: PixelSize(width: 40, height: 64), format: .rgba, filter: .lanczos)
        #expect(r.resample(image, threads: 2).pixels == r.resample(image).pixels)
    }

    /// RGBA: the same sums over colours premultiplied by alpha/255 (and alpha as it is), then
    /// divided by the summed alpha, written out here pixel by pixel.
    @Test func alphaIsThePlainPremultipliedSums() {
        let image = Self.noise(97, 151, .rgba, seed: 9)
        let r = Resampler(source: image.size, output: PixelSize(width: 40, height: 64), format: .rgba, filter: .lanczos)
        var pre = image
        var floats = [Float](repeating: 0, count: image.pixels.count)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let a = Float(image.pixels[i + 3])
            for k in 0..<3 { floats[i + k] = Float(image.pixels[i + k]) * (a * (1 / 255)) }
            floats[i + 3] = a
        }
        // The reference's sums of bytes, run on the premultiplied floats instead.
        let ow = r.outputSize.width
        let h = r.horizontal.table()
        let vw = UnsafeMutablePointer<Float>.allocate(capacity: r.vertical.maxTaps)
        defer { vw.deallocate() }
        var want: [UInt8] = []
        for oy in 0..<r.outputSize.height {
            let (f, n) = r.vertical.taps(oy, into: vw)
            var acc = [Float](repeating: 0, count: ow * 4)
            for j in 0..<n {
                for ox in 0..<ow {
                    for k in 0..<4 {
                        var s: Float = 0
                        for t in 0..<h.count[ox] {
                            s +=
                                h.weights[ox * r.horizontal.maxTaps + t]
                                * floats[((f + j) * image.width + h.first[ox] + t) * 4 + k]
                        }
                        acc[ox * 4 + k] = j == 0 ? vw[0] * s : acc[ox * 4 + k] + vw[j] * s
                    }
                }
            }
            for ox in 0..<ow {
                let a = acc[ox * 4 + 3]
                let inv: Float = a > 0 ? 255 / a : 0
                want += (0..<3).map { Resampler.clampByte(acc[ox * 4 + $0] * inv) } + [Resampler.clampByte(a)]
            }
        }
        pre.pixels = r.resample(image).pixels
        #expect(pre.pixels == want)
    }

    @Test func heldRowsReduceAsTheyArrive() {
        let image = Self.noise(300, 200, .rgb, seed: 5)
        let box = Resampler(source: image.size, output: PixelSize(width: 64, height: 43), format: .rgb, filter: .box)
        var held = Image(width: 300, height: 200, format: .rgb)
        let rowBytes = 300 * 3
        let early = held.pixels.withUnsafeMutableBufferPointer { p in
            HeldRows.reducing(with: box, threads: 2, base: p.baseAddress!, rowBytes: rowBytes, height: 200) { publish in
                for y in 0..<200 {
                    image.pixels.withUnsafeBufferPointer {
                        (p.baseAddress! + y * rowBytes).update(from: $0.baseAddress! + y * rowBytes, count: rowBytes)
                    }
                    publish(y + 1)
                }
            }
        }
        #expect(held.pixels == image.pixels)
        #expect(early?.pixels == box.resample(image).pixels)
        // One thread: no reduction made, the rows still filled.
        var alone = Image(width: 300, height: 200, format: .rgb)
        let none = alone.pixels.withUnsafeMutableBufferPointer { p in
            HeldRows.reducing(with: box, threads: 1, base: p.baseAddress!, rowBytes: rowBytes, height: 200) { publish in
                p.baseAddress!.update(repeating: 9, count: 200 * rowBytes)
                publish(200)
            }
        }
        #expect(none == nil && alone.pixels.allSatisfy { $0 == 9 })
    }

    /// Blur as one pixel at a time with clamped edges (the sums the tap-by-tap loops must keep).
    static func naiveBlur(_ f: [Float], _ w: Int, _ h: Int, _ sigma: Float) -> [Float] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { exp(-Float($0 * $0) / (2 * sigma * sigma)) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        var tmp = [Float](repeating: 0, count: f.count)
        var out = tmp
        for y in 0..<h {
            for x in 0..<w {
                var s: Float = 0
                for k in -radius...radius { s += kernel[k + radius] * f[y * w + min(w - 1, max(0, x + k))] }
                tmp[y * w + x] = s
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                var s: Float = 0
                for k in -radius...radius { s += kernel[k + radius] * tmp[min(h - 1, max(0, y + k)) * w + x] }
                out[y * w + x] = s
            }
        }
        return out
    }

    @Test(arguments: [(64, 36, Float(8)), (64, 36, Float(1)), (5, 9, Float(1.5)), (13, 4, Float(2))])
    func blurIsThePerPixelSums(w: Int, h: Int, sigma: Float) {
        let f = Self.noise(w, h, .gray, seed: 13).pixels.map { Float($0) / 255 }
        #expect(Blur.gaussian(f, width: w, height: h, sigma: sigma) == Self.naiveBlur(f, w, h, sigma))
    }
}
