import CFZTIFF
import FZFormat
import FZImage
import FZSystem
import Geometry

/// Owns a libtiff handle: every libtiff pointer lives in this file. libtiff's messages are
/// caught by the shim's handlers (fz_tiff.c), so each failure here is one `DecodeError`.
final class TIFFFile {
    private let handle: OpaquePointer
    /// The stream libtiff reads through; kept open as long as the handle.
    private let file: CFile
    let path: String
    private var message = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))

    /// Opens the file; libtiff's largest single allocation is `maxAlloc` (0: libtiff's own).
    init(file: CFile, path: String, maxAlloc: Int64) throws(DecodeError) {
        var out: OpaquePointer?
        var text = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))
        let status = file.withStream { stream in
            text.withUnsafeMutableBufferPointer { fz_tiff_open(stream, maxAlloc, &out, $0.baseAddress) }
        }
        guard status == FZ_OK, let out else {
            throw .corruptHeader(path: path, detail: Self.string(text))
        }
        handle = out
        self.file = file
        self.path = path
    }

    deinit { fz_tiff_close(handle) }

    private static func string(_ chars: [CChar]) -> String {
        chars.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private var lastMessage: String { Self.string(message) }

    /// Calls the shim with the message buffer.
    private func call<R>(_ body: (UnsafeMutablePointer<CChar>) -> R) -> R {
        message.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    /// Every directory's facts, in file order, at most `limit` of them (one walk).
    /// - Throws: `.corruptHeader` for a directory loop, or a first directory that does not read.
    func scan(limit: Int) throws(DecodeError) -> [fz_tiff_info] {
        var infos = [fz_tiff_info](repeating: fz_tiff_info(), count: limit)
        let h = handle
        let n = infos.withUnsafeMutableBufferPointer { p in call { fz_tiff_scan(h, p.baseAddress, Int32(limit), $0) } }
        if n < 0 { throw .corruptHeader(path: path, detail: lastMessage) }
        return Array(infos.prefix(Int(n)))
    }

    /// Makes directory `index` (or the sub-IFD at `subIFD`) current.
    func select(_ index: Int, subIFD: UInt64 = 0) throws(DecodeError) -> fz_tiff_info {
        var info = fz_tiff_info()
        let h = handle
        let status = call { fz_tiff_select(h, Int32(clamping: index), subIFD, &info, $0) }
        if status != FZ_OK { throw .corruptHeader(path: path, detail: lastMessage) }
        return info
    }

    /// The current directory's SubIFD offsets (at most 64).
    var subIFDs: [UInt64] {
        var offsets = [UInt64](repeating: 0, count: 64)
        let n = offsets.withUnsafeMutableBufferPointer { fz_tiff_subifds(handle, $0.baseAddress, 64) }
        return Array(offsets.prefix(Int(n)))
    }

    /// The current directory's ICC profile (tag 34675), at most `limit` bytes.
    func icc(limit: Int) -> [UInt8]? {
        var length: UInt32 = 0
        guard let p = fz_tiff_icc(handle, &length), length > 0, Int(length) <= limit else { return nil }
        return Array(UnsafeBufferPointer(start: p, count: Int(length)))
    }

    /// The current directory's XMP packet (tag 700), at most `limit` bytes.
    func xmp(limit: Int) -> [UInt8]? {
        var length: UInt32 = 0
        guard let p = fz_tiff_xmp(handle, &length), length > 0, Int(length) <= limit else { return nil }
        return Array(UnsafeBufferPointer(start: p, count: Int(length)))
    }

    /// Nil when TIFFRGBAImage reads the current directory, else why not.
    var rgbaProblem: String? {
        let h = handle
        return call { fz_tiff_rgba_ok(h, $0) } != 0 ? nil : lastMessage
    }

    func jpegToRGB() { fz_tiff_jpeg_to_rgb(handle) }

    /// Converts CMYK through `icc`; nil when it works, else lcms2's reason.
    func useCMYKProfile(_ icc: [UInt8], intent: RenderingIntent) -> String? {
        let h = handle
        let status = icc.withUnsafeBufferPointer { p in
            call { fz_tiff_use_cmyk_profile(h, p.baseAddress, p.count, intent.lcms, intent == .absolute ? 0 : 1, $0) }
        }
        return status == FZ_OK ? nil : lastMessage
    }

    func memoryNeeded(_ plan: fz_tiff_plan) -> Int64 {
        var p = plan
        return fz_tiff_memory_needed(handle, &p)
    }

    func start(_ plan: fz_tiff_plan) throws(DecodeError) {
        var p = plan
        let h = handle
        if call({ fz_tiff_start(h, &p, $0) }) != FZ_OK { throw dataError() }
    }

    /// libtiff's message as a truncated file (a read that came up short) or corrupt data.
    private func dataError() -> DecodeError {
        let text = lastMessage
        let short = ["Read error", "Premature", "Not enough data", "end of file"].contains { text.contains($0) }
        return short ? .truncated(path: path, detail: text) : .corrupt(path: path, detail: text)
    }

    func skip(rows: Int) { fz_tiff_skip(handle, UInt32(clamping: max(0, rows))) }

    /// Reads the next row into `row`; with `lenient`, a strip or tile that does not decode
    /// becomes zeros and a warning.
    func readRow(into row: UnsafeMutableRawPointer, lenient: Bool, warnings: inout [String]) throws(DecodeError) {
        var warned: Int32 = 0
        let h = handle
        let status = call { fz_tiff_read_row(h, row.assumingMemoryBound(to: UInt8.self), lenient ? 1 : 0, &warned, $0) }
        if status != FZ_OK { throw dataError() }
        if warned != 0 && warnings.count < 10 { warnings.append(lastMessage) }
    }
}
