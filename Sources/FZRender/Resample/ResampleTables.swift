/// Both axes' taps of one resampler, computed once for a resampler that runs many times over
/// sources of the same size: an animation's frames, where rebuilding them for every frame cost
/// as much as a tenth of the reduction (two sines a tap, an array a pixel, in `AxisTaps.taps`).
/// The same weights `runRows` computes itself, so the same bytes.
package struct ResampleTables: Sendable {
    package let horizontal: (first: [Int], count: [Int], weights: [Float])
    package let vertical: (first: [Int], count: [Int], weights: [Float])
    /// Weights per output row in `vertical.weights`.
    package let verticalStride: Int

    init(horizontal h: AxisTaps, vertical v: AxisTaps) {
        horizontal = h.table()
        vertical = v.table()
        verticalStride = v.maxTaps
    }

    /// Output row `oy`'s first source row and tap count, its weights copied to `weights`.
    func verticalTaps(_ oy: Int, into weights: UnsafeMutablePointer<Float>) -> (first: Int, count: Int) {
        let n = vertical.count[oy]
        vertical.weights.withUnsafeBufferPointer { w in
            weights.update(from: w.baseAddress! + oy * verticalStride, count: n)
        }
        return (vertical.first[oy], n)
    }
}

extension Resampler {
    /// This resampler with its tap tables computed now, once, for many runs (an animation's
    /// frames). The vertical table is output height x taps floats: a thumbnail's few KB.
    package func withTables() -> Resampler {
        var r = self
        r.tables = ResampleTables(horizontal: horizontal, vertical: vertical)
        return r
    }
}
