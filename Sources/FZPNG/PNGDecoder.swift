import FZFormat
import FZImage
import FZSystem
import Geometry

/// PNG through our reader (`PNGReader` owns its pointers; libpng only writes): every colour type and depth,
/// palette and tRNS expanded, 16 bits rounded to 8 (or kept, `beginDeep`), Adam7 buffered whole.
package final class PNGDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .png, names: ["PNG"], extensions: ["png"], capabilities: [.alpha, .deepSamples, .exif, .icc])
    package static func sniff(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    private let reader: PNGReader
    private let lenient: Bool
    private let path: String
    let options: DecodeOptions
    /// The input (an APNG's frames read it again, `APNGAnimation`).
    let source: ImageSource
    /// acTL's frame count and plays (nil: a still PNG), read on first use (`--animated`).
    lazy var animationControl: (frames: Int, plays: Int)? = APNGAnimation.control(of: source.file)
    /// The whole image, for interlaced files (after `begin`).
    private var interlaced: InterlacedBuffer?
    private var scratch: [UInt8] = []
    package private(set) var warnings: [String] = []

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        reader = try PNGReader(file: source.file, path: source.name, options: options)
        lenient = options.lenient
        path = source.name
        self.options = options
        self.source = source
    }

    package var storedSize: PixelSize { reader.size }
    package var pixelFormat: PixelFormat { reader.format }
    package var bitDepth: Int { reader.details.bitDepth }
    package var exif: [UInt8]? { reader.exif }
    package var xmp: [UInt8]? { reader.xmp }
    package var details: any CodecDetails { reader.details }
    package var color: ColorDescription { reader.color }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        try start(keep16: false)
    }

    /// A 16-bit PNG's samples as stored; nil for 1-, 2-, 4- and 8-bit images.
    package func beginDeep(columns: Range<Int>?) throws(DecodeError) -> RowLayout? {
        guard bitDepth == 16 else { return nil }
        return try start(keep16: true)
    }

    private var rowBytes: Int { storedSize.width * pixelFormat.channels * reader.sampleBytes }

    private func start(keep16: Bool) throws(DecodeError) -> RowLayout {
        try reader.start(keep16: keep16)
        if reader.details.interlaced {
            let (product, overflow) = rowBytes.multipliedReportingOverflow(by: storedSize.height)
            let bytes = overflow ? Int64.max : Int64(product)
            // The header check counted the interlaced image at 8 bits; at 16 it is twice that.
            if reader.sampleBytes == 2 { try options.checkMemory(bytes, path: path) }
            guard !overflow, let full = InterlacedBuffer(rowBytes: rowBytes, height: storedSize.height) else {
                let mib = DecodeError.mebibytes(bytes)
                throw .readFailed(path: path, reason: "out of memory for the \(mib) MiB interlaced image")
            }
            try reader.readInterlaced(into: full.bytes, lenient: lenient, warnings: &warnings)
            interlaced = full
        }
        return RowLayout(firstColumn: 0, width: storedSize.width, height: storedSize.height)
    }

    package func skip(rows: Int) throws(DecodeError) {
        if let interlaced { return interlaced.skip(rows: rows) }
        // Rows depend on the row above (filters): skipped rows are decoded into a scratch row.
        if scratch.count != rowBytes { scratch = [UInt8](repeating: 0, count: rowBytes) }
        for _ in 0..<max(0, rows) {
            let got = try scratch.withMutableBytes { b throws(DecodeError) in try read(into: b, rows: 1) }
            if got == 0 { return }
        }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        if let interlaced { return interlaced.read(into: buffer, rows: rows) }
        return try reader.readRows(into: buffer, count: rows, lenient: lenient, warnings: &warnings)
    }
}

extension ImageFormat {
    public static let png = ImageFormat(rawValue: "PNG")
}

extension PNGDetails: CodecDetails {
    public var summary: [String] {
        var parts = ["\(colorTypeName) \(bitDepth)-bit"]
        if interlaced { parts.append("interlaced") }
        if hasTransparency && colorType != 4 && colorType != 6 { parts.append("tRNS") }
        if let g = gamma { parts.append("gamma \(JSON.format(g)) (not applied)") }
        if hasICC { parts.append("ICC profile (not applied)") }
        if hasSRGB { parts.append("sRGB") }
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(bitDepth)), ("pngColorType", .string(colorTypeName)),
            ("interlaced", .bool(interlaced)), ("transparency", .bool(hasTransparency)),
            ("gamma", gamma.map { .number($0) } ?? .null), ("icc", .bool(hasICC)),
            ("chrm", .bool(hasChromaticities)), ("srgb", .bool(hasSRGB)),
        ]
    }
}
