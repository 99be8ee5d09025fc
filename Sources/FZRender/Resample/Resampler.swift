import FZImage
import Geometry

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
    package let horizontal: AxisTaps
    package let vertical: AxisTaps
    /// Both axes' taps computed ahead (`withTables()`), or nil: each run computes its own.
    package var tables: ResampleTables?

    /// - Parameters:
    ///   - source: source size.
    ///   - output: output size.
    ///   - originX: source x of the output's left edge.
    ///   - originY: source y of the output's top edge.
    ///   - stepX: source pixels per output pixel along x (> 1 reduces).
    ///   - stepY: the same along y.
    ///   - format: the pixel layout (kept).
    ///   - filter: the kernel.
    public init(
        source: PixelSize, output: PixelSize, originX: Double = 0, originY: Double = 0,
        stepX: Double, stepY: Double, format: PixelFormat, filter: ResampleFilter
    ) {
        sourceSize = source
        outputSize = output
        self.format = format
        horizontal = AxisTaps(
            outputLength: output.width, sourceLength: source.width, origin: originX, step: stepX, filter: filter)
        vertical = AxisTaps(
            outputLength: output.height, sourceLength: source.height, origin: originY, step: stepY, filter: filter)
    }

    /// A resampler that maps the whole source onto the whole output.
    public init(source: PixelSize, output: PixelSize, format: PixelFormat, filter: ResampleFilter) {
        self.init(
            source: source, output: output, stepX: Double(source.width) / Double(output.width),
            stepY: Double(source.height) / Double(output.height), format: format, filter: filter)
    }

    /// Bytes a resampler for these sizes and steps would allocate (tap tables, the ring of
    /// filtered rows, the output), so a caller can refuse a hostile reduction first.
    public static func memoryNeeded(
        source: PixelSize, output: PixelSize, stepX: Double, stepY: Double,
        channels: Int, filter: ResampleFilter
    ) -> Int64 {
        func taps(_ step: Double) -> Int64 {
            filter == .nearest ? 1 : Int64((2 * filter.support * max(1, step)).rounded(.up)) + 2
        }
        let tx = taps(stepX)
        let ty = taps(stepY)
        let weights = (Int64(output.width) * tx + ty) * 4 + Int64(ty) * 8
        let ring = (ty + 1) * Int64(output.width) * Int64(channels) * 4
        let rows = Int64(source.width) * Int64(channels) * 5
        return weights + ring + rows + output.area * Int64(channels)
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
    /// (the output rows not reached then stay zero).
    public func run(provide: (Int, UnsafeMutablePointer<UInt8>) -> Bool) -> Image {
        var out = [UInt8](repeating: 0, count: outputSize.width * outputSize.height * format.channels)
        out.withUnsafeMutableBufferPointer { runRows(0..<outputSize.height, into: $0.baseAddress!, provide: provide) }
        return Image(width: outputSize.width, height: outputSize.height, format: format, pixels: out)
    }

    /// Output rows `rows` into `out` (the whole output's buffer), from source rows that
    /// `provide` fills in increasing order. With `seek` the source can start anywhere (it
    /// is held in memory), so the rows above the first one these output rows need are not
    /// asked for: two calls over two halves of the output then do half the work each.
    ///
    /// Length: long on purpose, a named hot loop (issue 34), the hot path of fit and thumb. The ring
    /// of horizontally filtered rows, `fill` and the vertical pass share the raw scratch
    /// pointers and the ring's bookkeeping; the per-channel row filters are already functions
    /// of their own (`filterRow1`...), and splitting what is left would pass that shared state
    /// to every piece.
    func runRows(
        _ rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>, seek: Bool = false,
        provide: (Int, UnsafeMutablePointer<UInt8>) -> Bool
    ) {
        let c = format.channels
        let ow = outputSize.width
        let sw = sourceSize.width
        let alpha = format.hasAlpha
        let ringSize = vertical.maxTaps + 1
        let rowFloats = ow * c
        // All scratch memory in one place, raw: the loops below are the hot path of fit and
        // thumb, and array bounds/exclusivity checks would double their cost.
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringSize * rowFloats)
        let acc = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
        let sourceRow = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, sw * c))
        // One float more than the row: `filterRow3` loads each pixel as four floats.
        let pre = UnsafeMutablePointer<Float>.allocate(capacity: sw * c + 1)
        defer {
            ring.deallocate()
            acc.deallocate()
            sourceRow.deallocate()
            pre.deallocate()
        }
        sourceRow.initialize(repeating: 0, count: max(1, sw * c))
        pre.initialize(repeating: 0, count: sw * c + 1)
        var ringRow = [Int](repeating: -1, count: ringSize)
        let vw = UnsafeMutablePointer<Float>.allocate(capacity: vertical.maxTaps)
        defer { vw.deallocate() }
        let tables = self.tables
        func verticalTaps(_ oy: Int) -> (first: Int, count: Int) {
            tables?.verticalTaps(oy, into: vw) ?? vertical.taps(oy, into: vw)
        }
        var nextSource = seek && !rows.isEmpty ? verticalTaps(rows.lowerBound).first : 0
        var delivering = true
        let hTable = tables?.horizontal ?? horizontal.table()
        // Only the source columns some output pixel reads are turned into floats: a crop's
        // window is often half of the rows it comes from (the same sums, less conversion).
        let used = zip(hTable.first, hTable.count).reduce((lo: sw, hi: 0)) { span, tap in
            (min(span.lo, tap.0), max(span.hi, tap.0 + tap.1))
        }
        let (usedLo, usedHi) = used.lo < used.hi ? (used.lo, min(sw, used.hi)) : (0, 0)

        hTable.weights.withUnsafeBufferPointer { hwBuf in
            hTable.first.withUnsafeBufferPointer { hFirst in
                hTable.count.withUnsafeBufferPointer { hCount in
                    do {
                        let hw = hwBuf.baseAddress!
                        let hTaps = horizontal.maxTaps
                        // Three and four channels filter four pixels at a time from weights
                        // repeated across a SIMD4's lanes (Resampler+PixelFilter.swift).
                        let hw4 = c == 3 || c == 4 ? Self.replicatedWeights(hw, hwBuf.count) : nil
                        defer { hw4?.deallocate() }
                        // Filters source row y horizontally into its ring slot.
                        func fill(_ y: Int) {
                            while nextSource <= y {
                                if delivering { delivering = provide(nextSource, sourceRow) }
                                nextSource += 1
                            }
                            if !delivering { return }  // nothing new to filter: the source has stopped
                            // Float copy of the row, premultiplied by alpha where there is alpha.
                            if alpha && c == 4 {
                                Self.premultiplyRGBA(sourceRow, pre, usedLo, usedHi)
                            } else if alpha {
                                for x in usedLo..<usedHi {
                                    let i = x * c
                                    let a = Float(sourceRow[i + c - 1])
                                    let f = a * (1 / 255)
                                    for k in 0..<(c - 1) { pre[i + k] = Float(sourceRow[i + k]) * f }
                                    pre[i + c - 1] = a
                                }
                            } else {
                                for i in (usedLo * c)..<(usedHi * c) { pre[i] = Float(sourceRow[i]) }
                            }
                            let slot = y % ringSize
                            ringRow[slot] = y
                            let base = ring + slot * rowFloats
                            switch c {
                            case 1: Self.filterRow1(pre, base, ow, hFirst.baseAddress!, hCount.baseAddress!, hw, hTaps)
                            case 3:
                                Self.filterRow3(pre, base, ow, hFirst.baseAddress!, hCount.baseAddress!, hw4!, hTaps)
                            case 4:
                                Self.filterRow4(pre, base, ow, hFirst.baseAddress!, hCount.baseAddress!, hw4!, hTaps)
                            default:
                                Self.filterRowN(pre, base, ow, c, hFirst.baseAddress!, hCount.baseAddress!, hw, hTaps)
                            }
                        }
                        for oy in rows {
                            let (f, n) = verticalTaps(oy)
                            // Tap windows only move down and the ring holds more rows than a window,
                            // so a missing row is always a new one: reading stays sequential.
                            for y in f..<(f + n) where ringRow[y % ringSize] != y {
                                fill(y)
                                if !delivering { break }
                            }
                            // The source ended (a decode error, or lenient data cut short): stop here
                            // instead of filtering the last row again for every row left; the rest of
                            // the output stays zero and the caller reports why.
                            if !delivering { break }
                            let w = vw
                            // Vertical pass: a plain multiply-add over contiguous floats (vectorises).
                            let first = ring + (f % ringSize) * rowFloats
                            let w0 = w[0]
                            for i in 0..<rowFloats { acc[i] = w0 * first[i] }
                            if n > 1 {
                                for j in 1..<n {
                                    let row = ring + ((f + j) % ringSize) * rowFloats
                                    let wj = w[j]
                                    for i in 0..<rowFloats { acc[i] += wj * row[i] }
                                }
                            }
                            let dst = out + oy * rowFloats
                            if alpha {
                                for ox in 0..<ow {
                                    let i = ox * c
                                    let a = acc[i + c - 1]
                                    let inv: Float = a > 0 ? 255 / a : 0
                                    for k in 0..<(c - 1) { dst[i + k] = Self.clampByte(acc[i + k] * inv) }
                                    dst[i + c - 1] = Self.clampByte(a)
                                }
                            } else {
                                Self.clampBytes(acc, dst, rowFloats)
                            }
                        }
                    }
                }
            }
        }
    }
}
