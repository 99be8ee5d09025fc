/// An axis-aligned scale-and-translate resampler: output pixel (ox, oy) shows source
/// coordinate (originX + (ox + 0.5) * stepX, originY + (oy + 0.5) * stepY).
///
/// Separable: each source row is filtered horizontally once (into a small ring of rows),
/// then output rows combine ring rows vertically, so memory is O(output width x taps),
/// not O(image). Colour is filtered premultiplied by alpha, so transparent pixels do not
/// bleed their (meaningless) colour into visible ones.
public struct Resampler: Sendable {
    public let sourceSize: PixelSize
    public let outputSize: PixelSize
    public let format: PixelFormat
    let horizontal: AxisTaps
    let vertical: AxisTaps

    /// - Parameters:
    ///   - source: source size.
    ///   - output: output size.
    ///   - originX: source x of the output's left edge.
    ///   - originY: source y of the output's top edge.
    ///   - stepX: source pixels per output pixel along x (> 1 reduces).
    ///   - stepY: the same along y.
    ///   - format: the pixel layout (kept).
    ///   - filter: the kernel.
    public init(source: PixelSize, output: PixelSize, originX: Double = 0, originY: Double = 0,
                stepX: Double, stepY: Double, format: PixelFormat, filter: ResampleFilter) {
        sourceSize = source
        outputSize = output
        self.format = format
        horizontal = AxisTaps(outputLength: output.width, sourceLength: source.width, origin: originX, step: stepX, filter: filter)
        vertical = AxisTaps(outputLength: output.height, sourceLength: source.height, origin: originY, step: stepY, filter: filter)
    }

    /// A resampler that maps the whole source onto the whole output.
    public init(source: PixelSize, output: PixelSize, format: PixelFormat, filter: ResampleFilter) {
        self.init(source: source, output: output, stepX: Double(source.width) / Double(output.width),
                  stepY: Double(source.height) / Double(output.height), format: format, filter: filter)
    }

    /// The source rows output row `oy` needs.
    public func sourceRows(forOutputRow oy: Int) -> Range<Int> {
        vertical.first[oy]..<(vertical.first[oy] + vertical.count[oy])
    }

    /// Resamples an image held in memory.
    public func resample(_ image: Image) -> Image {
        precondition(image.size == sourceSize && image.format == format, "source does not match the resampler")
        return image.pixels.withUnsafeBufferPointer { src in
            run { y, row in
                row.update(from: src.baseAddress! + y * image.stride, count: image.stride)
                return true
            }
        }
    }

    /// Resamples source rows delivered in increasing order by `provide(y, buffer)`, which
    /// fills one source row (`sourceSize.width * channels` bytes) and returns false to stop
    /// (the rest of the output then repeats the last rows delivered).
    public func run(provide: (Int, UnsafeMutablePointer<UInt8>) -> Bool) -> Image {
        let c = format.channels
        let ow = outputSize.width, oh = outputSize.height
        let alpha = format.hasAlpha
        let ringSize = vertical.maxTaps + 1
        var ring = [Float](repeating: 0, count: ringSize * ow * c)
        var ringRow = [Int](repeating: -1, count: ringSize)  // which source row each slot holds
        var sourceRow = [UInt8](repeating: 0, count: sourceSize.width * c)
        var premultiplied = [Float](repeating: 0, count: sourceSize.width * c)
        var nextSource = 0
        var lastDelivered = -1
        var out = [UInt8](repeating: 0, count: ow * oh * c)
        var acc = [Float](repeating: 0, count: ow * c)

        horizontal.weights.withUnsafeBufferPointer { hw in
        vertical.weights.withUnsafeBufferPointer { vw in
        ring.withUnsafeMutableBufferPointer { ringBuf in
        sourceRow.withUnsafeMutableBufferPointer { srow in
        premultiplied.withUnsafeMutableBufferPointer { pre in
        acc.withUnsafeMutableBufferPointer { accBuf in
        out.withUnsafeMutableBufferPointer { outBuf in
            let hTaps = horizontal.maxTaps, vTaps = vertical.maxTaps
            let sw = sourceSize.width
            // Filters source row y horizontally into its ring slot.
            func fill(_ y: Int) {
                while nextSource <= y {
                    if lastDelivered == nextSource - 1 && provide(nextSource, srow.baseAddress!) {
                        lastDelivered = nextSource
                    }
                    nextSource += 1
                }
                // Convert to float, premultiplied.
                for x in 0..<sw {
                    let i = x * c
                    if alpha {
                        let a = Float(srow[i + c - 1])
                        let f = a / 255
                        for k in 0..<(c - 1) { pre[i + k] = Float(srow[i + k]) * f }
                        pre[i + c - 1] = a
                    } else {
                        for k in 0..<c { pre[i + k] = Float(srow[i + k]) }
                    }
                }
                let slot = y % ringSize
                ringRow[slot] = y
                let base = ringBuf.baseAddress! + slot * ow * c
                for ox in 0..<ow {
                    let f = horizontal.first[ox], n = horizontal.count[ox]
                    let w = hw.baseAddress! + ox * hTaps
                    for k in 0..<c {
                        var s: Float = 0
                        for j in 0..<n { s += w[j] * pre[(f + j) * c + k] }
                        base[ox * c + k] = s
                    }
                }
            }
            for oy in 0..<oh {
                let f = vertical.first[oy], n = vertical.count[oy]
                for y in f..<(f + n) where ringRow[y % ringSize] != y {
                    // Tap windows only move down and the ring holds more rows than a
                    // window, so a missing row is always a new one: reading stays sequential.
                    fill(y)
                }
                for i in 0..<(ow * c) { accBuf[i] = 0 }
                let w = vw.baseAddress! + oy * vTaps
                for j in 0..<n {
                    let row = ringBuf.baseAddress! + ((f + j) % ringSize) * ow * c
                    let wj = w[j]
                    for i in 0..<(ow * c) { accBuf[i] += wj * row[i] }
                }
                let dst = outBuf.baseAddress! + oy * ow * c
                for ox in 0..<ow {
                    let i = ox * c
                    if alpha {
                        let a = accBuf[i + c - 1]
                        let inv: Float = a > 0 ? 255 / a : 0
                        for k in 0..<(c - 1) { dst[i + k] = Self.clampByte(accBuf[i + k] * inv) }
                        dst[i + c - 1] = Self.clampByte(a)
                    } else {
                        for k in 0..<c { dst[i + k] = Self.clampByte(accBuf[i + k]) }
                    }
                }
            }
        }}}}}}}
        return Image(width: ow, height: oh, format: format, pixels: out)
    }

    @inline(__always)
    static func clampByte(_ v: Float) -> UInt8 {
        let r = (v + 0.5).rounded(.down)
        return r <= 0 ? 0 : (r >= 255 ? 255 : UInt8(r))
    }
}
