/// The resampler's per-row kernels: the premultiply, the one-channel and any-channel
/// horizontal filters (three and four channels: Resampler+PixelFilter.swift) and the rounding
/// of the vertical pass's sums to bytes.
extension Resampler {
    /// RGBA pixels `lo..<hi` of a row as floats premultiplied by alpha, a pixel at a time as
    /// one SIMD4 multiply (the colour by alpha/255, the alpha by 1): the products of the
    /// per-channel loop, without its index checks (an animated thumbnail's frames spent as
    /// long here as in the filter).
    package static func premultiplyRGBA(
        _ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<Float>, _ lo: Int, _ hi: Int
    ) {
        var p = src + lo &* 4
        var d = UnsafeMutableRawPointer(dst + lo &* 4)
        for _ in lo..<hi {
            let a = Float(p[3])
            let f = a * (1 / 255)
            let v = SIMD4<Float>(Float(p[0]), Float(p[1]), Float(p[2]), a) * SIMD4<Float>(f, f, f, 1)
            d.storeBytes(of: v, as: SIMD4<Float>.self)
            p += 4
            d += 16
        }
    }

    package static func filterRow1(
        _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ ow: Int,
        _ first: UnsafePointer<Int>, _ count: UnsafePointer<Int>, _ weights: UnsafePointer<Float>, _ taps: Int
    ) {
        for ox in 0..<ow {
            let p = src + first[ox]
            let w = weights + ox * taps
            var s: Float = 0
            for j in 0..<count[ox] { s += w[j] * p[j] }
            dst[ox] = s
        }
    }

    package static func filterRowN(
        _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ ow: Int, _ c: Int,
        _ first: UnsafePointer<Int>, _ count: UnsafePointer<Int>, _ weights: UnsafePointer<Float>, _ taps: Int
    ) {
        for ox in 0..<ow {
            let p = src + first[ox] * c
            let w = weights + ox * taps
            for k in 0..<c {
                var s: Float = 0
                for j in 0..<count[ox] { s += w[j] * p[j * c + k] }
                dst[ox * c + k] = s
            }
        }
    }

    /// `clampByte` of each of `n` floats, eight at a time, the same bytes: 0.5 added, clamped
    /// to 0...255, floored (rounded to an integer through 2^23, less one where that rounded
    /// up), and the integer read from the low bits of itself plus 2^23. Written with
    /// comparisons and `replace`, which compile to vector instructions here, where `clamped`
    /// and the SIMD integer conversions are calls per lane. (A NaN gives some byte instead of
    /// `clampByte`'s trap; a sum of finite weights and bytes is never NaN.)
    package static func clampBytes(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<UInt8>, _ n: Int) {
        var i = 0
        let raw = UnsafeRawPointer(src)
        let m = SIMD8<Float>(repeating: 8_388_608)
        while i + 8 <= n {
            let r = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) + 0.5
            var c = r
            c.replace(with: 0, where: r .< 0)
            c.replace(with: 255, where: r .> 255)
            var t = (c + m) - m
            t.replace(with: t - 1, where: t .> c)
            let bytes = SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast(t + m, to: SIMD8<UInt32>.self))
            UnsafeMutableRawPointer(dst + i).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
            i += 8
        }
        while i < n {
            dst[i] = clampByte(src[i])
            i += 1
        }
    }

    /// Rounds to the nearest byte, clamping. Truncating v + 0.5 once it is known positive
    /// is the same as flooring it, without a call to floorf per sample.
    @inline(__always)
    package static func clampByte(_ v: Float) -> UInt8 {
        let r = v + 0.5
        return r <= 0 ? 0 : (r >= 255 ? 255 : UInt8(r))
    }
}
