#if canImport(Glibc)
import Glibc
#endif

/// HDR video (PQ or HLG, BT.2020) mapped to SDR sRGB 8-bit for 8-bit outputs, with the still
/// HDR path's reference: SDR white is 203 cd/m² (ITU-R BT.2408, `GainMapRendition.sdrWhite`),
/// so PQ's 203 cd/m² and HLG's 75% signal become sRGB white's neighbourhood, as an HDR display
/// would show them beside SDR. Linear light is converted from BT.2020 to BT.709 primaries and
/// highlights above SDR white are compressed (extended Reinhard on the largest channel, to the
/// 1000 cd/m² mastering peak phones record), keeping hue; then sRGB's curve.
struct VideoTone {
    let transfer: VideoDetails.Transfer
    /// H.273 colour primaries (9: BT.2020; anything else is taken as BT.709).
    let primaries: Int

    static let sdrWhite = 203.0
    static let peak = 1000.0 / sdrWhite

    /// Linear light (1 = SDR white) of each 16-bit signal value, sampled every 16 codes.
    private func linearTable() -> [Float] {
        (0...4096).map { i in
            let e = min(1, Double(i) / 4096)
            switch transfer {
            case .pq: return Float(Self.pqLinear(e) * 10000 / Self.sdrWhite)
            case .hlg: return Float(Self.hlgLinear(e) * 1000 / Self.sdrWhite)
            case .sdr: return Float(e)
            }
        }
    }

    /// Maps RGB48 (host order) `deep` to RGB24 `out`, pixel for pixel.
    func map(_ deep: UnsafeMutableRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        let table = linearTable()
        let encode: [UInt8] = (0...4096).map { i in
            let v = Double(i) / 4096
            let s = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (s * 255).rounded())))
        }
        let wide = primaries == 9
        let samples = deep.bindMemory(to: UInt16.self)
        let bytes = out.bindMemory(to: UInt8.self)
        let pixels = min(samples.count / 3, bytes.count / 3)
        func linear(_ v: UInt16) -> Float {
            let x = Float(v) / 16
            let i = min(Int(x), 4095)
            return table[i] + (table[i + 1] - table[i]) * (x - Float(i))
        }
        let peak = Float(Self.peak)
        for p in 0..<pixels {
            var r = linear(samples[3 * p])
            var g = linear(samples[3 * p + 1])
            var b = linear(samples[3 * p + 2])
            if wide {  // BT.2020 to BT.709 primaries (ITU-R BT.2087)
                (r, g, b) = (
                    1.6605 * r - 0.5876 * g - 0.0728 * b, -0.1246 * r + 1.1329 * g - 0.0083 * b,
                    -0.0182 * r - 0.1006 * g + 1.1187 * b
                )
            }
            r = max(0, r)
            g = max(0, g)
            b = max(0, b)
            let m = max(r, g, b)
            if m > 0 {
                let scale = (1 + m / (peak * peak)) / (1 + m)
                r *= scale
                g *= scale
                b *= scale
            }
            bytes[3 * p] = encode[min(4096, Int(r * 4096 + 0.5))]
            bytes[3 * p + 1] = encode[min(4096, Int(g * 4096 + 0.5))]
            bytes[3 * p + 2] = encode[min(4096, Int(b * 4096 + 0.5))]
        }
    }

    /// SMPTE ST 2084's EOTF: the signal (0...1) as a fraction of 10,000 cd/m².
    static func pqLinear(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384
        let m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096
        let c2 = 2413.0 / 4096 * 32
        let c3 = 2392.0 / 4096 * 32
        let p = pow(e, 1 / m2)
        return pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// ARIB STD-B67's inverse OETF and BT.2100's OOTF (system gamma 1.2 at 1000 cd/m², on each
    /// channel): the signal as a fraction of the display's 1000 cd/m².
    static func hlgLinear(_ e: Double) -> Double {
        let a = 0.17883277
        let b = 0.28466892
        let c = 0.55991073
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return pow(scene, 1.2)
    }
}
