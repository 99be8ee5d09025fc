// Length: over 300 lines on purpose: every CFZPNG handle (our reader, libpng's row writer and
// whole-image fixture writer) lives in this one file, as the house rule for C libraries asks.

import CFZPNG
import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// What a PNG's header says, as stored.
public struct PNGDetails: Hashable, Sendable {
    public var bitDepth: Int
    /// PNG color type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
    public var colorType: Int
    public var interlaced: Bool
    public var hasTransparency: Bool
    /// gAMA value when present (reported, never applied).
    public var gamma: Double?
    public var hasICC: Bool
    public var hasChromaticities: Bool
    public var hasSRGB: Bool
    public var hasSignificantBits: Bool

    public var colorTypeName: String {
        switch colorType {
        case 0: return "gray"
        case 2: return "rgb"
        case 3: return "palette"
        case 4: return "gray+alpha"
        case 6: return "rgba"
        default: return "type \(colorType)"
        }
    }
}

/// Owns a PNG reader of CFZPNG's (fz_png_read.c: our chunk parser, ISA-L's inflate, SSE2
/// unfiltering; libpng's verdicts and transforms, issue 38). Decoding runs in the C shim;
/// this class only turns its statuses into `DecodeError`s.
final class PNGReader {
    private let reader: OpaquePointer
    private let file: CFile
    private let path: String
    let details: PNGDetails
    let size: PixelSize
    let format: PixelFormat
    let exif: [UInt8]?
    /// The XMP packet of an uncompressed iTXt chunk keyed XML:com.adobe.xmp.
    let xmp: [UInt8]?
    /// The colour chunks: iCCP inflated, sRGB, gAMA, cHRM.
    let color: ColorDescription
    /// Bytes a sample in the rows: 2 when a 16-bit image was started with `keep16`, else 1.
    private(set) var sampleBytes = 1
    private var nextRow = 0

    /// Opens a PNG, reads its header and checks it against the limits before libpng
    /// allocates anything sized by the image. The sample depth is chosen later, by `start`.
    /// - Parameters:
    ///   - file: a stream at the start of the file.
    ///   - path: the name used in errors.
    ///   - options: the pixel and memory limits, and the largest ancillary chunk
    ///     (decompressed) libpng may allocate.
    init(file: CFile, path: String, options: DecodeOptions) throws(DecodeError) {
        var out: OpaquePointer?
        let status = file.withStream { fz_pngr_open($0, options.chunkLimit, &out) }
        guard let reader = out else { throw .readFailed(path: path, reason: "out of memory") }
        let facts = fz_pngr_header_of(reader)!.pointee
        let stored = PixelSize(width: Int(facts.width), height: Int(facts.height))
        do throws(DecodeError) {
            if status != FZ_OK {
                // A header cut off after IHDR still meets the pixel limit first.
                try options.checkPixels(stored, path: path)
                throw Self.failure(of: reader, path: path, header: true)
            }
            try options.checkPixels(stored, path: path)
            let needed = Self.memoryNeeded(
                size: stored, bitDepth: Int(facts.bit_depth), colorType: Int(facts.color_type),
                interlaced: facts.interlaced != 0, transparency: facts.has_trns != 0)
            try options.checkMemory(needed, path: path)
        } catch {
            fz_pngr_free(reader)
            throw error
        }
        self.reader = reader
        self.file = file
        self.path = path
        fz_pngr_set_threads(reader, Int32(clamping: options.threads), max(0, options.pngPipelineMinimum))
        let h = fz_pngr_header_of(reader)!.pointee
        size = stored
        // The rows' layout after `start`'s expansions (palette to RGB, tRNS to alpha), known
        // from the header so that `info` needs no start.
        let transparent = h.color_type & 4 != 0 || h.has_trns != 0
        format = PixelFormat(channels: (h.color_type & 2 != 0 ? 3 : 1) + (transparent ? 1 : 0))!
        details = PNGDetails(
            bitDepth: Int(h.bit_depth), colorType: Int(h.color_type), interlaced: h.interlaced != 0,
            hasTransparency: h.has_trns != 0 || (h.color_type & 4) != 0, gamma: h.has_gamma != 0 ? h.gamma : nil,
            hasICC: h.has_iccp != 0, hasChromaticities: h.has_chrm != 0, hasSRGB: h.has_srgb != 0,
            hasSignificantBits: h.has_sbit != 0)
        if let p = h.exif, h.exif_length > 0 {
            exif = Array(UnsafeBufferPointer(start: p, count: Int(h.exif_length)))
        } else {
            exif = nil
        }
        xmp = h.xmp_itxt.flatMap { p in
            PNGText.xmp(inITXt: Array(UnsafeBufferPointer(start: p, count: Int(h.xmp_itxt_length))))
        }
        var c = ColorDescription()
        c.hasICC = h.has_iccp != 0
        if let p = h.icc, h.icc_length > 0 { c.icc = Array(UnsafeBufferPointer(start: p, count: Int(h.icc_length))) }
        c.sRGB = h.has_srgb != 0
        c.sRGBIntent = h.srgb_intent >= 0 ? Int(h.srgb_intent) : nil
        c.gamma = h.has_gamma != 0 ? h.gamma : nil
        if h.has_cicp != 0 { c.cicp = [Int(h.cicp.0), Int(h.cicp.1), Int(h.cicp.2), Int(h.cicp.3)] }
        c.hasChromaticities = h.has_chrm != 0
        if h.has_chrm != 0 {
            let m = h.chrm
            c.chromaticities = [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7]
        }
        color = c
    }

