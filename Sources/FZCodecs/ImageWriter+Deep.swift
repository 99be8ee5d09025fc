import FZFormat
import FZImage
import FZMetadata
import FZPNG
import FZSystem
import Geometry

/// 16-bit outputs: the samples of a 16-bit PNG or a 10/12-bit HEIF kept by `crop --depth 16`
/// and quarter turns (`ImageReader.readStored16`), written as 16-bit PNG, or through the
/// encoder of another format that `writes16Bit` (JPEG XL).
extension ImageWriter {
    /// Writes a 16-bit PNG (temporary file, renamed), carrying `color` and `metadata`; with
    /// `encoding` of another format that `writes16Bit`, that format.
    /// `folder`: as `write(_: Image, ...)`'s (a batch's `--out`, `openOutput`).
    /// `cicp`: a PNG's cICP chunk, written before its image data (`writePQ`).
    @discardableResult
    public static func write(
        _ image: Image16, to path: String, in folder: (OutputFolder, shown: String)? = nil, settings: PNGSettings,
        protecting inputs: [String] = [], color: ColorDescription? = nil, metadata: CarriedMetadata? = nil,
        encoding: OutputEncoding? = nil, cicp: [UInt8]? = nil
    ) throws(OutputError) -> Int64? {
        let out = try openOutput(path, in: folder, protecting: inputs)
        do throws(OutputError) {
            if let encoding, encoding.format != .png, encoding.format.writes16Bit {
                let (exif, xmp) = metadata?.blocks(for: image.size) ?? (nil, nil)
                let request = EncodeRequest(
                    out: out, settings: encoding.settings, threads: Threads.perImage,
                    color: color?.carried(into: image.format), background: encoding.settings.background, exif: exif,
                    xmp: xmp, metadata: metadata)
                try encoding.format.encoder.encode16(image, request)
                try out.commit()
                return out.size
            }
            let writer = try PNGWriter(
                file: out.file, path: out.path, size: image.size, format: image.format, settings: settings,
                color: color?.carried(into: image.format), bitDepth: 16)
            if let cicp { try cicp.withBytes { b throws(OutputError) in try writer.write(chunk: "cICP", b) } }
            let (exif, xmp) = metadata?.blocks(for: image.size) ?? (nil, nil)
            try writer.write(exif: exif, xmp: xmp)
            try image.bytes.withBytes { b throws(OutputError) in try writer.write(rows: b, count: image.height) }
            try writer.finish()
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
        return out.size
    }
}
