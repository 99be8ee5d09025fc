// Length: over 300 lines on purpose: this is the one Swift file that owns libjpeg's pointers (the
// reader, the writer and their streams), as every C library has one (house rule).

import CFZJPEG
import CJPEG
import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// What a JPEG's header says.
public struct JPEGDetails: Hashable, Sendable {
    public var components: Int
    /// The file's colour space: gray, ycbcr, rgb, cmyk, ycck.
    public var colorSpace: String
    public var progressive: Bool
    /// The frame's coding from its SOFn marker: baseline (SOF0), extended (sequential with
    /// more tables or 12 bits: SOF1, SOF9), progressive (SOF2, SOF10) or lossless (SOF3).
    public var coding: String
    public var arithmetic: Bool
    public var precision: Int
    /// Chroma subsampling as J:a:b ("4:2:0"), or "" for gray.
    public var subsampling: String
    /// Per component sampling factors ("2x2,1x1,1x1").
    public var samplingFactors: String
    public var hasICC: Bool
    public var adobe: Bool
}

/// Owns a libjpeg-turbo decompressor: every libjpeg pointer lives in this file. Decoding
/// runs in the C shims (setjmp); this class turns their statuses into `DecodeError`s.
final class JPEGReader {
    private let reader: OpaquePointer
    private let file: CFile
    private let path: String
    let details: JPEGDetails
    let size: PixelSize
    let format: PixelFormat
    let exif: [UInt8]?
    /// The XMP packet of an APP1 segment.
    let xmp: [UInt8]?
    /// The 8BIM resources of the first APP13 "Photoshop 3.0" segment (where IPTC lives).
    let photoshop: [UInt8]?
    /// The ICC profile reassembled from its APP2 segments.
    let icc: [UInt8]?
    private let lenient: Bool
    /// What decoding will hold at once (see `memoryNeeded`), and the limit it met.
    private let memoryNeeded: Int64
    private let memoryLimit: Int64
    private let scanLimit: Int

    /// SOF0 baseline; SOF1, SOF5, SOF9, SOF13 extended sequential; SOF2, 6, 10, 14
    /// progressive; SOF3, 7, 11, 15 lossless. Without a marker (a stream it could not
    /// walk), libjpeg's progressive flag decides.
    static func coding(sof: Int, progressive: Bool) -> String {
        switch sof {
        case 0xC0: return "baseline"
        case 0xC1, 0xC5, 0xC9, 0xCD: return "extended"
        case 0xC2, 0xC6, 0xCA, 0xCE: return "progressive"
        case 0xC3, 0xC7, 0xCB, 0xCF: return "lossless"
        default: return progressive ? "progressive" : "baseline"
        }
    }

