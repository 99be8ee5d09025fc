// Length: just over 300 lines: the decoder and its embedded preview (which reads the JPEG once) belong together.

import FZFormat
import FZImage
import FZJPEG
import FZSystem
import Geometry

/// What a camera RAW's header says, for `info`.
public struct RAWDetails: Hashable, Sendable {
    public var make: String
    public var model: String
    /// The sensor's stored size (masked borders included), before the develop crops and turns it.
    public var rawSize: PixelSize
    /// The developed image in the sensor's orientation (before `flip`).
    public var sensorSize: PixelSize
    /// The embedded JPEG preview's size as stored, when libraw finds one.
    public var preview: PixelSize?
    /// "1.4.0.0" for a DNG, nil for a maker's own format.
    public var dngVersion: String?
    /// The camera's orientation as EXIF numbers it (libraw's `flip`).
    public var cameraOrientation: Int
    /// False when the file is far too small for its sensor: a stub without image data.
    public var holdsImageData: Bool

    var camera: String {
        // Makers repeat their name in the model ("Canon Canon EOS 6D" is libraw's "Canon" + "EOS 6D").
        model.uppercased().hasPrefix(make.uppercased()) ? model : "\(make) \(model)"
    }
}

/// Camera RAW and DNG through libraw (RAWCodec.swift holds its pointers): the whole image is
/// developed as `dcraw_emu -w` does (`RAWDevelopSettings`), the camera's orientation applied
/// by libraw, so the stored size is the upright one (as HEIF's, whose decoder turns it too);
/// `thumb` reads the embedded JPEG preview when it shows the same picture, through the JPEG
/// decoder's DCT scaling; 1/2 is libraw's half-size develop (no demosaic).
///
/// libraw reads a regular file itself (only what it needs); standard input and bytes in
/// memory are held whole, their size counted against the memory limit.
package final class RAWDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .raw, names: ["camera RAW/DNG"],
        extensions: [
            "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "rwl", "pef", "mrw",
            "iiq", "3fr", "erf", "kdc", "dcr", "srw", "x3f", "gpr",
        ],
        capabilities: [.deepSamples, .embeddedThumbnails], reportedNames: ["RAW", "DNG"], library: .raw)
    package static func sniff(_ head: [UInt8]) -> Bool { RAWSniffer.isCameraRAW(head) }
    /// Extensions of RAWs with no header to sniff, which libraw knows by their size: an
    /// input so named that no sniffer takes is given to libraw.
    package static let headerless: Set<String> = ["raw"]

    package let storedSize: PixelSize
    package var pixelFormat: PixelFormat { .rgb }
    /// libraw develops to 16 bits (`output_bps`) for deep reads; 8 otherwise.
    package var bitDepth: Int { 16 }
    package var exif: [UInt8]? { nil }
    /// IFD0's XMP (tag 700), where DNG writers put it; libraw does not hand it over.
    package let xmp: [UInt8]?
    /// libraw applies the camera's orientation itself.
    package var exifOrientationApplies: Bool { false }
    /// A DNG's XMP regions are in the sensor's orientation, which libraw turns.
    package var pixelsTurnedBy: Orientation { applied }
    package var color: ColorDescription { ColorDescription() }
    package var details: any CodecDetails { raw }
    package private(set) var warnings: [String] = []
    package var denominators: [Int] { halfSize == storedSize ? [1] : [1, 2] }
    package func scaledSize(denominator: Int) -> PixelSize { denominator == 2 ? halfSize : storedSize }

    private let path: String
    private let options: DecodeOptions
    private let handle: LibRawHandle
    private let facts: RAWFacts
    private let raw: RAWDetails
    private let halfSize: PixelSize
    private let fileBytes: Int
    /// The orientation libraw applies (`.up` under `--no-auto-orient`).
    private let applied: Orientation
    /// The developed rows and where `read` is.
    private var rows: RAWDevelopedImage?
    private var rowBytes = 0
    private var layout = RowLayout(firstColumn: 0, width: 0, height: 0)
    private var next = 0
    /// The embedded preview, read on first use: its bytes and JPEG reader's scaled sizes.
    private lazy var preview: RAWPreview? = RAWPreview(handle: handle, facts: facts, applied: applied, decoder: self)

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        path = source.name
        self.options = options
        try Self.registration.requireLibrary(path: path)
        handle = try LibRawHandle(source: source, path: path, memoryLimit: options.maxMemory)
        facts = handle.facts
        try options.checkPixels(facts.rawSize, path: path)
        let flip = options.autoOrient
        applied = flip ? facts.orientation : .up
        storedSize = try handle.developedSize(RAWDevelopSettings(flip: flip))
        halfSize = facts.filters == 0 ? storedSize : try handle.halfDevelopedSize(full: storedSize, flip: flip)
        try options.checkPixels(storedSize, path: path)
        fileBytes = handle.fileSize
        xmp = handle.tiffXMP(limit: options.chunkLimit)
        // The least any develop holds (half size where the sensor has a mosaic), judged
        // here from the header as every decoder's memory is (`ImageDecoder`); the full
        // develop's is checked when it starts.
        try options.checkMemory(Self.developMemory(facts, halfSize, bits: 8), path: path)
        let dng = facts.dngVersion
        raw = RAWDetails(
            make: facts.make, model: facts.model, rawSize: facts.rawSize,
            sensorSize: applied.uprightSize(ofStored: storedSize),
            preview: facts.previewIsJPEG && facts.previewSize.area > 0 ? facts.previewSize : nil,
            dngVersion: dng == 0 ? nil : "\(dng >> 24).\(dng >> 16 & 255).\(dng >> 8 & 255).\(dng & 255)",
            cameraOrientation: facts.orientation.rawValue,
            // Under 1 bit for 16 pixels is no raw coding: a stub whose image data was removed
            // (libraw develops those to black without an error).
            holdsImageData: Int64(handle.fileSize) * 128 >= Int64(facts.rawSize.area))
    }

    /// What libraw holds while developing: the raw samples (2 bytes each for a mosaic, 8
    /// for four-colour ones), its four 16-bit channels a pixel, and our copy of the result.
    private static func developMemory(_ facts: RAWFacts, _ size: PixelSize, bits: Int) -> Int64 {
        let rawBytes = Int64(facts.rawSize.area) * (facts.filters == 0 ? 8 : 2)
        return rawBytes + Int64(size.area) * (8 + 3 * Int64(bits / 8) * 2)
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        try develop(RAWDevelopSettings(half: denominator == 2, bits: 8, flip: options.autoOrient))
    }

    package func beginDeep(columns: Range<Int>?) throws(DecodeError) -> RowLayout? {
        try develop(RAWDevelopSettings(bits: 16, flip: options.autoOrient))
    }

    private func develop(_ settings: RAWDevelopSettings) throws(DecodeError) -> RowLayout {
        let size = settings.half ? halfSize : storedSize
        try options.checkMemory(Self.developMemory(facts, size, bits: settings.bits), path: path)
        if !raw.holdsImageData {
            let stub = "\(fileBytes) bytes cannot hold a \(facts.rawSize) sensor's data (a stub, or cut short)"
            guard options.lenient else { throw .corrupt(path: path, detail: stub) }
            warnings.append(stub)
        }
        rows = nil
        let (made, more) = try handle.develop(settings, lenient: options.lenient)
        warnings += more
        guard made.size == size else {
            throw .corrupt(path: path, detail: "libraw developed \(made.size), not the \(size) its header gives")
        }
        rows = made
        rowBytes = size.width * 3 * settings.bits / 8
        layout = RowLayout(firstColumn: 0, width: size.width, height: size.height)
        return layout
    }

    package func skip(rows count: Int) throws(DecodeError) { next = min(layout.height, next + max(0, count)) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows count: Int) throws(DecodeError) -> Int {
        let n = min(count, layout.height - next)
        guard n > 0, let rows else { return 0 }
        buffer.baseAddress!.copyMemory(
            from: rows.pixels.baseAddress!.advanced(by: next * rowBytes), byteCount: n * rowBytes)
        next += n
        return n
    }

    package var embeddedThumbnails: [PixelSize] { preview?.sizes ?? [] }
    /// `RAWPreview` checked the shape to 1%.
    package var embeddedThumbnailShapeTolerance: Double { 0.011 }

    package func decodeEmbeddedThumbnail(_ index: Int) throws(DecodeError) -> Image {
        guard let preview else { throw .corrupt(path: path, detail: "the embedded preview is gone") }
        return try preview.decode(index, orientation: applied, options: options)
    }

    /// The developed image in the sensor's orientation, for the preview's shape check.
    fileprivate var sensorSize: PixelSize { raw.sensorSize }
    fileprivate var name: String { path }
    fileprivate var decodeOptions: DecodeOptions { options }
}

