import FZFormat
import FZImage
import FZSystem
import Geometry

/// Decodes a whole image, or an upright window of it, resampled to a target size, the fast
/// way: the decoder's own reduction (JPEG DCT scaling) to the smallest scale that keeps the
/// window at least `headroom` times the target, optionally a box average of whole blocks,
/// rows pulled one at a time into the resampler in stored orientation, and only the small
/// result turned upright. Works with any decoder through `ImageReader`'s row stream.
public struct ReductionPipeline: Sendable {
    /// The upright output size.
    public var target: PixelSize
    /// The upright source region shown (sub-pixel allowed); nil for all of it.
    public var window: Rect?
    /// The kernel (a reduction stretches it by the scale: alias-free).
    public var filter: ResampleFilter
    /// Keep the reduced window at least this many times the target. DCT scaling and box
    /// averaging alias; 2 leaves the filter a factor of 2 to remove that, as vipsthumbnail
    /// does (measured on real photos against a Lanczos reduction of the full decode: 30 dB
    /// at 1, 42 dB at 2, on the worst one).
    public var headroom: Int
    /// Also average whole blocks of rows and columns (PNG, or what DCT scaling left) before
    /// the filter: a large reduction then costs one addition per source sample instead of a
    /// wide kernel.
    public var boxShrink: Bool
    /// Threads: with 2 or more, and a large image, the decoder runs on its own thread and
    /// hands rows through a bounded `RowQueue` to the resampler on this one (measured with
    /// callgrind on fit of a 20 MP JPEG: decode 30% and resampling 32% of the instructions).
    public var threads: Int

    /// Decoded rows below which the pipeline stays on one thread.
    package static let pipelinedPixels: Int64 = 1 << 20

    public init(
        target: PixelSize, window: Rect? = nil, filter: ResampleFilter, headroom: Int = 1, boxShrink: Bool = false,
        threads: Int = 1
    ) {
        self.threads = threads
        self.target = target
        self.window = window
        self.filter = filter
        self.headroom = headroom
        self.boxShrink = boxShrink
    }

    /// Runs the pipeline over `reader` (consumed).
    /// - Returns: the upright image at `target` size, and the decoder's denominator used.
    /// - Throws: `DecodeError`, including the memory limit for the resampler's buffers.
    public func run(_ reader: ImageReader) throws(DecodeError) -> (Image, Int) {
        let header = reader.header
        let o = header.orientation
        let stored = header.storedSize
        let storedTarget = o.swapsAxes ? target.transposed : target
        let region =
            window.map { o.storedRect(forUpright: $0, stored: stored) }
            ?? Rect(x: 0, y: 0, width: Double(stored.width), height: Double(stored.height))
        // The whole image must stay this large for the region to stay at least the target
        // (the epsilon keeps an exact fit exact: 256 * 6016 / 6016 is not always 256.0).
        let k = Double(max(1, headroom))
        let minimum = PixelSize(
            width: Int((k * Double(storedTarget.width) * Double(stored.width) / region.width - 1e-9).rounded(.up)),
            height: Int((k * Double(storedTarget.height) * Double(stored.height) / region.height - 1e-9).rounded(.up)))
        let d = reader.reductionDenominator(keepingAtLeast: minimum)
        // Whole blocks that still keep the region at least `headroom` times the target.
        func factor(_ regionLength: Double, _ targetLength: Int) -> Int {
            guard boxShrink else { return 1 }
            return min(BoxShrink.maximumFactor, max(1, Int(regionLength / (k * Double(targetLength)))))
        }
        // At full scale the decoder may average the blocks itself, before converting its
        // colours (HEIF grids): the same blocks, the RGB rows never made.
        var averaged = false
        let size: PixelSize
        if d == 1, boxShrink, factor(region.width, storedTarget.width) * factor(region.height, storedTarget.height) > 1,
            try reader.beginBlockRows(
                factorX: factor(region.width, storedTarget.width), factorY: factor(region.height, storedTarget.height))
                != nil
        {
            (size, averaged) = (stored, true)
        } else {
            size = try reader.beginRows(denominator: d)
        }
        let fx = Double(size.width) / Double(stored.width)
        let fy = Double(size.height) / Double(stored.height)
        let bx = factor(region.width * fx, storedTarget.width)
        let by = factor(region.height * fy, storedTarget.height)
        let box = BoxShrink(source: size, factorX: bx, factorY: by, format: header.pixelFormat)
        // Source x maps to decoder-scaled x * fx, then to box x * fx / bx (blocks start at 0).
        let sx = fx / Double(bx)
        let sy = fy / Double(by)
        let stepX = region.width * sx / Double(storedTarget.width)
        let stepY = region.height * sy / Double(storedTarget.height)
        try reader.options.checkMemory(
            Resampler.memoryNeeded(
                source: box.outputSize, output: storedTarget, stepX: stepX, stepY: stepY,
                channels: header.pixelFormat.channels, filter: filter), path: reader.path)
        let resampler = Resampler(
            source: box.outputSize, output: storedTarget, originX: region.x * sx, originY: region.y * sy,
            stepX: stepX, stepY: stepY, format: header.pixelFormat, filter: filter)
        let source = RowSource(reader: reader, box: averaged || (bx == 1 && by == 1) ? nil : box)
        var small: Image?
        // Rows the decoder averaged come cheap: the resampler pulls them on this thread.
        if !averaged && threads > 1 && Int64(size.width) * Int64(size.height) >= Self.pipelinedPixels {
            let queue = RowQueue(rowBytes: box.outputSize.width * header.pixelFormat.channels, slots: 32)
            _ = Threads.alongside(
                {
                    while queue.produce(source.next) {}
                    queue.finish()
                },
                {
                    small = resampler.run { _, row in queue.consume(into: row) }
                    queue.cancel()
                })
        }
        let image = small ?? resampler.run { _, row in source.next(row) }
        if let failure = source.failure { throw failure }
        return (image.oriented(o), d)
    }
}

/// The rows the resampler reads: decoded, then box-averaged when asked. Used by one thread
/// at a time (the decoding thread when pipelined), so unchecked Sendable. Also the rows of
/// `ReductionFanOut`.
final class RowSource: @unchecked Sendable {
    private(set) var failure: DecodeError?
    private(set) var next: (UnsafeMutablePointer<UInt8>) -> Bool = { _ in false }

    init(reader: ImageReader, box: BoxShrink?) {
        let pull: (UnsafeMutablePointer<UInt8>) -> Bool = { [unowned self] row in
            do throws(DecodeError) { return try reader.readNextRow(into: row) } catch {
                self.failure = error
                return false
            }
        }
        next = box.map { $0.rows(pulling: pull) } ?? pull
    }
}

extension ImageReader {
    /// Runs a `ReductionPipeline` over this reader: the whole image, or an upright `window`
    /// of it, resampled to `target` (upright size). See `ReductionPipeline` for the steps.
    public func readResampled(
        to target: PixelSize, window: Rect? = nil, filter: ResampleFilter,
        headroom: Int = 1, boxShrink: Bool = false, threads: Int = 1
    ) throws(DecodeError) -> (Image, Int) {
        try ReductionPipeline(
            target: target, window: window, filter: filter, headroom: headroom, boxShrink: boxShrink,
            threads: threads
        ).run(self)
    }
}
