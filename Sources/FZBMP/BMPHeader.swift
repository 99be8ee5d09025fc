import FZFormat
import FZSystem
import Geometry

/// A BMP's file header, information header (OS/2 core, BITMAPINFOHEADER, V2-V5, OS/2 2.x),
/// bit masks and palette, every size and offset checked against the file's size.
struct BMPHeader: Equatable, Sendable {
    /// The information header's name ("BITMAPINFOHEADER"...).
    var kind: String
    var headerSize: Int
    var width: Int
    var height: Int
    /// Rows are stored top first (a negative height); else the bottom row comes first.
    var topDown: Bool
    var bitCount: Int
    /// 0 none, 1 RLE8, 2 RLE4, 3 bitfields, 6 alpha bitfields.
    var compression: Int
    /// Where the pixel data starts.
    var dataOffset: Int
    /// How many bytes of pixel data the file holds from `dataOffset` on.
    var dataBytes: Int
    /// Red, green, blue and alpha masks for 16- and 32-bit pixels.
    var masks: [UInt32] = [0, 0, 0, 0]
    /// The colour table as RGB triples (1- to 8-bit images).
    var palette: [UInt8] = []

    var paletteColors: Int { palette.count / 3 }
    var hasAlpha: Bool { bitCount >= 16 && masks[3] != 0 }
    var isRLE: Bool { compression == 1 || compression == 2 }
    /// Bytes of one stored row: rows are padded to 4 bytes.
    var stride: Int { (width * bitCount + 31) / 32 * 4 }

    var compressionName: String {
        switch compression {
        case 0: return "none"
        case 1: return "RLE8"
        case 2: return "RLE4"
        case 3: return "bitfields"
        default: return "alpha bitfields"
        }
    }

