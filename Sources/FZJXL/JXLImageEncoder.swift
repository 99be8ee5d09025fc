import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// JPEG XL output (libjxl, `JXLCodec`): lossy at `--quality` (VarDCT, XYB) or `--lossless`
/// (modular, the samples kept exactly), 8 or 16 bits (`--depth 16` of a deep input), alpha
/// kept, the ICC profile (else sRGB), Exif and XMP as boxes of the container.
package enum JXLImageEncoder: ImageEncoder {
    package static let registration = OutputFormat(
        format: .jxl, name: "JPEG XL", extensions: ["jxl"], keepsAlpha: true, writes16Bit: true,
        metadata: .exifXMPICC, options: [.quality, .lossless], encoder: JXLImageEncoder.self,
        library: .jxl)

    package static func encode(_ image: Image, _ r: EncodeRequest) throws(OutputError) {
        let bytes = try image.pixels.withBytes { p throws(OutputError) in
            try JXLCodec.encode(p, job(image.size, image.format, deep: false, r), path: r.out.path)
        }
        try ImageWriter.writeBytes(bytes, into: r.out)
    }

    package static func encode16(_ image: Image16, _ r: EncodeRequest) throws(OutputError) {
        let bytes = try image.bytes.withBytes { p throws(OutputError) in
            try JXLCodec.encode(p, job(image.size, image.format, deep: true, r), path: r.out.path)
        }
        try ImageWriter.writeBytes(bytes, into: r.out)
    }

    private static func job(_ size: PixelSize, _ format: PixelFormat, deep: Bool, _ r: EncodeRequest)
        -> JXLCodec.EncodeJob
    {
        JXLCodec.EncodeJob(
            size: size, format: format, deep: deep, distance: distance(quality: r.settings.quality),
            lossless: r.settings.lossless, icc: r.color?.icc, exif: r.exif, xmp: r.xmp, threads: r.threads)
    }

    /// cjxl 0.7's mapping of `-q` to the Butteraugli distance libjxl takes (libjxl v0.7.0,
    /// tools/cjxl_main.cc; `JxlEncoderDistanceFromQuality` came later): 0.1 + (100 - q) *
    /// 0.09 from 30 up (q 90 is distance 1, cjxl's default), 6.4 + 2.5^((30 - q) / 5) / 6.25
    /// below. cjxl makes q 100 lossless; here, as for WebP, lossless is asked for by name,
    /// and 100 is the finest lossy distance, 0.1.
    package static func distance(quality q: Int) -> Float {
        let q = Double(min(100, max(1, q)))
        let d = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(d)
    }
}
