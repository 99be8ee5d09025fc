import FZCodecs
import FZFormat
import FZGainMap
import FZImage
import FZMetadata
import FZRender
import FZSystem
import Geometry

/// Makes one thumbnail: header, geometry, a streamed and DCT-scaled decode straight into the
/// resampler, the small result turned upright, then a temp file renamed into place.
/// A value shared read-only by every worker of a batch.
public struct Thumbnailer: Sendable {
    public var size: ThumbnailSize
    public var crop: ThumbnailGeometry.Crop
    /// `--crop-at` with a word (region:NAME, face, attention, entropy, center): found per
    /// input (`resolvedCrop`), then placed as a point.
    public var place: Where?
    /// `--explain`: where attention's or entropy's heat map of each input goes (`%s`: the
    /// input's stem), its path in the `where` record.
    public var explain: String?
    public var decode: DecodeOptions
    /// How outputs are encoded: quality, lossless, PNG's settings and what JPEG outputs
    /// flatten transparent pixels onto (opaque), as every command has them.
    public var encode: EncodeSettings
    /// Resample the file's embedded thumbnail (HEIF) instead of decoding the image, when it
    /// has at least the pixels the output needs from the window (as vipsthumbnail does).
    public var useEmbeddedThumbnail = true
    /// Leave an output alone when it is newer than its input.
    public var skipExisting: Bool
    /// The output folder, open: jobs' outputs (`Job.name`) are made inside it, never
    /// through a link (nil: `Job.output` as a path, for tests and single files).
    public var outputFolder: OutputFolder?
    /// The reduction kernel: Lanczos-3 stretched by the scale (alias-free, as Pillow and vips).
    public var filter: ResampleFilter = .lanczos
    /// Threads one thumbnail may use (decoding alongside resampling, PNG encode). A batch
    /// runs one image per worker, so 1 unless there are fewer images than processors
    /// (`threads(jobs:images:)`).
    public var encodeThreads = 1
    /// `--animated`: an animated input (GIF, WebP) makes an animated WebP or APNG
    /// (`Thumbnailer+Animated.swift`); a still input a still thumbnail.
    public var animated = false
    /// `--max-frames`: the most frames an animated thumbnail keeps (the first ones).
    public var maxFrames = 1000
    /// `--max-duration`: frames starting at or after this many milliseconds are dropped.
    public var maxDuration = 120_000

    /// Per-image threads for a batch of `images` on `jobs` workers: the processors the
    /// workers leave idle, shared out; 1 when every processor already has an image.
    public static func threads(jobs: Int, images: Int) -> Int {
        let busy = max(1, min(jobs, images))
        return max(1, Threads.perImage / busy)
    }

    /// JPEG DCT scaling and the box average of whole blocks stop while the image is still
    /// twice the thumbnail: both alias, and the Lanczos pass needs a factor of 2 to clean
    /// that (as in vipsthumbnail). With 1 the worst real photo measured 30 dB against a
    /// full-decode Lanczos; with 2, 42.
    public static let headroom = 2

    /// What each thumbnail carries of its input's colour (`--icc`), and its conversion to sRGB.
    public var colorPolicy = ColorPolicy()
    /// Which of the input's EXIF and XMP each thumbnail carries (`--strip`, `--no-location`).
    public var metadata = MetadataPolicy.keepAll
    /// What each thumbnail does with the input's HDR gain map (`--gain-map`).
    public var gainMap = GainMapPolicy.keep
    /// The headroom `--gain-map apply` renders PNG thumbnails for (`--hdr-headroom`).
    public var hdrHeadroom = HDRHeadroom.mapMaximum

    public init(
        size: ThumbnailSize, crop: ThumbnailGeometry.Crop = .none, decode: DecodeOptions = DecodeOptions(),
        encode: EncodeSettings = EncodeSettings(), skipExisting: Bool = false
    ) {
        self.size = size
        self.crop = crop
        self.decode = decode
        self.encode = encode
        self.skipExisting = skipExisting
    }