    /// The 14-byte file header and up to 124 bytes of information header are in `head`
    /// (as many as the file has); the masks after a short header and the palette are read
    /// from `read(offset, count)`.
    /// An OS/2 bitmap array ("BA", 14 bytes, then a bitmap's "BM" file header; the offsets
    /// inside it count from the start of the file) gives its first bitmap.
    static func parse(
        _ file: [UInt8], fileSize: Int, path: String, read: (Int, Int) -> [UInt8]
    ) throws(DecodeError) -> BMPHeader {
        let base = BMPDecoder.arrayHeader(file) ? 14 : 0
        let head = Array(file.dropFirst(base))
        func u16(_ o: Int) -> Int { Int(head[o]) | Int(head[o + 1]) << 8 }
        func u32(_ o: Int) -> UInt32 {
            UInt32(head[o]) | UInt32(head[o + 1]) << 8 | UInt32(head[o + 2]) << 16 | UInt32(head[o + 3]) << 24
        }
        func short(_ what: String) -> DecodeError {
            .truncatedHeader(path: path, detail: "the file is \(fileSize) bytes, too short for the BMP \(what)")
        }
        guard head.count >= 18 else { throw short("file header") }
        let headerSize = Int(u32(14))
        let known = [12, 16, 40, 52, 56, 64, 108, 124]
        guard known.contains(headerSize) || (16...64).contains(headerSize) else {
            throw .corruptHeader(path: path, detail: "unknown BMP information header size \(headerSize)")
        }
        guard head.count >= 14 + headerSize else { throw short("information header") }
        var h = BMPHeader(
            kind: Self.name(headerSize) + (base > 0 ? " (first of a bitmap array)" : ""), headerSize: headerSize,
            width: 0, height: 0, topDown: false, bitCount: 0,
            compression: 0, dataOffset: Int(u32(10)), dataBytes: 0)
        let planes: Int
        if headerSize == 12 {
            h.width = u16(18)
            h.height = u16(20)
            planes = u16(22)
            h.bitCount = u16(24)
        } else {
            h.width = Int(Int32(bitPattern: u32(18)))
            let height = Int(Int32(bitPattern: u32(22)))
            h.topDown = height < 0
            h.height = abs(height)
            planes = u16(26)
            h.bitCount = u16(28)
            h.compression = headerSize >= 20 ? Int(u32(30)) : 0
        }
        guard planes == 1 else { throw .corruptHeader(path: path, detail: "\(planes) planes (BMP has 1)") }
        guard h.width > 0 && h.height > 0 else {
            throw .corruptHeader(path: path, detail: "the BMP says it is \(h.width)x\(h.height)")
        }
        try h.checkCoding(path: path)
        let colorsUsed = headerSize >= 36 ? Int(u32(46)) : 0
        var next = base + 14 + headerSize
        if h.compression == 3 || h.compression == 6 {
            if headerSize >= 52 {
                h.masks = (0..<4).map { headerSize >= 56 || $0 < 3 ? u32(54 + $0 * 4) : 0 }
            } else {
                let count = h.compression == 6 ? 4 : 3
                let bytes = read(next, count * 4)
                guard bytes.count == count * 4 else { throw short("bit masks") }
                h.masks = (0..<4).map { i in
                    i < count ? (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[i * 4 + $1]) << ($1 * 8) } : 0
                }
                next += count * 4
            }
        } else if h.bitCount == 16 {
            h.masks = [0x7C00, 0x3E0, 0x1F, 0]
        } else if h.bitCount == 32 {
            h.masks = [0xFF0000, 0xFF00, 0xFF, 0]
        }
        if h.bitCount <= 8 { h.palette = try readPalette(colorsUsed, from: next, header: h, path: path, read: read) }
        try h.placeData(fileSize: fileSize, sizeImage: headerSize >= 24 ? Int(u32(34)) : 0, path: path)
        return h
    }

    /// Refuses bit counts and compressions this reader does not decode, by name.
    private func checkCoding(path: String) throws(DecodeError) {
        // OS/2 2.x headers (16 to 64 bytes, other than Windows' 40, 52 and 56) give codes
        // 3 and 4 other meanings.
        let os2 = ![12, 40, 52, 56, 108, 124].contains(headerSize)
        switch compression {
        case 0 where [1, 2, 4, 8, 16, 24, 32].contains(bitCount): return
        case 1 where bitCount == 8, 2 where bitCount == 4: return
        case 3 where !os2 && (bitCount == 16 || bitCount == 32), 6 where bitCount == 16 || bitCount == 32: return
        case 0, 1, 2, 3, 6:
            if ![1, 2, 4, 8, 16, 24, 32].contains(bitCount) {
                throw .corruptHeader(path: path, detail: "\(bitCount) bits a pixel (BMP has 1, 2, 4, 8, 16, 24 or 32)")
            }
        default: break
        }
        let name: String
        switch compression {
        case 1, 2: name = "RLE\(compression == 1 ? 8 : 4) with \(bitCount) bits a pixel"
        case 3 where os2 || bitCount == 1: name = "Huffman 1D"
        case 3, 6: name = "bit masks with \(bitCount) bits a pixel"
        case 4 where os2 || bitCount == 24: name = "RLE24"
        case 4: name = "JPEG inside BMP"
        case 5: name = "PNG inside BMP"
        default: name = "compression \(compression)"
        }
        throw .unsupportedVariant(path: path, what: "BMP coding (\(name)); convert it first")
    }

    /// The colour table after the headers: `colorsUsed` entries (0: all 2^bits), 3 bytes
    /// each after an OS/2 core header, else 4.
    private static func readPalette(
        _ colorsUsed: Int, from offset: Int, header h: BMPHeader, path: String, read: (Int, Int) -> [UInt8]
    ) throws(DecodeError) -> [UInt8] {
        let full = 1 << h.bitCount
        guard colorsUsed >= 0 && colorsUsed <= 1 << 16 else {
            throw .corruptHeader(path: path, detail: "a palette of \(colorsUsed) colours")
        }
        let count = colorsUsed == 0 ? full : min(colorsUsed, full)
        let entry = h.headerSize == 12 ? 3 : 4
        let bytes = read(offset, count * entry)
        guard bytes.count == count * entry else {
            throw .truncatedHeader(path: path, detail: "the \(count)-colour palette runs past the end of the file")
        }
        var rgb = [UInt8](repeating: 0, count: count * 3)
        for i in 0..<count {
            rgb[i * 3] = bytes[i * entry + 2]
            rgb[i * 3 + 1] = bytes[i * entry + 1]
            rgb[i * 3 + 2] = bytes[i * entry]
        }
        return rgb
    }

    /// Checks the pixel data's place: inside the file, and (uncompressed) how much of it is
    /// there; a file cut short is found when its rows are read.
    private mutating func placeData(fileSize: Int, sizeImage: Int, path: String) throws(DecodeError) {
        guard dataOffset >= 14 && dataOffset < fileSize else {
            throw .corruptHeader(
                path: path, detail: "the pixel data offset \(dataOffset) is outside the \(fileSize)-byte file")
        }
        dataBytes = fileSize - dataOffset
        if isRLE && sizeImage > 0 { dataBytes = min(dataBytes, sizeImage) }
        if isRLE && topDown {
            throw .corruptHeader(path: path, detail: "a top-down BMP cannot be run-length coded")
        }
    }

    private static func name(_ size: Int) -> String {
        switch size {
        case 12: return "OS/2 core"
        case 40: return "BITMAPINFOHEADER"
        case 52: return "BITMAPV2INFOHEADER"
        case 56: return "BITMAPV3INFOHEADER"
        case 108: return "BITMAPV4HEADER"
        case 124: return "BITMAPV5HEADER"
        default: return "OS/2 2.x"
        }
    }
}
