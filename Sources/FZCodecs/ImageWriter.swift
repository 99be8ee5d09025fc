import FZFormat
import FZGainMap
import FZImage
import FZMetadata
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// Writes images to files safely: a temporary file in the target folder, renamed into
/// place when complete; "-" writes to standard output. (The byte-level helpers every
/// encoder uses are FZFormat's part of `ImageWriter`.)
extension ImageWriter {
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
            switch encoding.format.hdrRendition {
            case .cicp16:
                return try writePQ(
                    hdr, to: path, in: folder, settings: encoding.settings.png, protecting: inputs, metadata: metadata)
            case .nclxCodec, .none:
                return try writePQ(hdr, to: path, in: folder, heif: encoding, protecting: inputs, metadata: metadata)
            }
        }
        if let gainMap, keepsAppleMap(encoding.format), gainMap.parameters.scheme == .apple,
            gainMap.image.format == .gray
        {
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
}

extension OutputEncoding {
    /// PNG with `settings`.
    public static func png(_ settings: PNGSettings) -> OutputEncoding {
        OutputEncoding(.png, EncodeSettings(png: settings))
    }
}
