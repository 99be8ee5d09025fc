import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// How an output is encoded.
public enum OutputEncoding: Hashable, Sendable {
    case png(PNGSettings)
    /// `exif` is an APP1 payload starting with "Exif\0\0".
    case jpeg(quality: Int, subsampling: Int, progressive: Bool, exif: [UInt8]?)
    /// Lossy at `quality` (libwebp's 1-100) or lossless; `exif` is a TIFF block.
    case webp(quality: Int, lossless: Bool, exif: [UInt8]?)
    /// HEIC (x265) or AVIF (aom) through libheif, lossy at `quality` (1-100) or lossless;
    /// alpha kept; `exif` is a TIFF block.
    case heif(avif: Bool, quality: Int, lossless: Bool, exif: [UInt8]?)
}

/// Writes images to files safely: a temporary file in the target folder, renamed into
/// place when complete; "-" writes to standard output.
public enum ImageWriter {
    /// Encodes `image` to `path`.
    /// - Parameters:
    ///   - image: the pixels (any format; JPEG has no alpha: flattened onto `background`).
    ///   - path: the output path, or "-" for stdout.
    ///   - encoding: PNG, JPEG, WebP or HEIF settings.
    ///   - inputs: input paths the output must not overwrite.
    ///   - threads: threads a large PNG may be compressed on (1: serial).
    ///   - folder: when given, `path` is a name inside it (a batch's `--out`), made without
    ///     following links; else a path as a user named it (`OutputFile(path:)`).
    ///   - background: what transparent pixels are composited over where the format has no
    ///     alpha (JPEG); formats that keep alpha ignore it.
    ///   - metadata: the EXIF and XMP the output carries, written for its size (nil: none).
    /// - Returns: the number of bytes written (nil for stdout).
    /// - Throws: `OutputError`; no partial file remains.
    @discardableResult
    public static func write(
        _ image: Image, to path: String, in folder: (OutputFolder, shown: String)? = nil,
        encoding: OutputEncoding = .png(.default),
        protecting inputs: [String] = [], threads: Int = Threads.perImage,
        color: ColorDescription? = nil, background: Color = .white, metadata: CarriedMetadata? = nil
    ) throws(OutputError) -> Int64? {
        let out: OutputFile
        if let (root, shown) = folder {
            let sub = try root.subfolder(FileSystem.directory(of: path), create: false)
            out = try OutputFile(in: sub, name: FileSystem.basename(path), path: shown, protecting: inputs)
        } else {
            out = try OutputFile(path: path, protecting: inputs)
        }
        do {
            try encode(
                image, into: out, encoding: encoding, threads: threads, color: color?.carried(into: image.format),
                background: background, metadata: metadata)
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
        return out.size
    }

    /// Encodes into an open output, in bands of rows so nothing is copied whole.
    /// - Parameter threads: threads a large PNG may be compressed on (`ParallelPNGEncoder`).
    /// - Parameter color: what the output carries (already matched to its pixels, see
    ///   `ColorDescription.carried(into:)`).
    /// - Parameter background: JPEG's flattening colour (`Image.flattened(onto:)`).
    package static func encode(
        _ image: Image, into out: OutputFile, encoding: OutputEncoding,
        threads: Int = Threads.perImage, color: ColorDescription? = nil, background: Color = .white,
        metadata: CarriedMetadata? = nil
    ) throws(OutputError) {
        let (exifBlock, xmpBlock) = metadata?.blocks(for: image.size) ?? (nil, nil)
        switch encoding {
        case .png(let settings):
            let writer = try PNGWriter(
                file: out.file, path: out.path, size: image.size, format: image.format, settings: settings, color: color
            )
            try writer.write(exif: exifBlock, xmp: xmpBlock)
            if ParallelPNGEncoder.worthIt(image, threads: threads) {
                try ParallelPNGEncoder.encode(image, settings: settings, threads: threads, into: writer)
            } else if ParallelPNGEncoder.faster(settings) {
                try ParallelPNGEncoder.encode(image, settings: settings, threads: 1, into: writer)
            } else {
                try inBands(image) { rows, count throws(OutputError) in try writer.write(rows: rows, count: count) }
                try writer.finish()
            }
        case .jpeg(let quality, let subsampling, let progressive, let exif):
            let flat = image.flattened(onto: background)
            var coding = JPEGWriter.Coding(
                quality: quality, subsampling: subsampling, progressive: progressive, app1: exif)
            // Gray+alpha flattened onto a coloured background becomes RGB: a gray profile no longer fits.
            coding.icc = flat.format.isGray == image.format.isGray ? color?.icc : nil
            // A segment holds 65533 bytes: `CarriedMetadata.fitting` warned of larger blocks;
            // one that still comes here (a format chosen otherwise) is left out, not written broken.
            func fits(_ segment: [UInt8]?) -> [UInt8]? { segment.flatMap { $0.count <= 65533 ? $0 : nil } }
            if exif == nil, let exifBlock { coding.app1 = fits(JPEGMetadata.exifPrefix + exifBlock) }
            coding.app1XMP = fits(xmpBlock.map { JPEGMetadata.xmpNamespace + $0 })
            coding.app13 = fits(metadata?.jpegAPP13)
            let writer = try JPEGWriter(
                file: out.file, path: out.path, size: flat.size, channels: flat.format.channels, coding: coding)
            try inBands(flat) { rows, count throws(OutputError) in try writer.write(rows: rows, count: count) }
            try writer.finish()
        case .webp(let quality, let lossless, let exif):
            let bytes = try WebPEncoder.encode(
                image, quality: quality, lossless: lossless, exif: exif ?? exifBlock, icc: color?.icc, xmp: xmpBlock,
                path: out.path)
            try writeBytes(bytes, into: out)
        case .heif(let avif, let quality, let lossless, let exif):
            let bytes = try HEIFEncoder.encode(
                image, avif: avif, quality: quality, lossless: lossless, exif: exif ?? exifBlock, rotation: 0,
                xmp: xmpBlock,
                path: out.path, icc: image.format.isGray ? nil : color?.icc)
            try writeBytes(bytes, into: out)
        }
    }

    /// Writes an encoded file's bytes into an open output.
    package static func writeBytes(_ bytes: [UInt8], into out: OutputFile) throws(OutputError) {
        let written = out.file.withStream { stream in
            bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, stream) }
        }
        if written != bytes.count { throw .writeFailed(path: out.path, reason: "short write") }
    }

    /// Hands an image's rows to `write` 64 at a time, so no encoder copies it whole.
    package static func inBands(_ image: Image, _ write: (UnsafeRawBufferPointer, Int) throws(OutputError) -> Void)
        throws(OutputError)
    {
        let band = 64
        try image.pixels.withBytes { buffer throws(OutputError) in
            var y = 0
            while y < image.height {
                let n = min(band, image.height - y)
                try write(UnsafeRawBufferPointer(rebasing: buffer[(y * image.stride)...]), n)
                y += n
            }
        }
    }

    /// Encodes packed JPEG rows (1 gray, 3 RGB or 4 Adobe-inverted CMYK bytes per pixel).
    package static func encodeJPEG(
        rows: [UInt8], size: PixelSize, channels: Int, coding: JPEGWriter.Coding,
        into out: OutputFile
    ) throws(OutputError) {
        let writer = try JPEGWriter(file: out.file, path: out.path, size: size, channels: channels, coding: coding)
        try rows.withBytes { buffer throws(OutputError) in try writer.write(rows: buffer, count: size.height) }
        try writer.finish()
    }
}
