import FZCodecs
import FZFormat
import FZImage
import FZRender
import FZSystem
import Geometry

/// `thumb --size 320,640,1280`: every size of one input from one decode (issue 38).
///
/// How each size is made (measured by `LadderQualityTests` against Pillow's Lanczos of the
/// full decode, on real photos, each size against the same size made alone): the decode
/// (`ReductionFanOut`, streamed) holds every size's window at least twice that size. A size less than 4
/// times smaller than the decode is resampled from it in one Lanczos pass: alone it would
/// have had that decode or a coarser one (DCT scaling and box averaging stop between 2 and
/// 4 times the size), so it is as good or better. Cascading there costs quality: 1365 px
/// to 1280 to 640 measured 54.8 dB where 1365 to 640 in one pass gives 56.2. A size 4 or
/// more times smaller than the decode is made from the smallest larger result that holds its
/// window at least twice as densely (1.95: whole pixels round), which is cheaper (a
/// 1280 px image instead of a 3008 px decode) and better than alone, whose decode is then
/// reduced by DCT scaling or box averaging, which alias (20 MP photo at 640: 51.8 dB
/// against 49.7 alone); with none, from the decode. Largest first.
extension Thumbnailer {
    /// A larger result is a size's source only when it is at least this many times as dense:
    /// 2, less the rounding of whole pixels (1280x721 and 640x361 of a 6016x3391 photo are
    /// 1.997 apart), which LadderQualityTests measures as harmless.
    static let cascadeRatio = 1.95
    /// A size under this many times smaller than the decode is made from the decode.
    static let decodeRatio = 4.0

    /// Makes every size of one input: `jobs` are its consecutive jobs, one per size (a job
    /// without a size is made alone, by `make`). Never throws: failures are in the results.
    public func make(ladder jobs: [ThumbnailPlan.Job], shouldStop: () -> Bool = { false }) -> [ThumbnailResult] {
        if jobs.count == 1, jobs[0].size == nil { return [make(jobs[0], shouldStop: shouldStop)] }
        let clock = Stopwatch()
        var results = jobs.map { job in
            var r = ThumbnailResult(input: job.input.path, output: job.output, outcome: .made)
            r.size = (job.size ?? size).asTyped
            return r
        }
        let input = jobs[0].input.path
        let todo = jobs.indices.filter { i in
            guard skipExisting, let made = FileSystem.modificationTime(of: jobs[i].output),
                let source = FileSystem.modificationTime(of: input), made > source
            else { return true }
            results[i].outcome = .skipped
            return false
        }
        guard !todo.isEmpty else { return results }
        var failure: ThumbnailError?
        do throws(ThumbnailError) {
            if shouldStop() { throw .interrupted(path: input) }
            try makeLadder(jobs, todo, &results, shouldStop: shouldStop)
        } catch { failure = error }
        for i in todo where results[i].outcome == .made && results[i].bytes == nil {
            results[i].outcome = .failed(failure ?? .interrupted(path: input))
        }
        let total = clock.elapsed * 1000
        // The decode is shared: each output is charged an equal part of the input's time.
        for i in todo { results[i].milliseconds = total / Double(todo.count) }
        return results
    }