    /// The bytes decoding will hold at once, from the header alone: libpng's current and
    /// previous row at the widest pixel depth its transforms pass through, forcezoom's
    /// 8-bit row, and for Adam7 the whole 8-bit image. Saturates instead of overflowing.
    static func memoryNeeded(size: PixelSize, bitDepth: Int, colorType: Int, interlaced: Bool, transparency: Bool)
        -> Int64
    {
        let storedChannels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 4
        let outChannels = (colorType & 2 != 0 ? 3 : 1) + (colorType & 4 != 0 || transparency ? 1 : 0)
        let storedBytes = (bitDepth * storedChannels + 7) / 8
        let widestBytes = max(storedBytes, (bitDepth == 16 ? 2 : 1) * outChannels)
        let w = Double(size.width)
        let h = Double(size.height)
        var bytes = 2 * w * Double(widestBytes) + w * Double(outChannels)
        if interlaced { bytes += w * h * Double(outChannels) }
        return bytes >= 9.0e18 ? Int64.max : Int64(bytes)
    }

    deinit { fz_pngr_free(reader) }

    /// Sets up libpng's transforms before the first row: samples rounded to 8 bits, or, with
    /// `keep16` and a 16-bit image, kept (2 bytes a sample, big-endian). Called once.
    func start(keep16: Bool) throws(DecodeError) {
        guard (keep16 ? fz_pngr_start_keep16(reader) : fz_pngr_start(reader)) == FZ_OK,
            Int(fz_pngr_header_of(reader)!.pointee.channels) == format.channels
        else { throw Self.failure(of: reader, path: path, header: true) }
        sampleBytes = keep16 && details.bitDepth == 16 ? 2 : 1
    }

    /// libpng's warnings so far (ancillary CRC errors and the like).
    var warningCount: Int { Int(fz_pngr_warning_count(reader)) }

    /// Reads the next rows of a non-interlaced image into `buffer` (`count` rows of
    /// `size.width * channels` bytes).
    /// - Returns: rows read; fewer than `count` only when `lenient` and the data broke off.
    /// - Throws: `DecodeError` on corrupt or truncated data (unless lenient).
    func readRows(into buffer: UnsafeMutableRawBufferPointer, count: Int, lenient: Bool, warnings: inout [String])
        throws(DecodeError) -> Int
    {
        var done: UInt32 = 0
        let stride = size.width * format.channels * sampleBytes
        let status = fz_pngr_read_rows(
            reader, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
            UInt32(count), stride, &done)
        nextRow += Int(done)
        if status != FZ_OK {
            let message = String(cString: fz_pngr_message(reader))
            if !lenient { throw Self.failure(of: reader, path: path, header: false) }
            warnings.append("\(message); kept \(nextRow) of \(size.height) rows")
        }
        return Int(done)
    }