    /// Opens a JPEG, reads its header and checks it against the limits.
    /// - Parameters:
    ///   - file: a stream at the start of the file.
    ///   - path: the name used in errors.
    ///   - options: leniency (keep going past corrupt data, libjpeg grey-fills), the
    ///     progressive scan limit, and the pixel and memory limits.
    init(file: CFile, path: String, options: DecodeOptions) throws(DecodeError) {
        var out: OpaquePointer?
        let maxMemory = options.maxMemory > 0 ? Int(options.maxMemory) : 0
        let status = file.withStream {
            fz_jpeg_open($0, options.lenient ? 0 : 1, Int32(clamping: options.maxScans), maxMemory, &out)
        }
        guard let reader = out else { throw .readFailed(path: path, reason: "out of memory") }
        let h = fz_jpeg_header_of(reader)!.pointee
        let stored = PixelSize(width: Int(h.width), height: Int(h.height))
        let n = Int(h.components)
        let hs = [h.h_samp.0, h.h_samp.1, h.h_samp.2, h.h_samp.3].map { Int($0) }
        let vs = [h.v_samp.0, h.v_samp.1, h.v_samp.2, h.v_samp.3].map { Int($0) }
        let needed = Self.memoryNeeded(
            size: stored, components: min(n, 4), h: hs, v: vs, multipleScans: h.multiple_scans != 0)
        do throws(DecodeError) {
            // A header cut off after the SOF still meets the pixel limit first.
            try options.checkPixels(stored, path: path)
            if status != FZ_OK {
                throw Self.classify(
                    fz_jpeg_failure_of(reader), String(cString: fz_jpeg_message(reader)), path: path, header: true)
            }
            try options.checkMemory(needed, path: path)
        } catch {
            fz_jpeg_reader_free(reader)
            throw error
        }
        self.reader = reader
        self.file = file
        self.path = path
        self.lenient = options.lenient
        memoryNeeded = needed
        memoryLimit = options.maxMemory
        scanLimit = options.maxScans
        size = stored
        format = h.channels == 1 ? .gray : .rgb
        details = JPEGDetails(
            components: n, colorSpace: Self.colorSpaceName(Int(h.color_space)), progressive: h.progressive != 0,
            coding: Self.coding(sof: Int(h.sof_marker), progressive: h.progressive != 0),
            arithmetic: h.arithmetic != 0, precision: Int(h.data_precision),
            subsampling: Self.subsampling(h: hs, v: vs, components: n),
            samplingFactors: (0..<min(n, 4)).map { "\(hs[$0])x\(vs[$0])" }.joined(separator: ","),
            hasICC: h.has_icc != 0, adobe: h.saw_adobe != 0)
        if let p = h.exif, h.exif_length > 0 {
            exif = Array(UnsafeBufferPointer(start: p, count: Int(h.exif_length)))
        } else {
            exif = nil
        }
        func bytes(_ p: UnsafePointer<UInt8>?, _ n: UInt32) -> [UInt8]? {
            p.flatMap { n > 0 ? Array(UnsafeBufferPointer(start: $0, count: Int(n))) : nil }
        }
        xmp = bytes(h.xmp, h.xmp_length)
        photoshop = bytes(h.app13, h.app13_length)
        icc = h.icc.flatMap { p in
            h.icc_length > 0 ? Array(UnsafeBufferPointer(start: p, count: Int(h.icc_length))) : nil
        }
    }

    /// The bytes decoding will hold at once, from the header alone: for a progressive or
    /// multi-scan file libjpeg's whole-image coefficient buffer (64 coefficients of 2 bytes
    /// per block of every component), plus a few rows of every component and forcezoom's
    /// output row. Saturates instead of overflowing.
    static func memoryNeeded(size: PixelSize, components n: Int, h: [Int], v: [Int], multipleScans: Bool) -> Int64 {
        guard n > 0 else { return 0 }
        let hMax = Double(max(1, h.prefix(n).max() ?? 1))
        let vMax = Double(max(1, v.prefix(n).max() ?? 1))
        let w = Double(size.width)
        let ht = Double(size.height)
        var bytes = 0.0
        for c in 0..<n {
            let blocksX = (w * Double(max(1, h[c])) / hMax / 8).rounded(.up)
            let blocksY = (ht * Double(max(1, v[c])) / vMax / 8).rounded(.up)
            if multipleScans { bytes += blocksX * blocksY * 128 }
            bytes += blocksX * 8 * 8 * vMax * 3  // iMCU row buffers: a few rows of each component
        }
        bytes += w * 4 * 2  // colour-converted and forcezoom's rows
        return bytes >= 9.0e18 ? Int64.max : Int64(bytes)
    }

    deinit { fz_jpeg_reader_free(reader) }

    /// libjpeg's corrupt-data warnings so far (only non-zero when lenient).
    var warningCount: Int { Int(fz_jpeg_warning_count(reader)) }
    var lastMessage: String { String(cString: fz_jpeg_message(reader)) }

    /// The scaled output size libjpeg gives for 1/`denominator`: ceil(W/d) x ceil(H/d).
    static func scaledSize(_ size: PixelSize, denominator d: Int) -> PixelSize {
        PixelSize(width: (size.width + d - 1) / d, height: (size.height + d - 1) / d)
    }