    /// Opens the input once, decodes it once, and makes the sizes `todo`, largest first.
    private func makeLadder(
        _ jobs: [ThumbnailPlan.Job], _ todo: [Int], _ results: inout [ThumbnailResult], shouldStop: () -> Bool
    ) throws(ThumbnailError) {
        let input = jobs[0].input.path
        var options = decode
        options.threads = min(options.threads, encodeThreads)
        options.previewFirst = useEmbeddedThumbnail
        var reader: ImageReader
        do { reader = try ImageReader(path: input, options: options) } catch { throw .decode(error) }
        let upright = reader.header.uprightSize
        // One place for every size, found for the largest box.
        let crop = try resolvedCrop(&reader, size: jobs[todo[0]].size ?? size, into: &results[todo[0]])
        var geometries: [Int: ThumbnailGeometry] = [:]
        for i in todo {
            let spec = jobs[i].size ?? size
            results[i].sourceSize = upright
            let g: ThumbnailGeometry
            do { g = try ThumbnailGeometry(source: upright, size: spec, crop: crop) } catch {
                throw .geometry(path: reader.path, error)
            }
            if place != nil { (results[i].place, results[i].window) = (results[todo[0]].place, g.window) }
            do { try decode.budget.check("the thumbnail (--size \(spec))", size: g.output) } catch {
                throw .thumbnailTooLarge(path: reader.path, error)
            }
            geometries[i] = g
        }
        // `--animated`: every size from the one walk over the frames.
        let moving = todo.map { AnimatedOutput(job: jobs[$0], geometry: geometries[$0]!, slot: $0) }
        if try makeAnimated(reader, moving, into: &results, shouldStop: shouldStop) {
            for i in todo { (results[i].madeFrom, results[i].decodes) = ("decode", 1) }
            return
        }
        // Densest first: each later size may be made from an earlier result.
        let order = todo.sorted { density(geometries[$0]!) > density(geometries[$1]!) }
        let plan = order.map { geometries[$0]! }
        // The smallest larger size each one may be made from (see the top of the file).
        let cover: [Int?] = plan.indices.map { n in (0..<n).last { Self.covers(plan[$0], plan[n]) } }
        // Which sizes are made from the source, once its scale is known.
        let fromSource = { (kx: Double, ky: Double) in
            plan.indices.map { n in
                cover[n] == nil || min(kx / plan[n].scaleX, ky / plan[n].scaleY) < Self.decodeRatio
            }
        }
        let source: LadderImages
        do {
            source = try sourceImages(reader, plan, fromSource)
        } catch { throw .decode(error) }
        results[order[0]].warnings = reader.warnings
        // The gain map is read once, after the pixels, and reduced for each size as they are.
        let gain = gainMap(of: reader, format: jobs[order[0]].format, into: &results[order[0]])
        let motion = motionClipDropped(reader)
        for (n, i) in order.enumerated() {
            results[i].gainMap = gain.outcome
            results[i].motionClipDropped = motion
            results[i].madeFrom =
                source.images[n] != nil
                ? (source.embedded ? "embedded thumbnail" : "decode") : results[order[cover[n]!]].size ?? ""
            results[i].denominator = source.denominator
            results[i].embeddedThumbnail = source.embedded
            results[i].decodes = 1
        }
        try writeLadder(
            source.images, plan, cover, order.map { jobs[$0] }, order, &results, reader, gain, shouldStop)
    }

    /// The sizes made from the source (nil for those made from a larger result).
    private struct LadderImages {
        var images: [Image?]
        var denominator: Int?
        var embedded: Bool
    }

    /// The file's embedded thumbnail when it is large enough, else one streamed decode, its
    /// rows fanned out to each size made from it; `fromSource` tells which, from its scale.
    private func sourceImages(
        _ reader: ImageReader, _ plan: [ThumbnailGeometry], _ fromSource: (Double, Double) -> [Bool]
    ) throws(DecodeError) -> LadderImages {
        if useEmbeddedThumbnail, let e = try LadderSource.embedded(reader, for: plan) {
            let fed = fromSource(e.kx, e.ky)
            return LadderImages(
                images: plan.indices.map { n in fed[n] ? e.resample(to: plan[n], filter: filter) : nil },
                denominator: nil, embedded: true)
        }
        let fanOut = ReductionFanOut(
            targets: plan.map { .init(size: $0.output, window: $0.window) }, filter: filter, headroom: Self.headroom,
            threads: encodeThreads)
        let r = try fanOut.run(reader, feeding: fromSource)
        return LadderImages(images: r.images, denominator: r.denominator, embedded: false)
    }

