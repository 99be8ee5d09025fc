import FZFormat
import FZImage
import FZSystem
import Geometry
import Glibc

/// Several sizes of one image from one streamed decode (`thumb --size 320,640,1280`): the
/// arithmetic of `ReductionPipeline` taken over every target (the densest decides the
/// decoder's denominator and the box factors, so that target comes out exactly as the
/// pipeline makes it alone), and each decoded row handed to one resampler per target that
/// is made from the decode. Nothing but a few rows per target is held, and with threads
/// the decode runs beside the resampling, as a single size does.
public struct ReductionFanOut: Sendable {
    /// One size: its upright output and the upright source region it shows.
    public struct Target: Sendable {
        public var size: PixelSize
        public var window: Rect
        public init(size: PixelSize, window: Rect) {
            self.size = size
            self.window = window
        }
    }

    /// What a run made.
    public struct Result {
        /// The upright image of each target fed from the decode; nil for the others.
        public var images: [Image?]
        /// The decoder's denominator.
        public var denominator: Int
        /// Pixels of the reduced decode per upright source pixel, across and down.
        public var kx: Double
        public var ky: Double
    }

    public var targets: [Target]
    public var filter: ResampleFilter
    /// As `ReductionPipeline.headroom`, for every target.
    public var headroom: Int
    /// Threads: with 2 or more, and a large image, the decoder runs on its own thread as in
    /// `ReductionPipeline`. Two or more targets fed from the decode always take one thread
    /// each (the resampler pulls its rows, so two cannot share one thread without holding
    /// the decode; threads cost less than that memory).
    public var threads: Int

    public init(targets: [Target], filter: ResampleFilter, headroom: Int, threads: Int) {
        self.targets = targets
        self.filter = filter
        self.headroom = headroom
        self.threads = threads
    }

    /// Decodes `reader` (consumed) once.
    /// - Parameter feeding: given the reduced decode's scale (upright kx, ky), which targets
    ///   are made from it (the others are left to the caller, made from a larger result).
    /// - Throws: `DecodeError`, including the memory limit for the resamplers' buffers.
    public func run(_ reader: ImageReader, feeding: (Double, Double) -> [Bool]) throws(DecodeError) -> Result {
        let header = reader.header
        let o = header.orientation
        let stored = header.storedSize
        let k = Double(max(1, headroom))
        // Per target, in stored orientation: its region and output.
        let spans = targets.map { t in
            (
                region: o.storedRect(forUpright: t.window, stored: stored),
                target: o.swapsAxes ? t.size.transposed : t.size
            )
        }
        let d = reader.reductionDenominator(keepingAtLeast: Self.smallestDecode(spans, stored: stored, headroom: k))
        func factor(_ regionLength: Double, _ targetLength: Int) -> Int {
            min(BoxShrink.maximumFactor, max(1, Int(regionLength / (k * Double(targetLength)))))
        }
        // At full scale the decoder may average the blocks itself (as `ReductionPipeline`).
        let full = (
            x: spans.map { factor($0.region.width, $0.target.width) }.min() ?? 1,
            y: spans.map { factor($0.region.height, $0.target.height) }.min() ?? 1
        )
        var averaged = false
        let size: PixelSize
        if d == 1, full.x * full.y > 1, try reader.beginBlockRows(factorX: full.x, factorY: full.y) != nil {
            (size, averaged) = (stored, true)
        } else {
            size = try reader.beginRows(denominator: d)
        }
        let fx = Double(size.width) / Double(stored.width)
        let fy = Double(size.height) / Double(stored.height)
        let bx = spans.map { factor($0.region.width * fx, $0.target.width) }.min() ?? 1
        let by = spans.map { factor($0.region.height * fy, $0.target.height) }.min() ?? 1
        let box = BoxShrink(source: size, factorX: bx, factorY: by, format: header.pixelFormat)
        let sx = fx / Double(bx)
        let sy = fy / Double(by)
        let fed = feeding(o.swapsAxes ? sy : sx, o.swapsAxes ? sx : sy)
        let c = header.pixelFormat.channels
        let planned = resamplers(spans, fed: fed, from: box.outputSize, scale: (sx, sy), header.pixelFormat)
        let resamplers = planned.resamplers
        var memory = planned.memory
        let rowBytes = box.outputSize.width * c
        memory += Int64(rowBytes) * Int64(RowFanOut.slots * resamplers.count + 1)
        try reader.options.checkMemory(memory, path: reader.path)
        let source = RowSource(reader: reader, box: averaged || (bx == 1 && by == 1) ? nil : box)
        let threaded =
            resamplers.count > 1
            || (!averaged && threads > 1 && Int64(size.width) * Int64(size.height) >= ReductionPipeline.pipelinedPixels)
        let made: [Image]
        if resamplers.isEmpty {
            made = []
        } else if resamplers.count == 1 && !threaded {
            made = [resamplers[0].resampler.run { _, row in source.next(row) }]
        } else {
            guard
                let images = RowFanOut(rowBytes: rowBytes).run(
                    source, resamplers.map(\.resampler))
            else {
                throw .readFailed(path: reader.path, reason: "the system refused a thread; try fewer --jobs")
            }
            made = images
        }
        if let failure = source.failure { throw failure }
        var images = [Image?](repeating: nil, count: targets.count)
        for (n, r) in resamplers.enumerated() { images[r.index] = made[n].oriented(o) }
        return Result(images: images, denominator: d, kx: o.swapsAxes ? sy : sx, ky: o.swapsAxes ? sx : sy)
    }

