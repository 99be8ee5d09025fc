import FZFormat
import FZImage
import FZSystem
import Geometry

/// HEIC output (x265 through libheif): lossy at `--quality` or `--lossless`, alpha kept,
/// EXIF, XMP and ICC (not for gray pixels, which libheif widens to RGB).
package enum HEICImageEncoder: ImageEncoder {
    package static let registration = OutputFormat(
        format: .heif, name: "HEIC", extensions: ["heic", "heif", "hif"], keepsAlpha: true,
        metadata: .exifXMPICC, options: [.quality, .lossless], gainMaps: [.appleAuxiliary],
        hdrRendition: .nclxCodec, encoder: HEICImageEncoder.self, library: .heif)

    package static func encode(_ image: Image, _ r: EncodeRequest) throws(OutputError) {
        try HEIFImageEncoding.encode(image, avif: false, r)
    }
}

/// AVIF output (aom through libheif): as HEIC, in AV1.
package enum AVIFImageEncoder: ImageEncoder {
    package static let registration = OutputFormat(
        format: .heif, name: "AVIF", extensions: ["avif"], keepsAlpha: true, metadata: .exifXMPICC,
        options: [.quality, .lossless], hdrRendition: .nclxCodec, encoder: AVIFImageEncoder.self, library: .heif)

    package static func encode(_ image: Image, _ r: EncodeRequest) throws(OutputError) {
        try HEIFImageEncoding.encode(image, avif: true, r)
    }
}

/// What HEIC and AVIF share: libheif with one compression or the other.
enum HEIFImageEncoding {
    static func encode(_ image: Image, avif: Bool, _ r: EncodeRequest) throws(OutputError) {
        let bytes = try HEIFEncoder.encode(
            image, avif: avif, quality: r.settings.quality, lossless: r.settings.lossless, exif: r.exif,
            rotation: 0, xmp: r.xmp, path: r.out.path, icc: image.format.isGray ? nil : r.color?.icc)
        try ImageWriter.writeBytes(bytes, into: r.out)
    }
}