    /// Makes the rest of the sizes from larger results and writes every one, densest first
    /// (`plan`, `jobs` and `slots`, the results' indices, in that order). With threads, the
    /// smaller sizes (their resampling and encoding) run on a thread of their own beside the
    /// largest one's encoding, which is most of what is left after the decode.
    private func writeLadder(
        _ images: [Image?], _ plan: [ThumbnailGeometry], _ cover: [Int?], _ jobs: [ThumbnailPlan.Job],
        _ slots: [Int], _ results: inout [ThumbnailResult], _ reader: ImageReader, _ gain: GainMapCarry,
        _ shouldStop: () -> Bool
    ) throws(ThumbnailError) {
        let largest = images[0]!
        // Each side writes its own copies of its results; they are merged after the join.
        let rest = LadderRest(results: slots.map { results[$0] })
        try withoutActuallyEscaping(shouldStop) { (stop) throws(ThumbnailError) in
            let shared = LadderShared(reader: reader, shouldStop: stop)
            let others: @Sendable () -> Void = { [self] in
                var made = images
                for n in 1..<plan.count {
                    // From the decode, or from the smallest larger result that covers it.
                    let image = made[n] ?? cascade(made[cover[n]!]!, plan[cover[n]!], to: plan[n])
                    made[n] = image
                    do throws(ThumbnailError) {
                        try write(
                            image, of: shared.reader, jobs[n], into: &rest.results[n], shouldStop: shared.shouldStop,
                            geometry: plan[n], gainMap: carriedGainMap(gain, geometry: plan[n]))
                    } catch {
                        // One output that cannot be written fails alone; a stop ends the input.
                        if error.isStop {
                            rest.stop = error
                            return
                        }
                        rest.results[n].outcome = .failed(error)
                    }
                }
            }
            var first = rest.results[0]
            var stopped: ThumbnailError?
            let writeFirst = {
                do throws(ThumbnailError) {
                    try write(
                        largest, of: reader, jobs[0], into: &first, shouldStop: stop,
                        geometry: plan[0], gainMap: carriedGainMap(gain, geometry: plan[0]))
                } catch {
                    if error.isStop { stopped = error } else { first.outcome = .failed(error) }
                }
            }
            if plan.count == 1 || encodeThreads < 2 || !Threads.alongside(others, writeFirst) {
                writeFirst()
                if plan.count > 1, stopped == nil { others() }
            }
            rest.results[0] = first
            if let error = stopped ?? rest.stop { throw error }
        }
        for (n, i) in slots.enumerated() {
            results[i] = rest.results[n]
            if results[i].outcome == .made { noteWritten(gain, into: &results[i]) }
        }
    }

    /// The size `g` resampled from `larger`, a result that covers it.
    private func cascade(_ larger: Image, _ lg: ThumbnailGeometry, to g: ThumbnailGeometry) -> Image {
        LadderSource.resample(
            larger, kx: lg.scaleX, ky: lg.scaleY, originX: lg.window.x, originY: lg.window.y, to: g, filter: filter)
    }

    /// Output pixels per source pixel (the larger axis).
    private func density(_ g: ThumbnailGeometry) -> Double { max(g.scaleX, g.scaleY) }

    /// Whether the result `larger` may be the source of `g`: it shows all of `g`'s window,
    /// at least `cascadeRatio` times as densely on both axes.
    static func covers(_ larger: ThumbnailGeometry, _ g: ThumbnailGeometry) -> Bool {
        let w = larger.window
        let v = g.window
        let inside =
            v.x >= w.x - 1e-9 && v.y >= w.y - 1e-9 && v.x + v.width <= w.x + w.width + 1e-9
            && v.y + v.height <= w.y + w.height + 1e-9
        return inside && larger.scaleX >= cascadeRatio * g.scaleX && larger.scaleY >= cascadeRatio * g.scaleY
    }
}

/// The results of a ladder's smaller sizes, written by the thread that makes them and read
/// after the join (`writeLadder`), so unchecked Sendable.
private final class LadderRest: @unchecked Sendable {
    var results: [ThumbnailResult]
    var stop: ThumbnailError?
    init(results: [ThumbnailResult]) { self.results = results }
}

/// What both threads of `writeLadder` read: the reader, whose decode is over (only its
/// header, colour and metadata are read, never changed), and the stop flag's closure,
/// which polls the process's interrupt flag.
private struct LadderShared: @unchecked Sendable {
    let reader: ImageReader
    let shouldStop: () -> Bool
}