    /// The smallest decode (stored orientation) that keeps `headroom` source pixels per output
    /// pixel for every target's region.
    static func smallestDecode(
        _ spans: [(region: Rect, target: PixelSize)], stored: PixelSize, headroom k: Double
    ) -> PixelSize {
        var minimum = PixelSize(width: 1, height: 1)
        for s in spans {
            minimum = PixelSize(
                width: max(
                    minimum.width,
                    Int((k * Double(s.target.width) * Double(stored.width) / s.region.width - 1e-9).rounded(.up))),
                height: max(
                    minimum.height,
                    Int((k * Double(s.target.height) * Double(stored.height) / s.region.height - 1e-9).rounded(.up))))
        }
        return minimum
    }

    /// A resampler per fed target, from `source` (the box-shrunk decode, scaled by `scale` from
    /// the stored image), with the memory their buffers take.
    func resamplers(
        _ spans: [(region: Rect, target: PixelSize)], fed: [Bool], from source: PixelSize,
        scale: (x: Double, y: Double),
        _ format: PixelFormat
    ) -> (resamplers: [(index: Int, resampler: Resampler)], memory: Int64) {
        var resamplers: [(index: Int, resampler: Resampler)] = []
        var memory: Int64 = 0
        for (i, s) in spans.enumerated() where fed[i] {
            let stepX = s.region.width * scale.x / Double(s.target.width)
            let stepY = s.region.height * scale.y / Double(s.target.height)
            memory += Resampler.memoryNeeded(
                source: source, output: s.target, stepX: stepX, stepY: stepY, channels: format.channels,
                filter: filter)
            resamplers.append(
                (
                    i,
                    Resampler(
                        source: source, output: s.target, originX: s.region.x * scale.x,
                        originY: s.region.y * scale.y, stepX: stepX, stepY: stepY, format: format, filter: filter)
                ))
        }
        return (resamplers, memory)
    }
}

/// Rows of one producer (the decoder, on its own thread) copied into one `RowQueue` per
/// resampler, each resampler on a thread of its own (the first on the calling one).
private struct RowFanOut {
    static let slots = 32
    let rowBytes: Int

    /// One resampler's image, written by its thread and read after the join.
    private final class Slot: @unchecked Sendable {
        var image: Image?
    }

    /// Runs the producer and the resamplers to the end: their images in order, or nil when
    /// the system refused a thread (every thread started is stopped and joined first).
    func run(_ source: RowSource, _ resamplers: [Resampler]) -> [Image]? {
        let rowBytes = rowBytes
        let queues = resamplers.map { _ in RowQueue(rowBytes: rowBytes, slots: Self.slots) }
        let slots = resamplers.map { _ in Slot() }
        var started: [pthread_t] = []
        var refused = false
        for n in 1..<max(1, resamplers.count) {
            let (queue, resampler, slot) = (queues[n], resamplers[n], slots[n])
            guard
                let id = Threads.spawn({
                    slot.image = resampler.run { _, row in queue.consume(into: row) }
                    queue.cancel()
                })
            else {
                refused = true
                break
            }
            started.append(id)
        }
        if !refused, let id = Threads.spawn({ Self.produce(source, into: queues, rowBytes: rowBytes) }) {
            started.append(id)
            slots[0].image = resamplers[0].run { _, row in queues[0].consume(into: row) }
            queues[0].cancel()
        } else {
            refused = true
            // The consumers already waiting see the end of their rows and stop.
            for queue in queues { queue.finish() }
        }
        for id in started { pthread_join(id, nil) }
        return refused ? nil : slots.map { $0.image! }
    }

    /// The producer: each decoded row into every queue still wanted, until the rows end or
    /// no resampler wants more (a window above the bottom of the image).
    private static func produce(_ source: RowSource, into queues: [RowQueue], rowBytes: Int) {
        defer { for queue in queues { queue.finish() } }
        if queues.count == 1 {
            while queues[0].produce(source.next) {}
            return
        }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, rowBytes))
        defer { row.deallocate() }
        var live = queues
        while !live.isEmpty && source.next(row) {
            live.removeAll { queue in
                !queue.produce { slot in
                    slot.update(from: row, count: rowBytes)
                    return true
                }
            }
        }
    }
}
