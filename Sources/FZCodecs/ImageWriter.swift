import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// How an output is encoded: the format's encoder with these settings.
public struct OutputEncoding: Hashable, Sendable {
    public var format: OutputFormat
    public var settings: EncodeSettings

    public init(_ format: OutputFormat, _ settings: EncodeSettings = EncodeSettings()) {
        self.format = format
        self.settings = settings
    }

    /// PNG with `settings`.
    public static func png(_ settings: PNGSettings) -> OutputEncoding {
        OutputEncoding(.png, EncodeSettings(png: settings))
    }
}

/// Writes images to files safely: a temporary file in the target folder, renamed into
/// place when complete; "-" writes to standard output.
public enum ImageWriter {
    /// Encodes `image` to `path`.
    /// - Parameters:
    ///   - image: the pixels (any format; JPEG has no alpha: flattened onto `background`).
    ///   - path: the output path, or "-" for stdout.
    ///   - encoding: the format and its settings.
    ///   - inputs: input paths the output must not overwrite.
    ///   - threads: threads a large PNG may be compressed on (1: serial).
    ///   - folder: when given, `path` is a name inside it (a batch's `--out`), made without
    ///     following links; else a path as a user named it (`OutputFile(path:)`).
    ///   - background: what transparent pixels are composited over where the format has no
    ///     alpha (JPEG); formats that keep alpha ignore it. Nil: `encoding.settings.background`.
    ///   - metadata: the EXIF and XMP the output carries, written for its size (nil: none).
    ///   - gainMap: the input's gain map at the output's geometry: a JPEG output becomes an
    ///     Ultra HDR JPEG (`writeUltraHDR`), an HEIC keeps an Apple map as Apple's auxiliary
    ///     image (`writeAppleHEIC`); other formats leave it out. With its `rendition`
    ///     (`--gain-map apply`) a PNG, AVIF or HEIC output is the HDR rendition in BT.2100 PQ.
    /// - Returns: the number of bytes written (nil for stdout).
    /// - Throws: `OutputError`; no partial file remains.
    @discardableResult
    public static func write(
        _ image: Image, to path: String, in folder: (OutputFolder, shown: String)? = nil,
        encoding: OutputEncoding = .png(.default),
        protecting inputs: [String] = [], threads: Int = Threads.perImage,
        color: ColorDescription? = nil, background: Color? = nil, metadata: CarriedMetadata? = nil,
        gainMap: CarriedGainMap? = nil
    ) throws(OutputError) -> Int64? {
        // The one place an output's gain map goes: applied, a PNG, AVIF or HEIC is the HDR
        // rendition (the map's XMP describes a map the file does not have: left out); kept, a
        // JPEG is Ultra HDR.
        if let gainMap, let render = gainMap.rendition, rendersHDR(encoding.format) {
            let hdr = try render(image, color)
            let metadata = metadata?.withoutGainMap()
            if encoding.format == .png {
                return try writePQ(
                    hdr, to: path, in: folder, settings: encoding.settings.png, protecting: inputs, metadata: metadata)
            }
            return try writePQ(hdr, to: path, in: folder, heif: encoding, protecting: inputs, metadata: metadata)
        }
        if let gainMap, isHEIC(encoding.format), gainMap.parameters.scheme == .apple, gainMap.image.format == .gray {
            return try writeAppleHEIC(
                image, map: gainMap, to: path, in: folder, encoding: encoding, protecting: inputs, color: color,
                background: background, metadata: metadata)
        }
        if let gainMap, carriesGainMap(encoding.format) {
            let (map, parameters) = DecodedGainMap.hdrgm(gainMap.image, gainMap.parameters)
            return try writeUltraHDR(
                image, map: map, parameters: parameters, to: path, in: folder, encoding: encoding,
                protecting: inputs, color: color, background: background, metadata: metadata)
        }
        let metadata = metadata?.withoutGainMap()
        let out = try openOutput(path, in: folder, protecting: inputs)
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

    /// Encodes into an open output through the format's encoder (`ImageEncoders`), which
    /// hands rows over in bands so nothing is copied whole.
    /// - Parameter threads: threads a large PNG may be compressed on (`ParallelPNGEncoder`).
    /// - Parameter color: what the output carries (already matched to its pixels, see
    ///   `ColorDescription.carried(into:)`).
    /// - Parameter background: JPEG's flattening colour (`Image.flattened(onto:)`); nil:
    ///   `encoding.settings.background`.
    package static func encode(
        _ image: Image, into out: OutputFile, encoding: OutputEncoding,
        threads: Int = Threads.perImage, color: ColorDescription? = nil, background: Color? = nil,
        metadata: CarriedMetadata? = nil
    ) throws(OutputError) {
        let (exif, xmp) = metadata?.blocks(for: image.size) ?? (nil, nil)
        let request = EncodeRequest(
            out: out, settings: encoding.settings, threads: threads, color: color,
            background: background ?? encoding.settings.background, exif: exif, xmp: xmp, metadata: metadata)
        try encoding.format.encoder.encode(image, request)
    }

    /// Writes an encoded file's bytes into an open output.
    /// The temporary output for `path`: relative to `folder`'s descriptor when given (the
    /// batch writers), else as the user named it.
    package static func openOutput(
        _ path: String, in folder: (OutputFolder, shown: String)?, protecting inputs: [String]
    ) throws(OutputError) -> OutputFile {
        guard let (root, shown) = folder else { return try OutputFile(path: path, protecting: inputs) }
        let sub = try root.subfolder(FileSystem.directory(of: path), create: false)
        return try OutputFile(in: sub, name: FileSystem.basename(path), path: shown, protecting: inputs)
    }

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
}
