import FZFormat
import FZHEIF
import FZImage
import FZMetadata
import FZSystem
import Geometry

/// HDR renditions (`--gain-map apply`, issue 39) as a 10-bit HEIC (HEVC Main 10) or a 12-bit
/// AVIF through libheif, marked BT.2100 PQ by an `nclx` colour box and no ICC profile. The
/// rendition's 16-bit PQ samples are rounded to 10 or 12 bits (PQ's steps at 10 bits are
/// below what a 1,000 cd/m² display shows apart, which is why HDR video is 10-bit); the codec
/// is lossy at `--quality` (4:2:0, libheif's default) or `--lossless`.
///
/// Why AVIF is 12-bit: libheif 1.15.1 asks libaom 3.6 for AV1's professional profile for any
/// sample over 8 bits, which takes 10 bits only as 4:2:2; at 10-bit 4:2:0 or 4:4:4 libaom
/// fails an assertion and aborts the process (libheif #788). 12-bit 4:2:0 is a valid
/// professional-profile stream, which dav1d (Chrome, Firefox, Android 12+) decodes.
extension ImageWriter {
    /// Whether `--gain-map apply` renders into `format`: its registration declares an HDR
    /// rendition (a 16-bit PQ PNG, a 10-bit PQ HEIC or a 12-bit PQ AVIF).
    public static func rendersHDR(_ format: OutputFormat) -> Bool { format.hdrRendition != .none }

    /// "PNG, HEIC and AVIF": the formats `rendersHDR`, in the registry's order, for messages.
    public static var namesRenderingHDR: String {
        FormatRegistry.sentence(OutputFormat.all.filter(rendersHDR).map(\.name), "and")
    }

    /// Writes `image` (its samples PQ-coded in BT.2020, 16-bit; gray is widened to RGB, as
    /// libheif codes no gray) as a 10-bit HEIC or a 12-bit AVIF, per `encoding`, carrying `metadata`'s
    /// EXIF and XMP (temporary file, renamed; `folder` as `write`'s).
    @discardableResult
    public static func writePQ(
        _ image: Image16, to path: String, in folder: (OutputFolder, shown: String)? = nil,
        heif encoding: OutputEncoding, protecting inputs: [String] = [], metadata: CarriedMetadata? = nil
    ) throws(OutputError) -> Int64? {
        let rgb = image.converted(to: image.format.hasAlpha ? .rgba : .rgb)
        let avif = encoding.format == .avif
        let bits = avif ? 12 : 10
        // Big-endian 16-bit samples to `bits`, rounded: v * (2^bits - 1) / 65535.
        let top = UInt32(1 << bits - 1)
        var deep = [UInt16](repeating: 0, count: rgb.bytes.count / 2)
        rgb.bytes.withUnsafeBufferPointer { b in
            for i in 0..<deep.count {
                let v = UInt32(b[2 * i]) << 8 | UInt32(b[2 * i + 1])
                deep[i] = UInt16((v * top + 32767) / 65535)
            }
        }
        let (exif, xmp) = metadata?.blocks(for: image.size) ?? (nil, nil)
        // The 8-bit image gives libheif's encoder only the size and channels (`tenBit`).
        let shape = Image(width: rgb.width, height: rgb.height, format: rgb.format, fill: .black)
        let bytes = try HEIFEncoder.encode(
            shape, avif: avif, quality: encoding.settings.quality, lossless: encoding.settings.lossless, exif: exif,
            rotation: 0, tenBit: deep, bits: bits, xmp: xmp, path: path, nclx: .pq)
        return try write(encoded: bytes, to: path, in: folder, protecting: inputs)
    }
}
