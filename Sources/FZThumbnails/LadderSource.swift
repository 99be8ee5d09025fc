import FZFormat
import FZImage
import FZRender
import Geometry

/// The source of a ladder (`thumb --size 320,640,1280`) when it is the file's embedded
/// thumbnail (HEIF, RAW previews): held whole, every size resampled from it. Otherwise the
/// sizes made from the decode come out of `ReductionFanOut`, streamed, and this type only
/// resamples the smaller sizes from a larger result (`resample(_:kx:ky:...)`).
struct LadderSource {
    /// The embedded thumbnail, upright.
    let image: Image
    /// Pixels of `image` per upright source pixel, across and down.
    let kx: Double
    let ky: Double

    /// The smallest embedded thumbnail of `reader` with the pixels the densest of
    /// `geometries` needs; nil when there is none (nothing is decoded then: the sizes are
    /// read from the boxes).
    static func embedded(_ reader: ImageReader, for geometries: [ThumbnailGeometry]) throws(DecodeError)
        -> LadderSource?
    {
        guard !reader.embeddedThumbnailSizes.isEmpty else { return nil }
        let source = reader.header.uprightSize
        // The whole picture at the densest size's scale: what the thumbnail must have.
        let needed = PixelSize(
            width: geometries.map { Int((Double(source.width) * $0.scaleX).rounded(.up)) }.max() ?? 1,
            height: geometries.map { Int((Double(source.height) * $0.scaleY).rounded(.up)) }.max() ?? 1)
        guard let thumb = try reader.readEmbeddedThumbnail(atLeast: needed) else { return nil }
        return LadderSource(
            image: thumb, kx: Double(thumb.width) / Double(source.width),
            ky: Double(thumb.height) / Double(source.height))
    }

    /// One size resampled from the embedded thumbnail.
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
