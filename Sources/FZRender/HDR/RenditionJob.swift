import FZGainMap
import FZImage

/// One HDR rendition split into bands of rows (`GainMapRendition.render`): each band reads
/// the base and the map and writes only its own output rows, so bands run on any thread.
struct RenditionJob: @unchecked Sendable {
    /// Where an output column (or row) samples the map: two map columns and the weight of
    /// the second, pixel centres aligned.
    struct Tap {
        var i0: Int
        var i1: Int
        var f: Double
    }

    let base: Image
    let map: Image
    let format: PixelFormat
    let parameters: GainMapParameters
    let weight: Double
    let toLinear: ColorTransform
    /// Each channel's 256 linear values, when the base's profile is a curve per channel.
    let curves: [Float]?
    let toBT2020: ColorTransform?
    let columns: [Tap]
    let rows: [Tap]

    init(
        base: Image, map: Image, format: PixelFormat, parameters: GainMapParameters, weight: Double,
        toLinear: ColorTransform, curves: [Float]?, toBT2020: ColorTransform?
    ) {
        self.base = base
        self.map = map
        self.format = format
        self.parameters = parameters
        self.weight = weight
        self.toLinear = toLinear
        self.curves = curves
        self.toBT2020 = toBT2020
        columns = Self.taps(output: base.width, map: map.width)
        rows = Self.taps(output: base.height, map: map.height)
    }

    /// Output pixel k's centre, `k + 0.5`, at the map's scale, less the map's half pixel;
    /// clamped to the map's first and last centres (edges repeat).
    static func taps(output n: Int, map m: Int) -> [Tap] {
        (0..<n).map { k in
            let u = min(max((Double(k) + 0.5) * Double(m) / Double(n) - 0.5, 0), Double(m - 1))
            let i0 = Int(u)
            return Tap(i0: i0, i1: min(i0 + 1, m - 1), f: u - Double(i0))
        }
    }

    /// Renders rows `band * bandRows ..< (band + 1) * bandRows` into `out` (the whole image's
    /// bytes).
    /// Length: one function because it is the per-pixel loop, its buffers reused per row.
    func render(band: Int, into out: UnsafeMutablePointer<UInt8>) {
        let w = base.width
        let y0 = band * GainMapRendition.bandRows
        let y1 = min(base.height, y0 + GainMapRendition.bandRows)
        let baseStride = base.format.channels
        let linearChannels = base.format.isGray ? 1 : 3
        let colours = format.isGray ? 1 : 3
        let mapStride = map.format.channels
        let mapGray = map.format.isGray
        let outStride = format.channels
        let pq = PQTable.shared
        var input = [Float](repeating: 0, count: w * linearChannels)
        var linear = [Float](repeating: 0, count: w * linearChannels)
        var hdr = [Float](repeating: 0, count: w * colours)
        var wide = [Float](repeating: 0, count: toBT2020 == nil ? 0 : w * 3)
        base.pixels.withUnsafeBufferPointer { bp in
            map.pixels.withUnsafeBufferPointer { mp in
                for y in y0..<y1 {
                    let row = y * w * baseStride
                    if let curves {
                        for x in 0..<w {
                            for c in 0..<linearChannels {
                                let v = Int(bp[row + x * baseStride + c])
                                linear[x * linearChannels + c] = curves[v * linearChannels + c]
                            }
                        }
                    } else {
                        for x in 0..<w {
                            for c in 0..<linearChannels {
                                input[x * linearChannels + c] = Float(bp[row + x * baseStride + c]) / 255
                            }
                        }
                        input.withUnsafeBufferPointer { i in
                            linear.withUnsafeMutableBufferPointer {
                                toLinear.apply(i.baseAddress!, into: $0.baseAddress!, pixels: w)
                            }
                        }
                    }
                    let ty = rows[y]
                    let top = ty.i0 * map.width
                    let bottom = ty.i1 * map.width
                    for x in 0..<w {
                        let tx = columns[x]
                        for c in 0..<colours {
                            let mc = mapGray ? 0 : c
                            let a = Double(mp[(top + tx.i0) * mapStride + mc])
                            let b = Double(mp[(top + tx.i1) * mapStride + mc])
                            let d = Double(mp[(bottom + tx.i0) * mapStride + mc])
                            let e = Double(mp[(bottom + tx.i1) * mapStride + mc])
                            let upper = a + (b - a) * tx.f
                            let lower = d + (e - d) * tx.f
                            let sample = (upper + (lower - upper) * ty.f) / 255
                            let value = Double(linear[linearChannels == 1 ? x : x * 3 + c])
                            hdr[x * colours + c] = Float(
                                parameters.apply(value, sample: sample, channel: c, weight: weight))
                        }
                    }
                    if let toBT2020 {
                        hdr.withUnsafeBufferPointer { h in
                            wide.withUnsafeMutableBufferPointer {
                                toBT2020.apply(h.baseAddress!, into: $0.baseAddress!, pixels: w)
                            }
                        }
                    }
                    let shown = toBT2020 == nil ? hdr : wide
                    let o = out + y * w * outStride * 2
                    for x in 0..<w {
                        for c in 0..<colours {
                            let v = UInt16((pq(shown[x * colours + c]) * 65535).rounded())
                            o[(x * outStride + c) * 2] = UInt8(v >> 8)
                            o[(x * outStride + c) * 2 + 1] = UInt8(v & 0xFF)
                        }
                        if format.hasAlpha {  // a * 257: both bytes are the 8-bit alpha
                            let a = bp[row + x * baseStride + baseStride - 1]
                            o[(x * outStride + colours) * 2] = a
                            o[(x * outStride + colours) * 2 + 1] = a
                        }
                    }
                }
            }
        }
    }
}
