import FZFormat
import FZImage
import FZJPEG
import FZSystem
import Geometry

/// What `info` says of a RAW read through its embedded preview alone.
public struct RAWPreviewDetails: Hashable, Sendable {
    /// libraw's reason for not reading the RAW.
    public var libraw: String
    public var preview: PixelSize
}

/// A camera RAW that libraw cannot read (a CR3 whose raw data was pruned, a newer camera's
/// coding) but whose embedded JPEG preview is there: the preview is the image, with one
/// warning saying so (as exiftool finds it: Canon's CR3 PRVW box). Chosen by FZCodecs'
/// registry only after `RAWDecoder` failed on the header; never by sniffing.
package final class RAWPreviewDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .raw, names: ["camera RAW preview"], extensions: [], capabilities: [], library: .raw)
    package static func sniff(_ head: [UInt8]) -> Bool { false }

    /// Canon's CR3 preview box: a top-level `uuid` box of this UUID holds a `PRVW` box.
    static let canonPreviewUUID: [UInt8] = [
        0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
    ]
    /// The largest preview read (a camera's full-size JPEG is well under this).
    static let previewLimit = 64 << 20

    private let jpeg: JPEGDecoder
    private let facts: RAWPreviewDetails
    package let warnings: [String]
    package var storedSize: PixelSize { jpeg.storedSize }
    package var pixelFormat: PixelFormat { jpeg.pixelFormat }
    package var bitDepth: Int { 8 }
    package var exif: [UInt8]? { jpeg.exif }
    package var color: ColorDescription { jpeg.color }
    package var details: any CodecDetails { facts }
    package var denominators: [Int] { jpeg.denominators }
    package func scaledSize(denominator: Int) -> PixelSize { jpeg.scaledSize(denominator: denominator) }

    package convenience init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        // libraw's own words for why it cannot (the registry comes here only after it failed).
        var reason = "libraw cannot read it"
        do { _ = try LibRawHandle(source: source, path: source.name, memoryLimit: options.maxMemory) } catch {
            reason = error.reason
        }
        try self.init(source: source, options: options, reason: reason)
    }

    init(source: ImageSource, options: DecodeOptions, reason: String) throws(DecodeError) {
        let path = source.name
        guard let bytes = Self.canonPreview(source.file) else {
            throw .unsupportedVariant(path: path, what: "camera RAW (\(reason)), and no embedded JPEG preview found")
        }
        try options.checkMemory(Int64(bytes.count), path: path)
        let preview = try ImageSource(bytes: bytes, name: path)
        guard JPEGDecoder.sniff(preview.head) else {
            throw .unsupportedVariant(path: path, what: "camera RAW (\(reason)); its preview is not a JPEG")
        }
        jpeg = try JPEGDecoder(source: preview, options: options)
        facts = RAWPreviewDetails(libraw: reason, preview: jpeg.storedSize)
        warnings = ["\(reason); its embedded \(jpeg.storedSize) JPEG preview is shown instead"]
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        try jpeg.begin(denominator: denominator, columns: columns)
    }

    package func skip(rows: Int) throws(DecodeError) { try jpeg.skip(rows: rows) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        try jpeg.read(into: buffer, rows: rows)
    }

    /// The JPEG in a CR3's PRVW box (in the preview `uuid` box, after 8 bytes of its own):
    /// 8 bytes of box header, 16 of fields (width and height at 6 and 8, the JPEG's length at
    /// 12), then the JPEG. Every size checked against its box and the file; nil when absent.
    package static func canonPreview(_ file: CFile) -> [UInt8]? {
        guard file.rewind() else { return nil }
        let head = file.read(upTo: 12)
        guard head.count == 12, head[4..<12].elementsEqual(Array("ftypcrx ".utf8)) else { return nil }
        let length = file.length ?? 0
        var at = 0
        for _ in 0..<64 {
            guard at + 8 <= length, file.seek(to: at) else { return nil }
            let box = file.read(upTo: 8 + 16 + 8 + 8 + 16)
            guard box.count >= 8 else { return nil }
            var size = Int(u32(box, 0))
            var header = 8
            if size == 1 {
                guard box.count >= 16 else { return nil }
                let large = UInt64(u32(box, 8)) << 32 | UInt64(u32(box, 12))
                guard large <= UInt64(Int.max) else { return nil }
                size = Int(large)
                header = 16
            }
            if size == 0 { size = length - at }
            guard size >= header, size <= length - at else { return nil }
            if box[4..<8].elementsEqual(Array("uuid".utf8)), box.count >= header + 16 + 8 + 8 + 16,
                box[header..<(header + 16)].elementsEqual(canonPreviewUUID)
            {
                let p = header + 16 + 8  // the PRVW box
                let prvwSize = Int(u32(box, p))
                guard box[(p + 4)..<(p + 8)].elementsEqual(Array("PRVW".utf8)), prvwSize >= 24,
                    p + prvwSize <= size
                else { return nil }
                let jpegLength = Int(u32(box, p + 8 + 12))
                guard jpegLength > 0, jpegLength <= prvwSize - 24, jpegLength <= previewLimit,
                    file.seek(to: at + p + 24)
                else { return nil }
                let jpeg = file.read(upTo: jpegLength)
                return jpeg.count == jpegLength ? jpeg : nil
            }
            at += size
        }
        return nil
    }

    private static func u32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
    }
}

extension RAWPreviewDetails: CodecDetails {
    public var summary: [String] { ["not developed (\(libraw))", "its embedded JPEG preview \(preview)"] }

    public var jsonMembers: [(String, JSON)] {
        [
            ("preview", .array([.int(Int64(preview.width)), .int(Int64(preview.height))]))
        ]
    }
}