    /// Makes the thumbnail of one planned job. Never throws: failures are in the result.
    /// - Parameters:
    ///   - job: the input and its output path (whose folder exists).
    ///   - shouldStop: polled before decoding and before writing; true abandons the job
    ///     (Ctrl-C), leaving nothing behind.
    /// - Returns: the outcome with sizes, bytes and time.
    public func make(_ job: ThumbnailPlan.Job, shouldStop: () -> Bool = { false }) -> ThumbnailResult {
        let clock = Stopwatch()
        var result = ThumbnailResult(input: job.input.path, output: job.output, outcome: .made)
        result.outcome = attempt(job, into: &result, shouldStop: shouldStop)
        result.milliseconds = clock.elapsed * 1000
        return result
    }

    /// The output resampled from the smallest embedded thumbnail that has at least the
    /// output's resolution over the window; nil when none does.
    private func embeddedThumbnail(_ reader: ImageReader, _ g: ThumbnailGeometry) throws(DecodeError) -> Image? {
        guard !reader.embeddedThumbnailSizes.isEmpty else { return nil }
        let source = g.source
        // The whole picture at the output's scale: what a thumbnail must have at least.
        let needed = PixelSize(
            width: Int((Double(source.width) * g.scaleX).rounded(.up)),
            height: Int((Double(source.height) * g.scaleY).rounded(.up)))
        guard let thumb = try reader.readEmbeddedThumbnail(atLeast: needed) else { return nil }
        let kx = Double(thumb.width) / Double(source.width)
        let ky = Double(thumb.height) / Double(source.height)
        let resampler = Resampler(
            source: thumb.size, output: g.output, originX: g.window.x * kx, originY: g.window.y * ky,
            stepX: g.window.width * kx / Double(g.output.width),
            stepY: g.window.height * ky / Double(g.output.height), format: thumb.format, filter: filter)
        return resampler.resample(thumb)
    }

    private func attempt(_ job: ThumbnailPlan.Job, into result: inout ThumbnailResult, shouldStop: () -> Bool)
        -> ThumbnailResult.Outcome
    {
        let input = job.input.path
        if shouldStop() { return .failed(.interrupted(path: input)) }
        if skipExisting, let made = FileSystem.modificationTime(of: job.output),
            let source = FileSystem.modificationTime(of: input), made > source
        {
            return .skipped
        }
        do throws(ThumbnailError) {
            let (reader, geometry, held) = try open(input, into: &result)
            var results = [result]
            let output = AnimatedOutput(job: job, geometry: geometry, slot: 0)
            let moving = try makeAnimated(reader, [output], into: &results, shouldStop: shouldStop)
            result = results[0]
            if moving { return .made }
            let warned = result.warnings
            let image = try decodePixels(reader, geometry, held: held, into: &result)
            result.warnings = result.regionWarnings + reader.warnings + warned
            let gain = gainMap(of: reader, format: job.format, into: &result)
            result.motionClipDropped = motionClipDropped(reader)
            try write(
                image, of: reader, job, into: &result, shouldStop: shouldStop, geometry: geometry,
                gainMap: carriedGainMap(gain, geometry: geometry))
            noteWritten(gain, into: &result)
        } catch {
            return .failed(error)
        }
        return .made
    }

    /// Converts a finished thumbnail's colour, carries the metadata asked for and writes it
    /// (a temp file renamed into place): the end of `make`, and of each size of a ladder.
    /// `gainMap`: the input's map at this thumbnail's geometry (`carriedGainMap`); the regions
    /// follow `geometry` (none are written without it).
    func write(
        _ image: Image, of reader: ImageReader, _ job: ThumbnailPlan.Job, into result: inout ThumbnailResult,
        shouldStop: () -> Bool, geometry: ThumbnailGeometry? = nil, gainMap: CarriedGainMap? = nil
    ) throws(ThumbnailError) {
        let input = job.input.path
        var image = image
        do throws(ColorError) {
            let warning = try colorPolicy.convert(
                &image, from: reader.header.color, path: reader.path, lenient: decode.lenient)
            if let warning { result.warnings.append(warning) }
        } catch { throw .color(error) }
        let carried = colorPolicy.carried(reader.header.color)
        if let dropped = carried.warning { result.warnings.append(dropped) }
        var (kept, left) = reader.carriedMetadata(metadata, for: job.format)
        result.warnings += left
        if let g = geometry {
            kept = kept?.placed(
                .translation(-g.window.x, -g.window.y).then(.scale(g.scaleX, g.scaleY)), output: image.size)
            result.regions = kept?.regionCount(for: image.size)
        }
        if shouldStop() { throw .interrupted(path: input) }
        do {
            result.bytes = try ImageWriter.write(
                image, to: outputFolder == nil ? job.output : job.name, in: outputFolder.map { ($0, job.output) },
                encoding: job.format.encoding(encode), protecting: [input],
                threads: encodeThreads,
                color: carried.color, metadata: kept, gainMap: gainMap)
        } catch {
            // After Ctrl-C the handler removes temp files, so the rename fails: that is
            // the interruption, not a disk problem.
            throw shouldStop() ? .interrupted(path: input) : .output(error)
        }
        result.outputSize = image.size
    }

