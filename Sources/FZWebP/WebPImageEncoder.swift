import FZFormat
import FZImage
import FZSystem
import Geometry

/// WebP output (libwebp): lossy at `--quality` or `--lossless`, alpha kept, EXIF, XMP and
/// ICC in a VP8X container's chunks.
package enum WebPImageEncoder: ImageEncoder {
    package static let registration = OutputFormat(
        format: .webp, name: "WebP", extensions: ["webp"], keepsAlpha: true, metadata: .exifXMPICC,
        options: [.quality, .lossless], encoder: WebPImageEncoder.self)

    package static func encode(_ image: Image, _ r: EncodeRequest) throws(OutputError) {
        let bytes = try WebPEncoder.encode(
            image, quality: r.settings.quality, lossless: r.settings.lossless, exif: r.exif, icc: r.color?.icc,
            xmp: r.xmp, path: r.out.path)
        try ImageWriter.writeBytes(bytes, into: r.out)
    }
}
