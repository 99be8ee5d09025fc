import FZCodecs
import FZFormat
import FZImage
import FZRender
import FZSystem
import Geometry

/// `thumb --animated` (issue 50): an animated GIF, WebP or APNG becomes an animated WebP or APNG
/// (the output name's extension chooses) that still moves. The frames stream: each is
/// composited on the decoder's canvas (`AnimationSource`: at most two canvases), reduced
/// to every size of the ladder with the still thumbnail's Lanczos-3 window, converted as a
/// still is, and handed to each size's writer, which compresses it at once; only the
/// compressed frames wait for the end. Delays are the file's, but 10 ms or less shows as
/// 100 ms (as browsers show it); the loop count is kept (a GIF without a looping extension
/// plays once). A still input, or an output format without animation, is a still thumbnail.
extension Thumbnailer {
    /// The pixels all frames of one input may cost, frames x canvas: past it the rest are
    /// dropped (with a warning), so a 65,535-frame GIF on a large screen ends in bounded time.
    public static let animationWorkLimit: Int64 = 1 << 30

    /// One output of an animation: its job, geometry and the result it fills.
    struct AnimatedOutput {
        var job: ThumbnailPlan.Job
        var geometry: ThumbnailGeometry
        var slot: Int
    }

    /// What an animated thumbnail holds: the frames written and read, its length and loops.
    public struct AnimationSummary: Sendable, Equatable {
        /// Frames in the output (a WebP merges a frame identical to the one before into it).
        public var frames: Int
        /// Frames of the input that were composited (after --max-frames, --max-duration).
        public var framesRead: Int
        /// Frames in the input.
        public var framesInInput: Int
        /// The sum of the output's delays, in milliseconds.
        public var milliseconds: Int
        /// Plays, 0 forever.
        public var loop: Int

        package init(frames: Int, framesRead: Int, framesInInput: Int, milliseconds: Int, loop: Int) {
            (self.frames, self.framesRead, self.framesInInput) = (frames, framesRead, framesInInput)
            (self.milliseconds, self.loop) = (milliseconds, loop)
        }

        /// The record's `"animation"` object (thumb's and crop's schemas).
        package var json: JSON {
            .object([
                ("frames", .int(Int64(frames))), ("framesRead", .int(Int64(framesRead))),
                ("framesInInput", .int(Int64(framesInInput))), ("milliseconds", .int(Int64(milliseconds))),
                ("loop", .int(Int64(loop))),
            ])
        }
    }

    /// Makes `outputs` as animations when the input is one and every output's format holds
    /// animations; false (nothing read) when the still path should make them instead.
    func makeAnimated(
        _ reader: ImageReader, _ outputs: [AnimatedOutput], into results: inout [ThumbnailResult],
        shouldStop: () -> Bool
    ) throws(ThumbnailError) -> Bool {
        guard animated, !outputs.isEmpty else { return false }
        guard reader.animationFrameCount > 1 else { return false }
        if let still = outputs.first(where: { !AnimationWriter.writes($0.job.format) }) {
            results[still.slot].warnings.append(
                "\(still.job.format.name) holds no animation: the first frame is used (name the output .webp or .png)")
            return false
        }
        let source: any AnimationSource
        do {
            guard let s = try reader.animation() else { return false }
            source = s
        } catch { throw .decode(error) }
        let summary = try streamFrames(
            PrefetchedFrames.wrap(source, threads: encodeThreads), reader, outputs, into: &results,
            shouldStop: shouldStop)
        for o in outputs { results[o.slot].animation = summary }
        return true
    }

    /// Reads, reduces and writes every frame kept; the writers' files at the end.
    private func streamFrames(
        _ source: any AnimationSource, _ reader: ImageReader, _ outputs: [AnimatedOutput],
        into results: inout [ThumbnailResult], shouldStop: () -> Bool
    ) throws(ThumbnailError) -> AnimationSummary {
        let input = reader.path
        let canvas = source.canvasSize
        let orientation = reader.header.orientation
        let (resamplers, writers) = try makeWriters(source, reader, outputs)
        var kept = 0
        var elapsed = 0
        var stop: String?
        let color = reader.header.color
        var colorWarning: String?
        do {
            while true {
                if shouldStop() { throw ThumbnailError.interrupted(path: input) }
                stop = stopReason(kept: kept, elapsed: elapsed, canvas: canvas)
                if stop != nil { break }
                let more = try source.next { pixels, stated in
                    let delay = AnimationTiming.shownDelay(stated)
                    let oriented: Image? =
                        orientation == .up
                        ? nil
                        : Image(width: canvas.width, height: canvas.height, format: .rgba, pixels: Array(pixels))
                            .oriented(orientation)
                    for (n, resampler) in resamplers.enumerated() {
                        var frame =
                            oriented.map(resampler.whole.resample)
                            ?? Self.reduce(pixels, canvas, resampler, threads: encodeThreads)
                        let warning = try colorPolicy.convert(&frame, from: color, path: input, lenient: decode.lenient)
                        if colorWarning == nil { colorWarning = warning }
                        try writers[n].add(frame, delay: delay)
                    }
                    elapsed += delay
                }
                if !more { break }
                kept += 1
            }
        } catch {
            throw Self.thumbnailError(error, path: input)
        }
        if kept == 0 { throw .decode(.corrupt(path: input, detail: "the animation has no frame that decodes")) }
        var summary = AnimationSummary(
            frames: kept, framesRead: kept, framesInInput: source.frameCount, milliseconds: elapsed,
            loop: source.loopCount)
        for (n, o) in outputs.enumerated() {
            if let stop {
                results[o.slot].warnings.append(
                    "animation of \(source.frameCount) frames: the first \(kept) are kept (\(stop))")
            }
            if let colorWarning { results[o.slot].warnings.append(colorWarning) }
            if shouldStop() { throw .interrupted(path: input) }
            summary.frames = try save(writers[n], o, input: input, into: &results[o.slot], shouldStop: shouldStop)
        }
        return summary
    }

