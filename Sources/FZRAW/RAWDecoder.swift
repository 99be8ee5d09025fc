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
    private let input: RAWInput
    /// libraw over `input`: opened by `init`, or, when `dng` read the header, by the first
    /// develop (`libraw()`).
    private var opened: LibRawHandle?
    /// The header of a plain DNG read without libraw for a thumbnail (`DNGHeader`), or nil.
    private let dng: DNGHeader?
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
    private lazy var preview: RAWPreview? = RAWPreview(bytes: previewBytes(), applied: applied, decoder: self)

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        path = source.name
        self.options = options
        if !options.previewFirst { try Self.registration.requireLibrary(path: path) }
        input = try RAWInput(source: source, path: path, memoryLimit: options.maxMemory)
        // A thumbnail of a plain DNG reads its preview without libraw (DNGHeader says when).
        dng = options.previewFirst ? input.bytes.flatMap { DNGHeader.read($0) } : nil
        if let dng {
            facts = dng.facts
        } else {
            if options.previewFirst { try Self.registration.requireLibrary(path: path) }
            let handle = try LibRawHandle(input: input, path: path, memoryLimit: options.maxMemory)
            opened = handle
            facts = handle.facts
        }
        try options.checkPixels(facts.rawSize, path: path)
        let flip = options.autoOrient
        applied = flip ? facts.orientation : .up
        if let handle = opened {
            storedSize = try handle.developedSize(RAWDevelopSettings(flip: flip))
            halfSize = facts.filters == 0 ? storedSize : try handle.halfDevelopedSize(full: storedSize, flip: flip)
        } else {
            (storedSize, halfSize) = Self.developedSizes(facts, flip: flip)
        }
        try options.checkPixels(storedSize, path: path)
        fileBytes = input.fileSize
        xmp = input.bytes.flatMap { DNGXMP.find(in: $0, limit: options.chunkLimit) }
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
            holdsImageData: Int64(input.fileSize) * 128 >= Int64(facts.rawSize.area))
    }

    /// The full and half develops' sizes as libraw's adjust_sizes_info_only gives them where
    /// pixels are square and no Fuji rotation applies (what `DNGHeader` reads): the visible
    /// area, turned by the flip when it is applied; halved, rounded up, for a mosaic.
    static func developedSizes(_ facts: RAWFacts, flip: Bool) -> (PixelSize, PixelSize) {
        let v = facts.visibleSize
        let full = flip && facts.flip & 4 != 0 ? PixelSize(width: v.height, height: v.width) : v
        let half = facts.filters == 0 ? full : PixelSize(width: (full.width + 1) >> 1, height: (full.height + 1) >> 1)
        return (full, half)
    }

    /// libraw: the one `init` opened, or, after `DNGHeader` read the header, opened now and
    /// checked to read it the same (the sizes `init` gave are the image's).
    private func libraw() throws(DecodeError) -> LibRawHandle {
        if let opened { return opened }
        try Self.registration.requireLibrary(path: path)
        let handle = try LibRawHandle(input: input, path: path, memoryLimit: options.maxMemory)
        let f = handle.facts
        let flip = options.autoOrient
        let size = try handle.developedSize(RAWDevelopSettings(flip: flip))
        let half = f.filters == 0 ? size : try handle.halfDevelopedSize(full: size, flip: flip)
        guard f.rawSize == facts.rawSize, f.visibleSize == facts.visibleSize, f.flip == facts.flip,
            (f.filters == 0) == (facts.filters == 0), f.dngVersion == facts.dngVersion, size == storedSize,
            half == halfSize
        else {
            throw .corrupt(
                path: path,
                detail: "libraw reads its header otherwise than its IFDs say (raw \(f.rawSize), developed \(size))")
        }
        opened = handle
        return handle
    }

    /// The preview's bytes: where `DNGHeader` found them, else libraw's unpack_thumb.
    private func previewBytes() -> [UInt8]? {
        if let dng, let bytes = input.bytes {
            return Array(bytes[dng.previewOffset..<(dng.previewOffset + dng.facts.previewBytes)])
        }
        guard facts.previewIsJPEG, let handle = try? libraw() else { return nil }
        return try? handle.previewJPEG()
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
        let (made, more) = try libraw().develop(settings, lenient: options.lenient)
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
    var sensorSize: PixelSize { raw.sensorSize }
    var name: String { path }
    var decodeOptions: DecodeOptions { options }
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
