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
    /// `reduced(to:)` of the size asked for in `decode(reducing:)`, made while decoding.
    let early: (size: PixelSize, image: Image)?
    /// Threads one image may use (`DecodeOptions.threads`: 1 in a batch of several at once).
    let threads: Int

    /// Decodes `reader` (consumed) whole at the denominator a pipeline to `target` from an
    /// upright window of `window` pixels would use, or at full scale averaged by the decoder
    /// over the blocks the pipeline would ask it for (HEIF grids); nil, with `reader`
    /// untouched, when it can do neither (holding the full image would cost more memory than
    /// a second decode costs time).
    /// With `reducing`, `reduced(to: reducing)` is made on a second thread as the rows
    /// arrive, so the score map waits for the decode's last rows only (issue 49).
    public static func decode(
        _ reader: ImageReader, target: PixelSize, window: (width: Double, height: Double), headroom: Int,
        reducing: PixelSize? = nil
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
        var early: Image?
        let mapBox = reducing.map { r in
            Resampler(
                source: size, output: o.swapsAxes ? r.transposed : r, format: header.pixelFormat, filter: .box)
        }
        image.pixels.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            early = HeldRows.reducing(
                with: mapBox, threads: reader.options.threads, base: base, rowBytes: rowBytes, height: size.height
            ) { publish in
                for y in 0..<size.height {
                    do throws(DecodeError) {
                        if try !reader.readNextRow(into: base + y * rowBytes) { break }
                    } catch {
                        failure = error
                        break
                    }
                    publish(y + 1)
                }
            }
        }
        if let failure { throw failure }
        return HeldDecode(
            rows: image, denominator: d, blocks: blocks, orientation: o, stored: stored,
            early: early.map { (reducing!, $0.oriented(o)) }, threads: reader.options.threads)
    }

    /// The whole upright image at `size`, box-averaged (the interest map's pixels).
    public func reduced(to size: PixelSize) -> Image {
        if let early, early.size == size { return early.image }
        let storedSize = orientation.swapsAxes ? size.transposed : size
        return Resampler(source: rows.size, output: storedSize, format: rows.format, filter: .box)
            .resample(rows, threads: threads)
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
        // The resampler's source held whole (the held rows, or their box average: the same
        // rows the pipeline's stream gives), so that its output's halves go on two threads.
        var source = rows
        if !(averaged || (bx == 1 && by == 1)) {
            let rowBytes = size.width * rows.format.channels
            let held = rows
            var y = 0
            let next = box.rows { row in
                guard y < size.height else { return false }
                held.pixels.withUnsafeBufferPointer { p in
                    row.update(from: p.baseAddress! + y * rowBytes, count: rowBytes)
                }
                y += 1
                return true
            }
            let shrunk = box.outputSize
            source = Image(width: shrunk.width, height: shrunk.height, format: rows.format)
            let shrunkBytes = shrunk.width * rows.format.channels
            source.pixels.withUnsafeMutableBufferPointer { p in
                for r in 0..<shrunk.height where !next(p.baseAddress! + r * shrunkBytes) { break }
            }
        }
        return resampler.resample(source, threads: threads).oriented(o)
    }
}
