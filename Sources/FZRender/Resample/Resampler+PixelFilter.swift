/// The horizontal filter for three- and four-channel rows, a pixel as one SIMD4: four output
/// pixels at a time, each with its own sum, so four chains of adds are in flight instead of
/// one. Each pixel's sum is still its taps' products added in order from zero, a multiply then
/// an add (no fused multiply-add), so the same floats as one pixel at a time. The weights come
/// replicated into all four lanes (`replicatedWeights`), so a tap is a load, a multiply from
/// memory and an add, without a broadcast: 3.75 instructions a tap where one pixel at a time
/// took 7.5 (the 100-frame GIF's thumbnail, 6.27G to 5.61G instructions).
extension Resampler {
    /// `n` weights, each repeated in the four lanes of a SIMD4 (the caller deallocates).
    package static func replicatedWeights(_ w: UnsafePointer<Float>, _ n: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        let r = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, n))
        for i in 0..<n { (r + i).initialize(to: SIMD4(repeating: w[i])) }
        return r
    }

    /// RGBA rows: each pixel's four floats loaded and stored as one SIMD4.
    package static func filterRow4(
        _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ ow: Int,
        _ first: UnsafePointer<Int>, _ count: UnsafePointer<Int>, _ weights: UnsafePointer<SIMD4<Float>>, _ taps: Int
    ) {
        filterPixels(src, dst, ow, 4, first, count, weights, taps)
    }

    /// RGB rows: each pixel's three floats and the next one's first loaded as one SIMD4 (`src`
    /// has a float to spare after the row), the fourth lane thrown away, three floats stored
    /// (a fourth would land on the next ring row's first float).
    package static func filterRow3(
        _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ ow: Int,
        _ first: UnsafePointer<Int>, _ count: UnsafePointer<Int>, _ weights: UnsafePointer<SIMD4<Float>>, _ taps: Int
    ) {
        filterPixels(src, dst, ow, 3, first, count, weights, taps)
    }

    /// Length: a hot loop (issue 50), four pixels' sums written out side by side on purpose.
    @inline(__always)
    private static func filterPixels(
        _ src: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ ow: Int, _ c: Int,
        _ first: UnsafePointer<Int>, _ count: UnsafePointer<Int>, _ weights: UnsafePointer<SIMD4<Float>>, _ taps: Int
    ) {
        let pixelBytes = c * 4
        let base = UnsafeRawPointer(src)
        @inline(__always) func store(_ v: SIMD4<Float>, _ ox: Int) {
            if c == 4 {
                UnsafeMutableRawPointer(dst + ox * 4).storeBytes(of: v, as: SIMD4<Float>.self)
            } else {
                let d = dst + ox * c
                d[0] = v[0]
                d[1] = v[1]
                d[2] = v[2]
            }
        }
        // Taps `from..<count[ox]` of pixel `ox` added to `v`: a pixel alone, or what is left
        // of one after the four were summed side by side.
        @inline(__always) func finish(_ v: inout SIMD4<Float>, _ ox: Int, from: Int) {
            let p = base + first[ox] * pixelBytes
            let w = weights + ox * taps
            var j = from
            while j < count[ox] {
                v += w[j] * p.loadUnaligned(fromByteOffset: j * pixelBytes, as: SIMD4<Float>.self)
                j += 1
            }
        }
        var ox = 0
        while ox + 4 <= ow {
            let shared = min(min(count[ox], count[ox + 1]), min(count[ox + 2], count[ox + 3]))
            let p0 = base + first[ox] * pixelBytes
            let p1 = base + first[ox + 1] * pixelBytes
            let p2 = base + first[ox + 2] * pixelBytes
            let p3 = base + first[ox + 3] * pixelBytes
            let w0 = weights + ox * taps
            let w1 = w0 + taps
            let w2 = w1 + taps
            let w3 = w2 + taps
            var v0 = SIMD4<Float>(repeating: 0)
            var v1 = v0
            var v2 = v0
            var v3 = v0
            var offset = 0
            for j in 0..<shared {
                v0 += w0[j] * p0.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                v1 += w1[j] * p1.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                v2 += w2[j] * p2.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                v3 += w3[j] * p3.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                offset += pixelBytes
            }
            finish(&v0, ox, from: shared)
            finish(&v1, ox + 1, from: shared)
            finish(&v2, ox + 2, from: shared)
            finish(&v3, ox + 3, from: shared)
            store(v0, ox)
            store(v1, ox + 1)
            store(v2, ox + 2)
            store(v3, ox + 3)
            ox += 4
        }
        while ox < ow {
            var v = SIMD4<Float>(repeating: 0)
            finish(&v, ox, from: 0)
            store(v, ox)
            ox += 1
        }
    }
}
