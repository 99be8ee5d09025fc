/// A warp's interpolation kernel as fixed-point weights at 1/1024-pixel phases, so the
/// inner loop of `AffineRenderer` is a table look-up and integer multiply-adds.
///
/// A sample centred at `f = i + p / 1024` (pixel-index space, `0 <= p <= 1024`) reads the
/// `taps` source pixels `i - taps / 2 + 1 ..< i + taps / 2 + 1` with the weights in row
/// `p` of the table. Each row sums to exactly `one`, so flat areas stay flat, and phase 0
/// is a single tap of `one` (whole-pixel positions copy pixels exactly).
struct WarpKernel: Sendable {
    /// Sub-pixel phases per pixel.
    static let phases = 1024
    /// log2 of the phase count: fractional bits of a position dropped to find its phase.
    static let phaseBits = 10
    /// Weight bits: a row of the table sums to `1 << weightBits`.
    static let weightBits = 16
    static let one = 1 << weightBits

    let filter: ResampleFilter
    /// Taps per axis: 2 bilinear, 4 bicubic, 6 lanczos (nearest is not tabulated).
    let taps: Int
    /// (phases + 1) rows of `taps` weights.
    let weights: [Int32]

    init(_ filter: ResampleFilter) {
        self.filter = filter
        let taps = filter == .nearest ? 1 : Int((2 * filter.support).rounded(.up))
        self.taps = taps
        var table = [Int32](repeating: 0, count: (Self.phases + 1) * taps)
        if filter == .nearest {
            for p in 0...Self.phases { table[p] = Int32(Self.one) }
        } else {
            let first = 1 - taps / 2
            var w = [Double](repeating: 0, count: taps)
            for p in 0...Self.phases {
                let f = Double(p) / Double(Self.phases)
                var sum = 0.0
                for k in 0..<taps {
                    w[k] = filter.weight(Double(first + k) - f)
                    sum += w[k]
                }
                var total = 0
                var largest = 0
                for k in 0..<taps {
                    let q = Int((w[k] / sum * Double(Self.one)).rounded())
                    table[p * taps + k] = Int32(q)
                    total += q
                    if abs(w[k]) > abs(w[largest]) { largest = k }
                }
                table[p * taps + largest] += Int32(Self.one - total)  // rows sum to exactly one
            }
        }
        weights = table
    }
}