/// The preview's decoder opened by `RAWPreview.init`, handed to the first decode under the
/// same options (a decoder begins once); later decodes open their own.
private final class OpenedPreview {
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
private struct RAWPreview {
    let jpeg: [UInt8]
    /// The stored preview's size at each denominator, and those denominators.
    let stored: [PixelSize]
    let denominators: [Int]
    let orientation: Orientation
    let path: String
    /// The decoder whose header `init` read, kept for the first `decode` when it was opened
    /// with the options `decode` uses: a thumbnail copies and parses the preview once, not twice.
    private let opened: OpenedPreview

    init?(handle: LibRawHandle, facts: RAWFacts, applied: Orientation, decoder: RAWDecoder) {
        guard facts.previewIsJPEG, let bytes = try? handle.previewJPEG() else { return nil }
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

extension ImageFormat {
    public static let raw = ImageFormat(rawValue: "RAW")
}

extension RAWDetails: CodecDetails {
    public var formatName: String? { dngVersion == nil ? "RAW" : "DNG" }

    public var summary: [String] {
        var parts = [camera, "raw \(rawSize)"]
        if let dngVersion { parts.append("DNG \(dngVersion)") }
        parts.append(preview.map { "JPEG preview \($0)" } ?? "no JPEG preview")
        parts.append(
            holdsImageData ? "developed by libraw as dcraw_emu -w" : "NO IMAGE DATA (too small for its sensor: a stub)")
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("camera", .string(camera)), ("rawWidth", .int(Int64(rawSize.width))),
            ("rawHeight", .int(Int64(rawSize.height))),
            ("preview", preview.map { .array([.int(Int64($0.width)), .int(Int64($0.height))]) } ?? .null),
            ("dngVersion", dngVersion.map { .string($0) } ?? .null), ("imageData", .bool(holdsImageData)),
        ]
    }

    /// The develop in the sensor's orientation: libraw turns it (as HEIF's decoder does).
    public var codedDimensions: PixelSize? { sensorSize }
}