    /// Reads a whole interlaced image into `buffer` (all rows).
    func readInterlaced(into buffer: UnsafeMutableRawBufferPointer, lenient: Bool, warnings: inout [String])
        throws(DecodeError)
    {
        let stride = size.width * format.channels * sampleBytes
        let status = fz_pngr_read_interlaced(reader, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), stride)
        if status != FZ_OK {
            let message = String(cString: fz_pngr_message(reader))
            if !lenient { throw Self.failure(of: reader, path: path, header: false) }
            warnings.append("\(message); interlaced passes are incomplete")
        }
    }

    /// The reader's last failure (its kind as fz_png.c found it): truncated or corrupt, in
    /// the header or in the data.
    static func failure(of reader: OpaquePointer, path: String, header: Bool) -> DecodeError {
        let message = String(cString: fz_pngr_message(reader))
        if fz_pngr_failure_of(reader) == FZ_PNG_TRUNCATED {
            return header ? .truncatedHeader(path: path, detail: message) : .truncated(path: path, detail: message)
        }
        return header ? .corruptHeader(path: path, detail: message) : .corrupt(path: path, detail: message)
    }
}

/// Writes 8-bit PNGs row by row through libpng. Every libpng pointer lives in this file.
package final class PNGWriter {
    /// A failed write: the system's reason (no space left on device...) when the file
    /// refused the bytes, else libpng's message. `errno` comes first so that it is read
    /// right after the failed call, before anything else can change it.
    package static func writeFailure(errno code: Int32, path: String, writer: OpaquePointer) -> OutputError {
        let refused = fz_png_writer_failure_of(writer) == FZ_PNG_WRITE_FAILED
        let message = String(cString: fz_png_writer_message(writer))
        return .writeFailed(path: path, reason: refused && code != 0 ? Errno(code).description : message)
    }

    private let writer: OpaquePointer
    /// The output as named in messages.
    package let path: String
    private let format: PixelFormat
    private let width: Int

    /// Writes the PNG header, and `color` (an iCCP profile, or sRGB/gAMA/cHRM) before the data.
    /// `bitDepth` 16 takes rows of big-endian 16-bit samples.
    package init(
        file: CFile, path: String, size: PixelSize, format: PixelFormat, settings: PNGSettings,
        color: ColorDescription? = nil, bitDepth: Int = 8
    ) throws(OutputError) {
        var out: OpaquePointer?
        let icc = color?.icc ?? []
        let status = file.withStream { stream in
            icc.withUnsafeBufferPointer { p in
                var c = fz_png_color()
                c.srgb_intent = -1
                if let color {
                    c.icc = p.count > 0 ? p.baseAddress : nil
                    c.icc_length = UInt32(p.count)
                    c.srgb_intent = Int32(color.sRGBIntent ?? -1)
                    c.gamma = color.gamma ?? 0
                    if let m = color.chromaticities, m.count == 8 {
                        c.has_chrm = 1
                        c.chrm = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7])
                    }
                }
                return withUnsafePointer(to: &c) { colorPointer in
                    fz_png_writer_begin_depth(
                        stream, UInt32(size.width), UInt32(size.height), Int32(format.channels), Int32(bitDepth),
                        Int32(settings.level), Int32(settings.filter.rawValue), Int32(settings.strategy),
                        color == nil ? nil : colorPointer, &out)
                }
            }
        }
        guard let writer = out else { throw .writeFailed(path: path, reason: "out of memory") }
        self.writer = writer
        self.path = path
        self.format = format
        self.width = size.width * (bitDepth == 16 ? 2 : 1)
        if status != FZ_OK { throw Self.writeFailure(errno: errno, path: path, writer: writer) }
    }

    deinit { fz_png_writer_free(writer) }

    /// Writes `count` packed rows.
    package func write(rows: UnsafeRawBufferPointer, count: Int) throws(OutputError) {
        let status = fz_png_writer_rows(
            writer, rows.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(count),
            width * format.channels)
        if status != FZ_OK { throw Self.writeFailure(errno: errno, path: path, writer: writer) }
    }

    /// Writes one chunk as given (after the header; the parallel encoder's IDATs and IEND).
    package func write(chunk name: String, _ data: UnsafeRawBufferPointer) throws(OutputError) {
        precondition(name.utf8.count == 4, "PNG chunk names have four letters")
        let status = fz_png_writer_chunk(
            writer, name, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count)
        if status != FZ_OK { throw Self.writeFailure(errno: errno, path: path, writer: writer) }
    }

    /// Writes the metadata chunks (before the image data, where readers look): eXIf, and
    /// XMP's iTXt.
    package func write(exif: [UInt8]?, xmp: [UInt8]?) throws(OutputError) {
        if let exif { try exif.withBytes { b throws(OutputError) in try write(chunk: "eXIf", b) } }
        if let xmp {
            let itxt = PNGText.itxt(xmp: xmp)
            try itxt.withBytes { b throws(OutputError) in try write(chunk: "iTXt", b) }
        }
    }

    /// Flushes what was written by `write(chunk:)`; the file is then complete.
    package func flush() throws(OutputError) {
        if fz_png_writer_flush(writer) != FZ_OK {
            throw Self.writeFailure(errno: errno, path: path, writer: writer)
        }
    }

    /// Finishes the file.
    package func finish() throws(OutputError) {
        if fz_png_writer_end(writer) != FZ_OK {
            throw Self.writeFailure(errno: errno, path: path, writer: writer)
        }
    }
}

