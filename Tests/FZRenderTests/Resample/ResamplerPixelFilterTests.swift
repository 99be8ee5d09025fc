import Testing

@testable import FZRender

/// The four-pixels-at-a-time horizontal filters (`filterRow4`, `filterRow3`) against a plain
/// pixel-at-a-time, channel-at-a-time sum of the same products in the same order: equal
/// floats, bit for bit, for tap counts that differ between neighbours (the side-by-side part
/// stops at the shortest), rows whose width leaves 1-3 pixels over, and a row with one pixel.
/// The RGB filter must not write past three floats a pixel (the ring's next row starts there).
@Suite struct ResamplerPixelFilterTests {
    /// A reproducible float in -1000..<1000 (no Foundation random in tests that compare bits).
    struct Floats {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int32(truncatingIfNeeded: state >> 33) % 1_000_000) / 1000
        }
    }

    func check(channels c: Int, sourceWidth sw: Int, outputWidth ow: Int, taps: Int, seed: UInt64) {
        var rng = Floats(state: seed)
        let src = (0..<(sw * c + 1)).map { _ in rng.next() }
        var first: [Int] = []
        var count: [Int] = []
        for ox in 0..<ow {
            let n = 1 + (ox * 7 + Int(seed)) % taps
            let f = min(sw - n, (ox * sw) / max(1, ow))
            first.append(max(0, f))
            count.append(min(n, sw - max(0, f)))
        }
        let weights = (0..<(ow * taps)).map { _ in rng.next() / 997 }
        var want = [Float](repeating: 0, count: ow * c)
        for ox in 0..<ow {
            for k in 0..<c {
                var s: Float = 0
                for j in 0..<count[ox] { s += weights[ox * taps + j] * src[(first[ox] + j) * c + k] }
                want[ox * c + k] = s
            }
        }
        let sentinel: Float = -12345
        var got = [Float](repeating: sentinel, count: ow * c + 4)
        var input = src
        input.withUnsafeMutableBufferPointer { s in
            got.withUnsafeMutableBufferPointer { d in
                weights.withUnsafeBufferPointer { w in
                    let w4 = Resampler.replicatedWeights(w.baseAddress!, w.count)
                    defer { w4.deallocate() }
                    if c == 4 {
                        Resampler.filterRow4(s.baseAddress!, d.baseAddress!, ow, first, count, w4, taps)
                    } else {
                        Resampler.filterRow3(s.baseAddress!, d.baseAddress!, ow, first, count, w4, taps)
                    }
                }
            }
        }
        let label = "\(c) channels, \(sw) -> \(ow), \(taps) taps"
        #expect(got.prefix(ow * c).map(\.bitPattern) == want.map(\.bitPattern), "\(label)")
        #expect(got.suffix(4).allSatisfy { $0 == sentinel }, "\(label): written past the row")
    }

    @Test(arguments: [4, 3])
    func fourAtATimeIsPixelAtATime(channels: Int) {
        for (sw, ow, taps) in [(500, 128, 26), (37, 13, 9), (9, 5, 4), (3, 1, 3), (64, 63, 2), (1, 1, 1)] {
            for seed: UInt64 in [1, 2, 3] {
                check(channels: channels, sourceWidth: sw, outputWidth: ow, taps: taps, seed: seed)
            }
        }
    }
}