    /// Starts decoding at 1/`denominator` scale with output columns limited to `columns`
    /// (in scaled pixels; nil = all).
    /// - Returns: the first column libjpeg will deliver and the delivered row width
    ///   (the crop is widened to iMCU boundaries).
    func start(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> (x: Int, width: Int) {
        var ox: UInt32 = 0
        var ow: UInt32 = 0
        var oh: UInt32 = 0
        let x = UInt32(columns?.lowerBound ?? 0)
        let w = UInt32(columns?.count ?? 0)
        if fz_jpeg_start(reader, Int32(denominator), x, w, &ox, &ow, &oh) != FZ_OK { throw failure() }
        return (Int(ox), Int(ow))
    }

    /// Skips rows without colour conversion.
    func skip(rows: Int) throws(DecodeError) {
        guard rows > 0 else { return }
        if fz_jpeg_skip_rows(reader, UInt32(rows)) != FZ_OK { throw failure() }
    }

    /// Reads `count` rows of `rowBytes` each into `buffer`.
    /// - Returns: rows read (fewer only when lenient and the data broke off).
    func read(into buffer: UnsafeMutableRawBufferPointer, rows count: Int, rowBytes: Int, warnings: inout [String])
        throws(DecodeError) -> Int
    {
        var done: UInt32 = 0
        let status = fz_jpeg_read_rows(
            reader, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
            UInt32(count), rowBytes, &done)
        if status != FZ_OK {
            if !lenient || fz_jpeg_failure_of(reader) == FZ_JPEG_SCAN_LIMIT { throw failure() }
            warnings.append(lastMessage)
        }
        return Int(done)
    }

    /// How CMYK or YCCK samples become sRGB (nil for other JPEGs): what `info` reports.
    private(set) var cmykConversion: String?

    /// Chooses what CMYK and YCCK rows are converted through: the file's own CMYK profile,
    /// else `options.cmykProfile` or the system's default (`CMYKProfile.system`), else the
    /// plain formula. An embedded profile that cannot be used (damaged, not CMYK, APP2
    /// segments that do not fit together) is passed over with a warning, or fails the file
    /// when `options.strictProfiles` (`--icc srgb` without `--lenient`).
    func chooseCMYKConversion(options: DecodeOptions, warnings: inout [String]) throws(DecodeError) {
        guard details.colorSpace == "cmyk" || details.colorSpace == "ycck" else { return }
        let reader = self.reader
        func use(_ icc: [UInt8]) -> String? {
            var message = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))
            let status = icc.withUnsafeBufferPointer { p in
                message.withUnsafeMutableBufferPointer { m in
                    fz_jpeg_use_cmyk_profile(
                        reader, p.baseAddress, p.count, options.intent.lcms, options.intent == .absolute ? 0 : 1,
                        m.baseAddress)
                }
            }
            return status == FZ_OK ? nil : message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        var passedOver: String?
        if details.hasICC {
            let problem: String
            if let icc {
                if let profile = ICCProfile(icc), profile.colorSpace != "CMYK" {
                    problem = "a \(profile.colorSpace) profile on CMYK pixels"
                } else if let reason = use(icc) {
                    problem = reason
                } else {
                    cmykConversion = "embedded profile"
                    return
                }
            } else {
                problem = "its APP2 segments do not fit together"
            }
            if options.strictProfiles { throw .unusableProfile(path: path, reason: problem) }
            passedOver = problem
        }
        if let fallback = options.cmykProfile ?? CMYKProfile.system, use(fallback.bytes) == nil {
            cmykConversion = "profile \(fallback.path)"
        } else {
            cmykConversion = "formula (no CMYK profile; give one with --cmyk-profile)"
        }
        if let passedOver {
            warnings.append(
                "the embedded ICC profile is not used (\(passedOver)); the CMYK pixels go through the \(cmykConversion ?? "")"
            )
        }
    }