    /// The input's reader and the thumbnail's geometry, its output checked against the budget.
    private func open(_ input: String, into result: inout ThumbnailResult) throws(ThumbnailError) -> (
        ImageReader, ThumbnailGeometry, HeldDecode?
    ) {
        // The image's share of the processors (1 in a batch that keeps every one busy).
        var options = decode
        options.threads = min(options.threads, encodeThreads)
        options.previewFirst = useEmbeddedThumbnail
        var reader: ImageReader
        do { reader = try ImageReader(path: input, options: options) } catch { throw .decode(error) }
        let upright = reader.header.uprightSize
        result.sourceSize = upright
        var held: HeldDecode?
        let crop = try resolvedCrop(&reader, size: size, into: &result, held: &held)
        let geometry: ThumbnailGeometry
        do { geometry = try ThumbnailGeometry(source: upright, size: size, crop: crop) } catch {
            throw .geometry(path: reader.path, error)
        }
        if place != nil { result.window = geometry.window }
        // An enlargement (<, !) is held whole: keep it under the decode pixel limit too.
        do { try decode.budget.check("the thumbnail (--size \(size))", size: geometry.output) } catch {
            throw .thumbnailTooLarge(path: reader.path, error)
        }
        return (reader, geometry, held)
    }

    /// The thumbnail's pixels: the whole image, the embedded thumbnail when it is large
    /// enough, or a reduced decode (the one attention held, `held`, when there is one).
    private func decodePixels(
        _ reader: ImageReader, _ geometry: ThumbnailGeometry, held: HeldDecode?, into result: inout ThumbnailResult
    ) throws(ThumbnailError) -> Image {
        var image = Image(width: 0, height: 0, format: .rgb)
        var failure: DecodeError?
        var denominator = result.denominator
        var embeddedUsed = false
        func read() {
            do throws(DecodeError) {
                if geometry.isIdentity {
                    (image, denominator) = (try reader.readImage(), 1)
                } else if useEmbeddedThumbnail, let embedded = try embeddedThumbnail(reader, geometry) {
                    image = embedded
                    embeddedUsed = true
                } else if let held {
                    image = held.resampled(
                        to: geometry.output, window: geometry.window, filter: filter, headroom: Self.headroom)
                    denominator = held.denominator
                } else {
                    (image, denominator) = try reader.readResampled(
                        to: geometry.output, window: geometry.window, filter: filter,
                        headroom: Self.headroom, boxShrink: true,
                        threads: encodeThreads)
                }
            } catch { failure = error }
        }
        // lcms2 builds the sRGB transform (several ms: tone curves tabulated) on another
        // thread while the image decodes; it lands in the transform cache, where the
        // conversion finds it. In a batch (one thread per image) it is built once.
        let color = reader.header.color
        let format = reader.header.pixelFormat
        var overlapped = false
        if let intent = colorPolicy.convertsToSRGB, encodeThreads > 1, color.icc != nil {
            let warm: @Sendable () -> Void = {
                _ = try? SRGBConverter(
                    color: color, format: format, intent: intent, blackPointCompensation: intent != .absolute,
                    path: "")
            }
            overlapped = Threads.alongside(warm) { read() }
        }
        if !overlapped { read() }
        result.denominator = denominator
        if embeddedUsed { result.embeddedThumbnail = true }
        if let failure { throw .decode(failure) }
        return image
    }
}