/// A whole-image PNG description for fixtures: any colour type and depth, palette, tRNS,
/// interlacing, eXIf.
package struct PNGImageSpec {
    package var width: Int
    package var height: Int
    package var depth: Int
    package var interlaced: Bool
    package var settings: PNGSettings
    package var colorType = 2
    package var palette: [UInt8] = []
    package var trnsAlpha: [UInt8] = []
    /// gray, red, green, blue at the image's depth.
    package var trnsColor: (UInt16, UInt16, UInt16, UInt16)?
    package var exif: [UInt8]?
    /// An ICC profile written as iCCP.
    package var icc: [UInt8]?

    package init(width: Int, height: Int, depth: Int, interlaced: Bool, settings: PNGSettings) {
        self.width = width
        self.height = height
        self.depth = depth
        self.interlaced = interlaced
        self.settings = settings
    }
}

extension PNGWriter {
    /// Writes a whole PNG from rows packed at the spec's depth.
    package static func writeImage(_ s: PNGImageSpec, rows: [UInt8], stride: Int, into out: OutputFile)
        throws(OutputError)
    {
        var message = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))
        let exif = s.exif ?? []
        let icc = s.icc ?? []
        let status = icc.withUnsafeBufferPointer { profile in
            rows.withUnsafeBufferPointer { r in
                s.palette.withUnsafeBufferPointer { pal in
                    s.trnsAlpha.withUnsafeBufferPointer { trns in
                        exif.withUnsafeBufferPointer { ex in
                            var spec = fz_png_spec()
                            spec.width = UInt32(s.width)
                            spec.height = UInt32(s.height)
                            spec.color_type = Int32(s.colorType)
                            spec.bit_depth = Int32(s.depth)
                            spec.interlaced = s.interlaced ? 1 : 0
                            spec.palette = pal.baseAddress
                            spec.palette_count = Int32(s.palette.count / 3)
                            spec.trns_alpha = trns.baseAddress
                            spec.trns_count = Int32(s.trnsAlpha.count)
                            if let t = s.trnsColor {
                                spec.has_trns_color = 1
                                (spec.trns_gray, spec.trns_red, spec.trns_green, spec.trns_blue) = t
                            }
                            spec.exif = ex.count > 0 ? ex.baseAddress : nil
                            spec.exif_length = UInt32(ex.count)
                            spec.icc = profile.count > 0 ? profile.baseAddress : nil
                            spec.icc_length = UInt32(profile.count)
                            spec.level = Int32(s.settings.level)
                            spec.filters = Int32(s.settings.filter.rawValue)
                            spec.strategy = Int32(s.settings.strategy)
                            return out.file.withStream {
                                fz_png_write_image($0, &spec, r.baseAddress, stride, &message)
                            }
                        }
                    }
                }
            }
        }
        if status != FZ_OK {
            throw .writeFailed(path: out.path, reason: String(cString: message))
        }
    }
}

extension PNGWriter {
    /// Encodes an image to PNG bytes in memory (APNG frames are cut from these).
    package static func encode(_ image: Image, settings: PNGSettings) throws(OutputError) -> [UInt8] {
        guard let file = CFile.memoryStream() else {
            throw .writeFailed(path: "<memory>", reason: "open_memstream failed")
        }
        let writer = try PNGWriter(
            file: file, path: "<memory>", size: image.size, format: image.format, settings: settings)
        try image.pixels.withBytes { buffer throws(OutputError) in try writer.write(rows: buffer, count: image.height) }
        try writer.finish()
        file.close()
        return file.memoryContents
    }
}
