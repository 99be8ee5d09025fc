import Testing

@testable import FZRender

/// The vertical pass's eight-at-a-time rounding (`clampBytes`) against the scalar rule
/// (`clampByte`) on every float a pass can give: below 0, the half-way points, above 255,
/// and lengths that leave a tail shorter than eight.
@Suite struct ResamplerClampTests {
    @Test func eightAtATimeIsTheScalarRule() {
        var values: [Float] = [
            -1e9, -300, -1, -0.5, -0.0, 0, 0.25, 0.4999, 0.49999997, 0.5, 0.5001, 1.5, 127.5, 254.4999, 254.5, 255,
            255.2, 1e9,
        ]
        var x: Float = -3
        while x < 259 {
            values.append(x)
            x += 0.0625
        }
        for n in [values.count, values.count - 1, values.count - 7, 7, 1] {
            var out = [UInt8](repeating: 77, count: n)
            values.withUnsafeBufferPointer { v in
                out.withUnsafeMutableBufferPointer { o in Resampler.clampBytes(v.baseAddress!, o.baseAddress!, n) }
            }
            #expect(out == values.prefix(n).map(Resampler.clampByte), "n = \(n)")
        }
    }
}
