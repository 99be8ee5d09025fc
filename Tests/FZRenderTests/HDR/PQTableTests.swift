import Testing

@testable import FZRender

/// The PQ table against `GainMapRendition.pq` itself on values spread over its whole range
/// (segment ends, midpoints, every octave, below and above it): within 0.1 of a 16-bit level.
@Suite("PQ table")
struct PQTableTests {
    @Test func followsTheCurve() {
        var worst = 0.0
        var x = 1e-9
        while x < 100 {
            for y in [x, x * 1.001_953_125, x * 1.37] {
                let f = Float(y)
                worst = max(worst, abs(PQTable.shared(f) - GainMapRendition.pq(Double(f))))
            }
            x *= 1.013
        }
        #expect(worst * 65535 < 0.1, "worst \(worst * 65535) levels")
        #expect(PQTable.shared(0) == GainMapRendition.pq(0))
        #expect(PQTable.shared(64) == 1 && PQTable.shared(1000) == 1)
        #expect(abs(GainMapRendition.pq(10000 / 203) - 1) < 1e-12)  // 10,000 cd/m² is PQ's top
    }
}
