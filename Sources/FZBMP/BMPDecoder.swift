import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// What a BMP's headers say, for `info`.
public struct BMPDetails: Hashable, Sendable {
    /// The information header ("BITMAPINFOHEADER", "BITMAPV5HEADER", "OS/2 core"...).
    public var header: String
    public var bitsPerPixel: Int
    /// "none", "RLE8", "RLE4", "bitfields" or "alpha bitfields".
    public var compression: String
    public var topDown: Bool
    public var paletteColors: Int
    public var alpha: Bool
}

/// BMP, our own bounded reader (no small, well-kept C library reads it): OS/2 core,
/// BITMAPINFOHEADER and V2-V5 headers; 1, 2, 4 and 8 bits through the palette, 16 and 32
/// through bit masks (5-5-5 and BGRX when the file gives none; an alpha mask gives alpha),
/// 24 as BGR; RLE8 and RLE4 with their end-of-line, end-of-bitmap and delta codes. Samples
/// narrower than 8 bits are widened as Pillow does (v * 255 / max, rounded down); pixels an
/// RLE delta or early end skips are palette entry 0, as Pillow shows them.
///
/// Uncompressed rows are read one at a time from where they are stored (bottom-up files
/// seek back for each row), so memory is one row. RLE data is decoded whole into one byte a
/// pixel, checked against the budget first. A colour index past the palette, a run past its
/// row, data past the file's end: one error naming the file.
package final class BMPDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .bmp, names: ["BMP"], extensions: ["bmp", "dib"], capabilities: [.alpha])
    package static func sniff(_ head: [UInt8]) -> Bool {
        // "BM" and an information header size under 64 KiB (its top bytes 0): a text file
        // starting "BM" is not taken for one; an odd size gets BMPHeader's own message.
        // An OS/2 bitmap array: "BA", then the first bitmap's "BM" header at 14.
        let at = arrayHeader(head) ? 14 : 0
        return head.count >= at + 18 && head[at] == 0x42 && head[at + 1] == 0x4D && head[at + 16] == 0
            && head[at + 17] == 0
    }

    /// `head` starts an OS/2 bitmap array whose first entry is a bitmap ("BA" ... "BM").
    static func arrayHeader(_ head: [UInt8]) -> Bool {
        head.count >= 16 && head[0] == 0x42 && head[1] == 0x41 && head[14] == 0x42 && head[15] == 0x4D
    }

    package let storedSize: PixelSize
    package let pixelFormat: PixelFormat
    package var bitDepth: Int { 8 }
    package var exif: [UInt8]? { nil }
    package var color: ColorDescription { ColorDescription() }
    private let bmp: BMPDetails
    package var details: any CodecDetails { bmp }
    package private(set) var warnings: [String] = []

    private let header: BMPHeader
    private let source: ImageSource
    private let path: String
    private let options: DecodeOptions
    private let unpacker: BMPRowUnpacker
    /// An RLE image's palette indices, top row first (decoded by `begin`).
    private var indices: ZeroedBuffer?
    private var next = 0
    /// Rows there are to read (fewer when a lenient RLE decode broke off).
    private var available = 0

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        self.source = source
        self.options = options
        path = source.name
        let file = source.file
        let fileSize = Self.size(of: file)
        let head = Self.read(file, at: 0, count: 14 + 14 + 124)
        header = try BMPHeader.parse(head, fileSize: fileSize, path: path) { Self.read(file, at: $0, count: $1) }
        storedSize = PixelSize(width: header.width, height: header.height)
        pixelFormat = header.hasAlpha ? .rgba : .rgb
        bmp = BMPDetails(
            header: header.kind, bitsPerPixel: header.bitCount, compression: header.compressionName,
            topDown: header.topDown, paletteColors: header.paletteColors, alpha: header.hasAlpha)
        unpacker = BMPRowUnpacker(header: header, channels: pixelFormat.channels, path: path)
        try options.checkPixels(storedSize, path: path)
        let area = Int64(header.width) * Int64(header.height)
        let rowBytes = Int64(header.width) * 4 + Int64(header.stride)
        try options.checkMemory(header.isRLE ? area + Int64(header.dataBytes) + rowBytes : rowBytes, path: path)
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        available = header.height
        if header.isRLE {
            let data = Self.read(source.file, at: header.dataOffset, count: header.dataBytes)
            guard let out = ZeroedBuffer(count: header.width * header.height) else {
                throw .readFailed(path: path, reason: "out of memory for the \(storedSize) image")
            }
            indices = out
            let rle = BMPRunLengthDecoder(data: data, header: header, path: path)
            do { try rle.decode(into: out.bytes) } catch {
                guard options.lenient else { throw error }
                warnings.append(error.keptReason)
            }
        }
        return RowLayout(firstColumn: 0, width: header.width, height: header.height)
    }

    package func skip(rows: Int) throws(DecodeError) { next = min(available, next + max(0, rows)) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        let n = min(rows, available - next)
        guard n > 0 else { return 0 }
        let rowBytes = header.width * pixelFormat.channels
        for i in 0..<n {
            let y = next + i
            let out = UnsafeMutableRawBufferPointer(rebasing: buffer[(i * rowBytes)..<((i + 1) * rowBytes)])
            do throws(DecodeError) {
                try readRow(y, into: out)
            } catch {
                guard options.lenient else { throw error }
                warnings.append(error.keptReason)
                available = y
                next = y
                return i
            }
        }
        next += n
        return n
    }

    /// Row `y` (from the top) as pixels: from the RLE indices, or read where it is stored.
    private func readRow(_ y: Int, into out: UnsafeMutableRawBufferPointer) throws(DecodeError) {
        if let indices {
            let row = UnsafeRawBufferPointer(rebasing: indices.bytes[(y * header.width)..<((y + 1) * header.width)])
            try unpacker.expand(indices: row, into: out)
            return
        }
        let stored = header.topDown ? y : header.height - 1 - y
        let bytes = Self.read(source.file, at: header.dataOffset + stored * header.stride, count: header.stride)
        guard bytes.count == header.stride else {
            throw .truncated(path: path, detail: "the pixel data ends before row \(y + 1) of \(header.height)")
        }
        try unpacker.unpack(bytes, into: out)
    }

    /// The stream's size in bytes.
    private static func size(of file: CFile) -> Int {
        file.withStream { s in
            guard fseeko(s, 0, SEEK_END) == 0 else { return 0 }
            return Int(ftello(s))
        }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    private static func read(_ file: CFile, at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0, file.withStream({ fseeko($0, off_t(offset), SEEK_SET) }) == 0 else { return [] }
        return file.read(upTo: count)
    }
}

extension ImageFormat {
    public static let bmp = ImageFormat(rawValue: "BMP")
}

extension BMPDetails: CodecDetails {
    public var summary: [String] {
        var parts = [header, "\(bitsPerPixel)-bit"]
        if compression != "none" { parts.append(compression) }
        if paletteColors > 0 { parts.append("\(paletteColors)-colour palette") }
        if alpha { parts.append("alpha") }
        if topDown { parts.append("top-down") }
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(8)), ("bmpHeader", .string(header)), ("bitsPerPixel", .int(bitsPerPixel)),
            ("bmpCompression", .string(compression)), ("topDown", .bool(topDown)),
            ("paletteColors", .int(paletteColors)), ("alpha", .bool(alpha)),
        ]
    }
}
