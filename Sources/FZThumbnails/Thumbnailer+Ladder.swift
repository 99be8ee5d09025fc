import FZCodecs
import FZImage
import FZRender
import FZSystem
import Geometry

/// `thumb --size 320,640,1280`: every size of one input from one decode (issue 38).
///
/// How each size is made (measured by `LadderQualityTests` against Pillow's Lanczos of the
/// full decode, on real photos, each size against the same size made alone): the decode
/// (`LadderSource`) holds every size's window at least twice that size. A size less than 4
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
        let reader: ImageReader
        do { reader = try ImageReader(path: input, options: options) } catch { throw .decode(error) }
        let upright = reader.header.uprightSize
        var geometries: [Int: ThumbnailGeometry] = [:]
        for i in todo {
            let spec = jobs[i].size ?? size
            results[i].sourceSize = upright
            let g: ThumbnailGeometry
            do { g = try ThumbnailGeometry(source: upright, size: spec, crop: crop) } catch {
                throw .geometry(path: reader.path, error)
            }
            do { try decode.budget.check("the thumbnail (--size \(spec))", size: g.output) } catch {
                throw .thumbnailTooLarge(path: reader.path, error)
            }
            geometries[i] = g
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
        var images: [Image?]
        var denominator: Int?
        var embedded: LadderSource?
        do {
            embedded = useEmbeddedThumbnail ? try LadderSource.embedded(reader, for: plan) : nil
            if let e = embedded {
                let fed = fromSource(e.kx, e.ky)
                images = plan.indices.map { n in fed[n] ? e.resample(to: plan[n], filter: filter) : nil }
            } else {
                // One streamed decode, its rows fanned out to each size made from it.
                let fanOut = ReductionFanOut(
                    targets: plan.map { .init(size: $0.output, window: $0.window) }, filter: filter,
                    headroom: Self.headroom, threads: encodeThreads)
                let r = try fanOut.run(reader, feeding: fromSource)
                (images, denominator) = (r.images, r.denominator)
            }
        } catch { throw .decode(error) }
        results[order[0]].warnings = reader.warnings
        let fed = images.map { $0 != nil }
        for (n, i) in order.enumerated() {
            let g = plan[n]
            let image =
                images[n]
                ?? {
                    // From the smallest larger result that covers it: made before it.
                    let from = cover[n]!
                    return LadderSource.resample(
                        images[from]!, kx: plan[from].scaleX, ky: plan[from].scaleY, originX: plan[from].window.x,
                        originY: plan[from].window.y, to: g, filter: filter)
                }()
            images[n] = image
            results[i].madeFrom =
                fed[n] ? (embedded == nil ? "decode" : "embedded thumbnail") : results[order[cover[n]!]].size ?? ""
            results[i].denominator = denominator
            results[i].embeddedThumbnail = embedded != nil
            results[i].decodes = 1
            do throws(ThumbnailError) {
                try write(image, of: reader, jobs[i], into: &results[i], shouldStop: shouldStop)
            } catch {
                // One output that cannot be written fails alone; a stop ends the input.
                if error.isStop { throw error }
                results[i].outcome = .failed(error)
            }
        }
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