    /// Each output's resampler (the still thumbnail's window, from the upright canvas) and writer.
    private func makeWriters(_ source: any AnimationSource, _ reader: ImageReader, _ outputs: [AnimatedOutput])
        throws(ThumbnailError) -> ([FrameReducer], [AheadAnimationWriter])
    {
        let upright = reader.header.orientation == .up ? source.canvasSize : reader.header.uprightSize
        var writers: [AheadAnimationWriter] = []
        var resamplers: [FrameReducer] = []
        for o in outputs {
            resamplers.append(FrameReducer(source: upright, geometry: o.geometry, filter: filter))
            do {
                let writer = try AnimationWriter(
                    format: o.job.format, size: o.geometry.output, loopCount: source.loopCount, settings: encode,
                    path: o.job.output)
                writers.append(AheadAnimationWriter(writer, size: o.geometry.output, threads: encodeThreads))
            } catch { throw .output(error) }
        }
        return (resamplers, writers)
    }

    /// Why no more frames are kept: --max-frames, --max-duration or the work limit; nil: go on.
    private func stopReason(kept: Int, elapsed: Int, canvas: PixelSize) -> String? {
        if kept >= maxFrames { return "--max-frames \(maxFrames)" }
        if elapsed >= maxDuration { return "--max-duration \(Double(maxDuration) / 1000)" }
        if Int64(kept + 1) * Int64(canvas.width) * Int64(canvas.height) > Self.animationWorkLimit {
            return "the limit of \(Self.animationWorkLimit) composited pixels an animation may cost"
        }
        return nil
    }

    /// One frame of the canvas (RGBA rows) through `reducer`, read in place: with two threads
    /// or more, its top and bottom output rows side by side (the same weights as one pass).
    private static func reduce(
        _ pixels: UnsafeRawBufferPointer, _ canvas: PixelSize, _ reducer: FrameReducer, threads: Int
    ) -> Image {
        reducer.whole.resample(
            rows: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), stride: canvas.width * 4, threads: threads)
    }

    /// What went wrong while frames streamed, as the batch reports it.
    private static func thumbnailError(_ error: any Error, path: String) -> ThumbnailError {
        switch error {
        case let e as ThumbnailError: return e
        case let e as DecodeError: return .decode(e)
        case let e as OutputError: return .output(e)
        case let e as ColorError: return .color(e)
        default: return .decode(.corrupt(path: path, detail: "\(error)"))
        }
    }

    /// Assembles one output and writes it (a temp file renamed into place); its frame count.
    private func save(
        _ writer: AheadAnimationWriter, _ o: AnimatedOutput, input: String, into result: inout ThumbnailResult,
        shouldStop: () -> Bool
    ) throws(ThumbnailError) -> Int {
        do throws(OutputError) {
            let (bytes, frames) = try writer.finish()
            let written = try ImageWriter.write(
                encoded: bytes, to: outputFolder == nil ? o.job.output : o.job.name,
                in: outputFolder.map { ($0, o.job.output) }, protecting: [input])
            result.bytes = written ?? Int64(bytes.count)
            result.outputSize = o.geometry.output
            return frames
        } catch { throw shouldStop() ? .interrupted(path: input) : .output(error) }
    }
}

/// A frame's reduction to one output: one resampler, its taps computed once for every frame
/// (the canvas and the output keep their sizes).
struct FrameReducer: Sendable {
    let whole: Resampler

    init(source: PixelSize, geometry g: ThumbnailGeometry, filter: ResampleFilter) {
        whole = Resampler(
            source: source, output: g.output, originX: g.window.x, originY: g.window.y,
            stepX: g.window.width / Double(g.output.width), stepY: g.window.height / Double(g.output.height),
            format: .rgba, filter: filter
        ).withTables()
    }
}