    static func colorSpaceName(_ cs: Int) -> String {
        switch cs {
        case Int(JCS_GRAYSCALE.rawValue): return "gray"
        case Int(JCS_RGB.rawValue): return "rgb"
        case Int(JCS_YCbCr.rawValue): return "ycbcr"
        case Int(JCS_CMYK.rawValue): return "cmyk"
        case Int(JCS_YCCK.rawValue): return "ycck"
        default: return "unknown(\(cs))"
        }
    }

    /// "4:4:4", "4:2:2", "4:2:0", "4:4:0", "4:1:1"... from the luma/chroma factors.
    static func subsampling(h: [Int], v: [Int], components n: Int) -> String {
        guard n >= 3, h[1] > 0, v[1] > 0 else { return n == 1 ? "" : "unknown" }
        let hr = h[0] / h[1]
        let vr = v[0] / v[1]
        switch (hr, vr) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        case (1, 2): return "4:4:0"
        case (4, 1): return "4:1:1"
        case (4, 2): return "4:1:0"
        default: return "\(h[0])x\(v[0]),\(h[1])x\(v[1])"
        }
    }

    /// The error for a failed decoding step: the limits first, then libjpeg's message.
    private func failure() -> DecodeError {
        let kind = fz_jpeg_failure_of(reader)
        if kind == FZ_JPEG_SCAN_LIMIT { return .tooManyScans(path: path, limit: scanLimit) }
        if kind == FZ_JPEG_MEMORY_LIMIT {
            // libjpeg's own max_memory_to_use stopped it: more than the estimate said.
            return .overMemoryLimit(path: path, needed: max(memoryNeeded, memoryLimit + 1), limit: memoryLimit)
        }
        return Self.classify(kind, lastMessage, path: path, header: false)
    }

    /// Sorts a failure by its kind (fz_jpeg.c's, from libjpeg's message code) into
    /// truncated, unsupported or corrupt, in the header or in the data.
    static func classify(_ kind: fz_jpeg_failure, _ message: String, path: String, header: Bool) -> DecodeError {
        switch kind {
        case FZ_JPEG_TRUNCATED:
            return header ? .truncatedHeader(path: path, detail: message) : .truncated(path: path, detail: message)
        case FZ_JPEG_UNSUPPORTED_PRECISION:
            return .unsupportedVariant(path: path, what: "JPEG precision (\(message)); only 8-bit JPEG is supported")
        case FZ_JPEG_UNSUPPORTED_COLOR:
            return .unsupportedVariant(path: path, what: "JPEG colour space (\(message))")
        case FZ_JPEG_UNSUPPORTED_PROCESS:
            return .unsupportedVariant(
                path: path, what: "JPEG coding (\(message)); forcezoom reads baseline, extended and progressive JPEG")
        default:
            return header ? .corruptHeader(path: path, detail: message) : .corrupt(path: path, detail: message)
        }
    }
}

