import FZCodecs
import FZImage
import FZRender
import Geometry

/// The one decode of a ladder (`thumb --size 320,640,1280`): the input reduced as far as
/// its largest size allows, upright, held whole, from which every size is resampled.
///
/// It is what `ReductionPipeline` would feed the resampler for the largest size: the
/// decoder's own reduction (JPEG DCT scaling, HEIF thumbnails and grids, TIFF levels, RAW
/// previews) and the box average of whole blocks, both stopped while every size's window is
/// still `headroom` times that size, so each size's Lanczos pass has a factor of 2 left to
/// remove their aliasing, as a thumbnail made alone has. Or the file's embedded thumbnail
/// when it has the pixels the largest size needs.
struct LadderSource {
    /// The reduced decode, upright.
    let image: Image
    /// Pixels of `image` per upright source pixel, across and down.
    let kx: Double
    let ky: Double
    /// The decoder's denominator (nil for an embedded thumbnail).
    let denominator: Int?
    /// The file's embedded thumbnail was used.
    let embedded: Bool
    /// The decodes this took: one, of the rows (`beginRows`) or of an embedded thumbnail
    /// (choosing one reads only the boxes). What `--json` reports as `decodes`.
    var decodes = 1

    /// Decodes `reader` once for all of `geometries` (upright, one source).
    static func decode(
        _ reader: ImageReader, for geometries: [ThumbnailGeometry], headroom: Int, useEmbedded: Bool
    ) throws(DecodeError) -> LadderSource {
        let source = reader.header.uprightSize
        if useEmbedded, !reader.embeddedThumbnailSizes.isEmpty {
            // The whole picture at the densest size's scale: what the thumbnail must have.
            let needed = PixelSize(
                width: geometries.map { Int((Double(source.width) * $0.scaleX).rounded(.up)) }.max() ?? 1,
                height: geometries.map { Int((Double(source.height) * $0.scaleY).rounded(.up)) }.max() ?? 1)
            if let thumb = try reader.readEmbeddedThumbnail(atLeast: needed) {
                return LadderSource(
                    image: thumb, kx: Double(thumb.width) / Double(source.width),
                    ky: Double(thumb.height) / Double(source.height), denominator: nil, embedded: true)
            }
            // None large enough: nothing was decoded (the sizes are read from the boxes).
        }
        return try decodeRows(reader, for: geometries, headroom: headroom)
    }

    /// The reduced stored rows, box-averaged, held whole and turned upright. The arithmetic
    /// of `ReductionPipeline.run` (minimum size, denominator, box factors, scale), taken
    /// over all sizes: the densest one decides.
    private static func decodeRows(_ reader: ImageReader, for geometries: [ThumbnailGeometry], headroom: Int)
        throws(DecodeError) -> LadderSource
    {
        let header = reader.header
        let o = header.orientation
        let stored = header.storedSize
        let k = Double(max(1, headroom))
        var minimum = PixelSize(width: 1, height: 1)
        // Per size: its stored region and target, for the box factors below.
        var spans: [(region: Rect, target: PixelSize)] = []
        for g in geometries {
            let region = o.storedRect(forUpright: g.window, stored: stored)
            let target = o.swapsAxes ? g.output.transposed : g.output
            spans.append((region, target))
            minimum = PixelSize(
                width: max(
                    minimum.width,
                    Int((k * Double(target.width) * Double(stored.width) / region.width - 1e-9).rounded(.up))),
                height: max(
                    minimum.height,
                    Int((k * Double(target.height) * Double(stored.height) / region.height - 1e-9).rounded(.up))))
        }
        let d = reader.reductionDenominator(keepingAtLeast: minimum)
        let size = try reader.beginRows(denominator: d)
        let fx = Double(size.width) / Double(stored.width)
        let fy = Double(size.height) / Double(stored.height)
        let bx = spans.map { factor($0.region.width * fx, $0.target.width, k) }.min() ?? 1
        let by = spans.map { factor($0.region.height * fy, $0.target.height, k) }.min() ?? 1
        let box = BoxShrink(source: size, factorX: bx, factorY: by, format: header.pixelFormat)
        let c = header.pixelFormat.channels
        try reader.options.checkMemory(box.outputSize.area * Int64(c) + Int64(size.width * c) * 2, path: reader.path)
        let failure = Failure()
        let pull: (UnsafeMutablePointer<UInt8>) -> Bool = { row in
            do throws(DecodeError) { return try reader.readNextRow(into: row) } catch {
                failure.error = error
                return false
            }
        }
        let next = bx == 1 && by == 1 ? pull : box.rows(pulling: pull)
        var image = Image(width: box.outputSize.width, height: box.outputSize.height, format: header.pixelFormat)
        let stride = image.stride
        // Rows not delivered (lenient, data broken off) stay as made, as in the pipeline.
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<box.outputSize.height where !next(pixels.baseAddress! + y * stride) { break }
        }
        if let error = failure.error { throw error }
        let sx = fx / Double(bx)
        let sy = fy / Double(by)
        return LadderSource(
            image: image.oriented(o), kx: o.swapsAxes ? sy : sx, ky: o.swapsAxes ? sx : sy, denominator: d,
            embedded: false)
    }

    /// Whole blocks that keep a region at least `k` times its target (1: no box average).
    private static func factor(_ regionLength: Double, _ targetLength: Int, _ k: Double) -> Int {
        min(BoxShrink.maximumFactor, max(1, Int(regionLength / (k * Double(targetLength)))))
    }

    /// The first decode error, caught inside the row closure.
    private final class Failure {
        var error: DecodeError?
    }

    /// One size resampled from this decode.
    func resample(to g: ThumbnailGeometry, filter: ResampleFilter) -> Image {
        Self.resample(image, kx: kx, ky: ky, originX: 0, originY: 0, to: g, filter: filter)
    }

    /// One size resampled from `image`, which shows the upright source from (`originX`,
    /// `originY`) at `kx` x `ky` of its pixels per source pixel.
    static func resample(
        _ image: Image, kx: Double, ky: Double, originX: Double, originY: Double, to g: ThumbnailGeometry,
        filter: ResampleFilter
    ) -> Image {
        if g.isIdentity && image.size == g.output && kx == 1 && ky == 1 { return image }
        let resampler = Resampler(
            source: image.size, output: g.output, originX: (g.window.x - originX) * kx,
            originY: (g.window.y - originY) * ky, stepX: g.window.width * kx / Double(g.output.width),
            stepY: g.window.height * ky / Double(g.output.height), format: image.format, filter: filter)
        return resampler.resample(image)
    }
}
