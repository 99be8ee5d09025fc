/// `GainMapRendition.pq` through a table, for the per-sample loop: two `pow` calls a sample
/// are most of a rendition's time. Linear values (relative to SDR white) from 2^-24 to 2^6
/// (PQ's 10,000 cd/m² is 49.3 times SDR white) are cut into 256 segments an octave, read
/// from a Float's exponent and top mantissa bits; the table holds `pq` exactly at segment
/// ends and interpolates linearly between. PQ is smooth in log x, so the error of that
/// interpolation is under 1e-6 (0.07 of a 16-bit level); below 2^-24, and in the segment
/// where PQ reaches its top, `pq` itself is used.
struct PQTable: Sendable {
    static let perOctave = 256
    static let lowest = -24
    static let highest = 6
    static let shared = PQTable()

    private let values: [Double]
    /// The start of the segment that holds 10,000 cd/m².
    static let top: Float = {
        let peak = Float(10000 / GainMapRendition.sdrWhite)
        return Float(bitPattern: peak.bitPattern & ~0x7FFF)
    }()

    private init() {
        let count = (Self.highest - Self.lowest) * Self.perOctave + 1
        values = (0..<count).map { j in
            let octave = Self.lowest + j / Self.perOctave
            let x = Double(sign: .plus, exponent: octave, significand: 1 + Double(j % Self.perOctave) / 256)
            return GainMapRendition.pq(x)
        }
    }

    /// The PQ signal (0...1) of `x`.
    func callAsFunction(_ x: Float) -> Double {
        guard x >= 0x1p-24 else { return x > 0 ? GainMapRendition.pq(Double(x)) : GainMapRendition.pq(0) }
        // From the segment where PQ reaches 10,000 cd/m² (its top, a kink no straight line
        // follows) up: `pq` itself.
        guard x < Self.top else { return x < 0x1p6 ? GainMapRendition.pq(Double(x)) : 1 }
        let bits = x.bitPattern
        let octave = Int(bits >> 23) - 127
        let j = (octave - Self.lowest) * Self.perOctave + Int((bits >> 15) & 0xFF)
        let f = Double(bits & 0x7FFF) / 32768
        return values[j] + (values[j + 1] - values[j]) * f
    }
}
