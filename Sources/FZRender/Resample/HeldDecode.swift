import FZFormat
import FZImage
import FZSystem
import Geometry

/// One reduced decode kept for two uses. `thumb --crop-at attention` decoded a JPEG twice:
/// once small for the interest map, once for the thumbnail of the window it chose (issue 49:
/// 0.97x vipsthumbnail's time on the 20 MP JPEG). Here the whole image is decoded once, at
/// the reduction a `ReductionPipeline` for a window of that size chooses (JPEG DCT scaling),
/// and held in stored orientation; the interest map's pixels come from it, and then the
/// pipeline's output for the window found, made from the held rows with the pipeline's own
/// arithmetic (its box factors, its resampler), so the thumbnail is the one the file gives.
public struct HeldDecode: Sendable {
    /// The whole image at 1/`denominator`, stored orientation.
    public let rows: Image
    public let denominator: Int
    /// The decoder averaged whole blocks of this many pixels itself (HEIF grids, at full
    /// scale: `ImageReader.beginBlockRows`), as the pipeline has it do; 1 x 1 otherwise.
    let blocks: (x: Int, y: Int)
    let orientation: Orientation
    let stored: PixelSize

    /// Decodes `reader` (consumed) whole at the denominator a pipeline to `target` from an
    /// upright window of `window` pixels would use, or at full scale averaged by the decoder
    /// over the blocks the pipeline would ask it for (HEIF grids); nil, with `reader`
    /// untouched, when it can do neither (holding the full image would cost more memory than
    /// a second decode costs time).
    public static func decode(
        _ reader: ImageReader, target: PixelSize, window: (width: Double, height: Double), headroom: Int
    ) throws(DecodeError) -> HeldDecode? {
        let header = reader.header
        let o = header.orientation
        let stored = header.storedSize
        let storedTarget = o.swapsAxes ? target.transposed : target
        let region = o.swapsAxes ? (window.height, window.width) : (window.width, window.height)
        let k = Double(max(1, headroom))
        // As `ReductionPipeline.run` works it out: the region's size alone decides.
        let minimum = PixelSize(
            width: Int((k * Double(storedTarget.width) * Double(stored.width) / region.0 - 1e-9).rounded(.up)),
            height: Int((k * Double(storedTarget.height) * Double(stored.height) / region.1 - 1e-9).rounded(.up)))
        let d = reader.reductionDenominator(keepingAtLeast: minimum)
        var blocks = (x: 1, y: 1)
        let size: PixelSize
        if d > 1 {
            size = try reader.beginRows(denominator: d)
        } else {
            func factor(_ regionLength: Double, _ targetLength: Int) -> Int {
                min(BoxShrink.maximumFactor, max(1, Int(regionLength / (k * Double(targetLength)))))
            }
            blocks = (factor(region.0, storedTarget.width), factor(region.1, storedTarget.height))
            guard blocks.x * blocks.y > 1,
                let averaged = try reader.beginBlockRows(factorX: blocks.x, factorY: blocks.y)
            else { return nil }
            size = averaged
        }
        let c = header.pixelFormat.channels
        try reader.options.checkMemory(Int64(size.width) * Int64(size.height) * Int64(c), path: reader.path)
        var image = Image(width: size.width, height: size.height, format: header.pixelFormat)
        let rowBytes = size.width * c
        var failure: DecodeError?
        image.pixels.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for y in 0..<size.height {
                do throws(DecodeError) {
                    if try !reader.readNextRow(into: base + y * rowBytes) { break }
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw failure }
        return HeldDecode(rows: image, denominator: d, blocks: blocks, orientation: o, stored: stored)
    }

    /// The whole upright image at `size`, box-averaged (the interest map's pixels).
    public func reduced(to size: PixelSize) -> Image {
        let storedSize = orientation.swapsAxes ? size.transposed : size
        return Resampler(source: rows.size, output: storedSize, format: rows.format, filter: .box).resample(rows)
            .oriented(orientation)
    }

    /// What `ReductionPipeline(target:window:filter:headroom:boxShrink: true)` makes of the
    /// file, made from the held rows: the same box factors and resampler over the same rows.
    public func resampled(to target: PixelSize, window: Rect, filter: ResampleFilter, headroom: Int) -> Image {
        let o = orientation
        let storedTarget = o.swapsAxes ? target.transposed : target
        let region = o.storedRect(forUpright: window, stored: stored)
        let k = Double(max(1, headroom))
        let size = rows.size
        func factor(_ regionLength: Double, _ targetLength: Int) -> Int {
            min(BoxShrink.maximumFactor, max(1, Int(regionLength / (k * Double(targetLength)))))
        }
        // Averaged by the decoder, the pipeline counts the rows at full scale, its blocks done.
        let averaged = blocks.x * blocks.y > 1
        let full = averaged ? stored : size
        let fx = Double(full.width) / Double(stored.width)
        let fy = Double(full.height) / Double(stored.height)
        let bx = averaged ? blocks.x : factor(region.width * fx, storedTarget.width)
        let by = averaged ? blocks.y : factor(region.height * fy, storedTarget.height)
        let box = BoxShrink(source: full, factorX: bx, factorY: by, format: rows.format)
        let sx = fx / Double(bx)
        let sy = fy / Double(by)
        let resampler = Resampler(
            source: box.outputSize, output: storedTarget, originX: region.x * sx, originY: region.y * sy,
            stepX: region.width * sx / Double(storedTarget.width),
            stepY: region.height * sy / Double(storedTarget.height),
            format: rows.format, filter: filter)
        let rowBytes = size.width * rows.format.channels
        let held = rows
        var y = 0
        let pull: (UnsafeMutablePointer<UInt8>) -> Bool = { row in
            guard y < size.height else { return false }
            held.pixels.withUnsafeBufferPointer { p in
                row.update(from: p.baseAddress! + y * rowBytes, count: rowBytes)
            }
            y += 1
            return true
        }
        let next = averaged || (bx == 1 && by == 1) ? pull : box.rows(pulling: pull)
        return resampler.run { _, row in next(row) }.oriented(o)
    }
}
