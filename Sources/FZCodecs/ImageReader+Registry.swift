import FZFormat
import FZGainMap
import FZMetadata
import FZRAW
import FZSystem

/// Opening an input through the registry: its first bytes choose the decoder
/// (`ImageDecoders`), and what no decoder takes is named (`unreadable`). The reading itself is
/// FZFormat's `ImageReader`, which the layers that only read rows (the resampler) use
/// without waiting for every format to build.
extension ImageReader {
    /// Opens a file (or "-" for stdin), sniffs its format and reads the header.
    /// - Throws: `DecodeError` for missing, unreadable, empty, unsupported or corrupt
    ///   files, and for images over the pixel or memory limit.
    public convenience init(path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        let source = try ImageSource(path: path, options: options)
        do { try self.init(source: source, options: options) } catch { throw source.remoteFailure(or: error) }
    }

    /// Reads the header for `info`, which decodes nothing: a file whose decoding the memory
    /// limit would refuse is still described, and that refusal comes back beside it.
    /// - Throws: `DecodeError` as `init(path:options:)`, except over the memory limit.
    public static func header(path: String, options: DecodeOptions) throws(DecodeError) -> (
        reader: ImageReader, decodingRefused: DecodeError?
    ) {
        let source = try ImageSource(path: path, options: options)
        do {
            return (try ImageReader(source: source, options: options), nil)
        } catch {
            guard case .overMemoryLimit = error, source.file.rewind() else { throw source.remoteFailure(or: error) }
            var headerOnly = options
            headerOnly.headerOnly = true
            return (try ImageReader(source: source, options: headerOnly), error)
        }
    }

    /// Reads an image held in memory (a download, a fuzzer's input), as `init(path:)` reads a file.
    public convenience init(bytes: [UInt8], name: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError)
    {
        try self.init(source: ImageSource(bytes: bytes, name: name), options: options)
    }

    /// Reads the header of an opened input with the decoder its first bytes ask for.
    public convenience init(source: ImageSource, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        let type: any ImageDecoder.Type
        switch source.sniffed {
        case .supported:
            guard let t = ImageDecoders.decoder(for: source.head) else {
                throw .notAnImage(path: source.name, what: "no decoder", reads: FormatRegistry.inputNames())
            }
            type = t
        case .unknown where RAWDecoder.headerless.contains(FileSystem.fileExtension(source.name).lowercased()):
            // A RAW without a header (Kodak's C330 .raw, Casio's, Nokia's): libraw knows the
            // camera by the file's size alone; its error, not "not an image", when it does not.
            type = RAWDecoder.self
        case .unsupported, .text, .unknown: throw Self.unreadable(source)
        }
        do {
            try self.init(source: source, options: options, decoder: type)
        } catch {
            // A RAW libraw cannot read whose embedded JPEG preview is there: that, with a warning.
            guard type == RAWDecoder.self, error.isHeaderFailure, RAWPreviewDecoder.canonPreview(source.file) != nil
            else { throw error }
            try self.init(source: source, options: options, decoder: RAWPreviewDecoder.self)
        }
    }

    /// The HDR gain map stored beside the image (JPEG: an MPF image with gain-map XMP), for
    /// `info`. It reads the file again from its start, so this reader decodes nothing after.
    public func probeGainMap() -> GainMap.Probe {
        precondition(!consumed, "an ImageReader decodes once")
        consumed = true
        return probedGainMap()
    }

    /// The gain-map probe of this reader's file, asked of its decoder (a format that carries
    /// gain maps probes for its own): `probeGainMap` before the pixels, `readGainMap` after.
    func probedGainMap() -> GainMap.Probe {
        guard let probing = GainMapProbers.prober(for: decoder) else { return .none }
        return probing.probeGainMap(source.file, primary: header.storedSize, exif: metadata.exif)
    }

    /// `carriedMetadata(_:for:)` for the first encoder that writes `format` (callers that
    /// hold the sniffed format: HEIC and AVIF declare the same containers).
    public func carriedMetadata(
        _ policy: MetadataPolicy, for format: ImageFormat
    ) -> (CarriedMetadata?, warnings: [String]) {
        carriedMetadata(policy, for: OutputFormat.writing(format) ?? .png)
    }
}

extension DecodeError {
    /// The header could not be read (as opposed to a limit refusing the image, or its data).
    fileprivate var isHeaderFailure: Bool {
        switch self {
        case .unsupportedVariant, .corruptHeader, .truncatedHeader: return true
        default: return false
        }
    }
}
