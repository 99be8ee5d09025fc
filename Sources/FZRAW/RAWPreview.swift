import FZFormat
import FZImage
import FZJPEG
import Geometry

/// The preview's decoder opened by `RAWPreview.init`, handed to the first decode under the
/// same options (a decoder begins once); later decodes open their own.
final class OpenedPreview {
    private var decoder: JPEGDecoder?
    private let options: DecodeOptions?

    init(_ decoder: JPEGDecoder?, options: DecodeOptions? = nil) {
        self.decoder = decoder
        self.options = options
    }

    func take(if wanted: DecodeOptions) -> JPEGDecoder? {
        defer { decoder = nil }
        return wanted == options ? decoder : nil
    }
}

/// The embedded JPEG preview of a RAW, when it shows the developed picture: its shape (in
/// the sensor's orientation, as previews are stored) within 1% of the develop's (cameras
/// crop their JPEG a few pixels inside the sensor's visible area). Offered at each of the
/// JPEG decoder's DCT scalings, so a thumbnail decodes no more of it than it needs.
struct RAWPreview {
    let jpeg: [UInt8]
    /// The stored preview's size at each denominator, and those denominators.
    let stored: [PixelSize]
    let denominators: [Int]
    let orientation: Orientation
    let path: String
    /// The decoder whose header `init` read, kept for the first `decode` when it was opened
    /// with the options `decode` uses: a thumbnail copies and parses the preview once, not twice.
    private let opened: OpenedPreview

    /// `bytes`: the preview libraw's unpack_thumb gives (or `DNGHeader` finds where it would).
    init?(bytes: [UInt8]?, applied: Orientation, decoder: RAWDecoder) {
        guard let bytes else { return nil }
        let name = decoder.name
        // Strict reads open the same as `decode` will (its limits); the preview must also pass
        // the default limits `jpegOptions` checks, so which RAWs have a preview is unchanged.
        let reusable = !decoder.decodeOptions.lenient
        let options = reusable ? Self.decodeOptions(decoder.decodeOptions) : Self.jpegOptions
        guard let preview = try? Self.open(bytes, name: name, options: options),
            (try? Self.jpegOptions.checkPixels(preview.storedSize, path: name)) != nil
        else {
            // The limits `decode` uses refused it: as before, the default options decide
            // whether there is a preview, and `decode` says why it cannot be read.
            guard reusable, let plain = try? Self.open(bytes, name: name, options: Self.jpegOptions) else { return nil }
            self.init(bytes: bytes, preview: plain, applied: applied, decoder: decoder, keep: false)
            return
        }
        self.init(bytes: bytes, preview: preview, applied: applied, decoder: decoder, keep: reusable)
    }

    private init?(bytes: [UInt8], preview: JPEGDecoder, applied: Orientation, decoder: RAWDecoder, keep: Bool) {
        let p = preview.storedSize
        let s = decoder.sensorSize
        guard p.area > 0, abs(Double(p.width * s.height) / Double(p.height * s.width) - 1) <= 0.01 else { return nil }
        jpeg = bytes
        denominators = preview.denominators
        stored = denominators.map { preview.scaledSize(denominator: $0) }
        orientation = applied
        path = decoder.name
        opened = OpenedPreview(keep ? preview : nil, options: keep ? Self.decodeOptions(decoder.decodeOptions) : nil)
    }

    /// The preview's JPEG decoder, its header read and its size checked against the budget
    /// (as `ImageReader` checks every input); nil when the bytes are not a JPEG. The RAW's
    /// orientation, not the preview's EXIF, applies, so no reader of the registry is needed.
    static func open(_ bytes: [UInt8], name: String, options: DecodeOptions) throws(DecodeError) -> JPEGDecoder? {
        let source = try ImageSource(bytes: bytes, name: name)
        guard JPEGDecoder.sniff(source.head) else { return nil }
        let decoder = try JPEGDecoder(source: source, options: options)
        let size = decoder.storedSize
        guard size.width > 0, size.height > 0 else { return nil }
        try options.checkPixels(size, path: name)
        return decoder
    }

    static var jpegOptions: DecodeOptions {
        var o = DecodeOptions()
        o.autoOrient = false  // the RAW's orientation applies to its preview
        return o
    }

    /// Upright sizes (the RAW's orientation applied, as libraw applies it to the develop).
    var sizes: [PixelSize] { stored.map { orientation.uprightSize(ofStored: $0) } }

    /// The JPEG reader's options for a decode under the RAW's: its limits and leniency.
    static func decodeOptions(_ options: DecodeOptions) -> DecodeOptions {
        var o = Self.jpegOptions
        o.maxPixels = options.maxPixels
        o.maxMemory = options.maxMemory
        o.lenient = options.lenient
        return o
    }

    func decode(_ index: Int, orientation applied: Orientation, options: DecodeOptions) throws(DecodeError) -> Image {
        let o = Self.decodeOptions(options)
        var held = opened.take(if: o)
        if held == nil { held = try Self.open(jpeg, name: path, options: o) }
        guard let preview = held else {
            throw .corrupt(path: path, detail: "the JPEG preview is no longer a JPEG")
        }
        let layout = try preview.begin(denominator: denominators[index], columns: nil)
        let c = preview.pixelFormat.channels
        let count = layout.width * layout.height * c
        // Zeroed: a lenient decode that broke off leaves the rest black. Every row in one call,
        // straight into the image's pixels.
        var pixels = [UInt8](repeating: 0, count: count)
        var failure: DecodeError?
        pixels.withUnsafeMutableBytes { buffer in
            do throws(DecodeError) { _ = try preview.read(into: buffer, rows: layout.height) } catch { failure = error }
        }
        if let failure { throw failure }
        let image = Image(width: layout.width, height: layout.height, format: preview.pixelFormat, pixels: pixels)
        return image.converted(to: .rgb).oriented(applied)
    }
}