/// Writes baseline or progressive JPEGs through libjpeg (fixtures, JPEG thumbnails).
package final class JPEGWriter {
    /// A failed write: the system's reason (no space left on device...) when the file
    /// refused the bytes, else libjpeg's message. `errno` comes first so that it is read
    /// right after the failed call, before anything else can change it.
    package static func writeFailure(errno code: Int32, path: String, writer: OpaquePointer) -> OutputError {
        let refused = fz_jpeg_writer_failure_of(writer) == FZ_JPEG_WRITE_FAILED
        let message = String(cString: fz_jpeg_writer_message(writer))
        return .writeFailed(path: path, reason: refused && code != 0 ? Errno(code).description : message)
    }

    private let writer: OpaquePointer
    private let path: String
    private let rowBytes: Int

    /// How the JPEG is coded.
    package struct Coding: Hashable, Sendable {
        var quality = EncodeSettings.defaultQuality
        var subsampling = 420
        var progressive = false
        var arithmetic = false
        var rgbCoded = false
        /// For 4-channel (CMYK) rows: store as YCCK instead of CMYK.
        var ycck = false
        var restartRows = 0
        /// APP1 payload including its "Exif\0\0" prefix.
        var app1: [UInt8]?
        /// An ICC profile, written as APP2 segments.
        var icc: [UInt8]?
        /// A second APP1 payload: XMP's namespace and packet.
        var app1XMP: [UInt8]?
        /// An APP13 payload ("Photoshop 3.0\0" and 8BIM resources: IPTC).
        var app13: [UInt8]?

        package init(
            quality: Int = EncodeSettings.defaultQuality, subsampling: Int = 420, progressive: Bool = false,
            arithmetic: Bool = false,
            rgbCoded: Bool = false, ycck: Bool = false, restartRows: Int = 0, app1: [UInt8]? = nil,
            icc: [UInt8]? = nil, app1XMP: [UInt8]? = nil, app13: [UInt8]? = nil
        ) {
            self.quality = quality
            self.subsampling = subsampling
            self.progressive = progressive
            self.arithmetic = arithmetic
            self.rgbCoded = rgbCoded
            self.ycck = ycck
            self.restartRows = restartRows
            self.app1 = app1
            self.icc = icc
            self.app1XMP = app1XMP
            self.app13 = app13
        }
    }

    /// Starts a JPEG of `channels` (1 gray, 3 RGB, 4 Adobe-inverted CMYK) per pixel.
    package init(file: CFile, path: String, size: PixelSize, channels: Int, coding: Coding) throws(OutputError) {
        var out: OpaquePointer?
        let app1 = coding.app1 ?? []
        let icc = coding.icc ?? []
        let xmp = coding.app1XMP ?? []
        let app13 = coding.app13 ?? []
        let status = file.withStream { stream in
            app1.withUnsafeBufferPointer { a in
                icc.withUnsafeBufferPointer { p in
                    xmp.withUnsafeBufferPointer { x in
                        app13.withUnsafeBufferPointer { irb in
                            var spec = fz_jpeg_spec()
                            spec.width = UInt32(size.width)
                            spec.height = UInt32(size.height)
                            spec.channels = Int32(channels)
                            spec.quality = Int32(coding.quality)
                            spec.subsampling = Int32(coding.subsampling)
                            spec.progressive = coding.progressive ? 1 : 0
                            spec.arithmetic = coding.arithmetic ? 1 : 0
                            spec.rgb_coded = coding.rgbCoded ? 1 : 0
                            spec.ycck = coding.ycck ? 1 : 0
                            spec.restart_rows = Int32(coding.restartRows)
                            spec.app1 = a.count > 0 ? a.baseAddress : nil
                            spec.app1_length = UInt32(a.count)
                            spec.icc = p.count > 0 ? p.baseAddress : nil
                            spec.icc_length = UInt32(p.count)
                            spec.app1_xmp = x.count > 0 ? x.baseAddress : nil
                            spec.app1_xmp_length = UInt32(x.count)
                            spec.app13 = irb.count > 0 ? irb.baseAddress : nil
                            spec.app13_length = UInt32(irb.count)
                            return fz_jpeg_writer_begin(stream, &spec, &out)
                        }
                    }
                }
            }
        }
        guard let writer = out else { throw .writeFailed(path: path, reason: "out of memory") }
        self.writer = writer
        self.path = path
        rowBytes = size.width * channels
        if status != FZ_OK { throw Self.writeFailure(errno: errno, path: path, writer: writer) }
    }

    deinit { fz_jpeg_writer_free(writer) }

    package func write(rows: UnsafeRawBufferPointer, count: Int) throws(OutputError) {
        if fz_jpeg_writer_rows(writer, rows.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(count), rowBytes)
            != FZ_OK
        {
            throw Self.writeFailure(errno: errno, path: path, writer: writer)
        }
    }

    package func finish() throws(OutputError) {
        if fz_jpeg_writer_end(writer) != FZ_OK {
            throw Self.writeFailure(errno: errno, path: path, writer: writer)
        }
    }
}
