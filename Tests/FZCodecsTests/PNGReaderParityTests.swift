// Issue 38: forcezoom's own PNG reader (CFZPNG/fz_png_read.c, ISA-L inflate) against the libpng
// reader it replaced (CFZPNG/fz_png.c, kept callable for this): every PngSuite and testpngs
// file of the conformance set and every hostile PNG gives the same verdict (where the reading
// stops, corrupt or truncated), the same header facts and, when it decodes, the same bytes,
// at 8 bits and with 16-bit samples kept. The fast unfilter is checked against the
// specification's byte-at-a-time reference on random rows.

import CFZPNG
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

enum PNGParityFiles {
    static let hostile = ConformanceData.root.appendingPathComponent("Fixtures/hostile")

    /// Conformance PNGs (relative to .cache/conformance/png) and hostile PNGs (under Fixtures/hostile).
    static let files: [String] = {
        let fm = FileManager.default
        var out: [String] = []
        let base = ConformanceData.pngDir
        if let walk = fm.enumerator(atPath: base.path) {
            for case let p as String in walk where p.hasSuffix(".png") { out.append("conformance/" + p) }
        }
        for p in (try? fm.contentsOfDirectory(atPath: hostile.path)) ?? [] where p.hasSuffix(".png") {
            out.append("hostile/" + p)
        }
        return out.sorted()
    }()

    static func url(_ name: String) -> URL {
        name.hasPrefix("hostile/")
            ? hostile.appendingPathComponent(String(name.dropFirst("hostile/".count)))
            : ConformanceData.pngDir.appendingPathComponent(String(name.dropFirst("conformance/".count)))
    }
}

/// What one reader made of a file: the verdicts, the header facts and the pixels.
private struct PNGOutcome: Equatable {
    var open: Int32 = 0, openKind: UInt32 = 0, width: UInt32 = 0, height: UInt32 = 0
    var facts: [Double] = []
    var icc: [UInt8] = [], exif: [UInt8] = []
    var start: Int32 = 0, read: Int32 = 0, readKind: UInt32 = 0, rows: UInt32 = 0
    var pixels: [UInt8] = []
    var warnings: Int32 = 0

    static func facts(_ h: fz_png_header) -> [Double] {
        let ints = [
            h.bit_depth, h.color_type, h.interlaced, h.has_trns, h.has_gamma, h.has_iccp, h.has_chrm, h.has_srgb,
            h.has_sbit, h.srgb_intent, h.has_cicp, Int32(h.xmp_itxt_length), h.channels,
        ]
        let c = h.chrm
        return ints.map(Double.init) + [h.gamma, c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7]
    }
}

/// The two readers behind one shape, so the comparison below is written once.
private struct PNGReaderCalls {
    var open: (UnsafeMutablePointer<FILE>, inout OpaquePointer?) -> Int32
    let header: (OpaquePointer) -> fz_png_header
    let start: (OpaquePointer, Bool) -> Int32
    let rows: (OpaquePointer, UnsafeMutablePointer<UInt8>, UInt32, Int, inout UInt32) -> Int32
    let interlaced: (OpaquePointer, UnsafeMutablePointer<UInt8>, Int) -> Int32
    let kind: (OpaquePointer) -> UInt32
    let free: (OpaquePointer) -> Void
    var warnings: (OpaquePointer) -> Int32 = { _ in 0 }

    static var libpng: PNGReaderCalls {
        PNGReaderCalls(
            open: { fz_png_open($0, 8 << 20, &$1) }, header: { fz_png_header_of($0)!.pointee },
            start: { $1 ? fz_png_start_keep16($0) : fz_png_start($0) },
            rows: { fz_png_read_rows($0, $1, $2, $3, &$4) }, interlaced: { fz_png_read_interlaced($0, $1, $2) },
            kind: { fz_png_failure_of($0).rawValue }, free: { fz_png_reader_free($0) })
    }
    static var own: PNGReaderCalls {
        PNGReaderCalls(
            open: { fz_pngr_open($0, 8 << 20, &$1) }, header: { fz_pngr_header_of($0)!.pointee },
            start: { $1 ? fz_pngr_start_keep16($0) : fz_pngr_start($0) },
            rows: { fz_pngr_read_rows($0, $1, $2, $3, &$4) }, interlaced: { fz_pngr_read_interlaced($0, $1, $2) },
            kind: { fz_pngr_failure_of($0).rawValue }, free: { fz_pngr_free($0) })
    }
    /// The own reader with its rows inflated on a second thread (fz_png_pipe.c) whatever
    /// the image's size.
    static var ownPipelined: PNGReaderCalls {
        var calls = own
        calls.open = { file, reader in
            let status = fz_pngr_open(file, 8 << 20, &reader)
            if let reader { fz_pngr_set_threads(reader, 2, 0) }
            return status
        }
        calls.warnings = { fz_pngr_warning_count($0) }
        return calls
    }

    /// Opens, starts and reads the whole file (row by row, or Adam7 whole) as PNGDecoder does.
    /// `rowsPerCall` rows are asked for at a time; `stopAfter` rows, the reader is freed
    /// there (a crop's early stop).
    func outcome(_ path: String, keep16: Bool, rowsPerCall: Int = 1, stopAfter: Int? = nil) throws -> PNGOutcome {
        let file = try #require(fopen(path, "rb"), "cannot open \(path)")
        defer { fclose(file) }
        var reader: OpaquePointer?
        var o = PNGOutcome()
        o.open = open(file, &reader)
        let r = try #require(reader)
        defer { free(r) }
        var h = header(r)
        (o.width, o.height) = (h.width, h.height)
        guard o.open == 0 else {
            o.openKind = kind(r)
            return o
        }
        o.start = start(r, keep16)
        h = header(r)
        o.facts = PNGOutcome.facts(h)
        if let p = h.icc { o.icc = Array(UnsafeBufferPointer(start: p, count: Int(h.icc_length))) }
        if let p = h.exif { o.exif = Array(UnsafeBufferPointer(start: p, count: Int(h.exif_length))) }
        guard o.start == 0, Int(h.width) * Int(h.height) <= 4_000_000 else { return o }
        let stride = Int(h.width) * Int(h.channels) * (keep16 && h.bit_depth == 16 ? 2 : 1)
        o.pixels = [UInt8](repeating: 0, count: stride * Int(h.height))
        o.pixels.withUnsafeMutableBufferPointer { px in
            if h.interlaced != 0 {
                o.read = interlaced(r, px.baseAddress!, stride)
            } else {
                var y = 0
                while y < min(Int(h.height), stopAfter ?? Int.max) {
                    var done: UInt32 = 0
                    let ask = min(rowsPerCall, Int(h.height) - y)
                    o.read = rows(r, px.baseAddress! + y * stride, UInt32(ask), stride, &done)
                    o.rows += done
                    y += ask
                    if o.read != 0 { break }
                }
            }
        }
        o.warnings = warnings(r)
        if o.read != 0 {
            o.readKind = kind(r)
            o.pixels = []  // what a failed read left is not part of the contract
        }
        return o
    }
}

@Suite("PNG reader parity (issue 38)")
struct PNGReaderParityTests {
    @Test("there are files to compare")
    func hasFiles() {
        #expect(PNGParityFiles.files.filter { $0.hasPrefix("conformance/") }.count > 150, "run `make conformance`")
        #expect(PNGParityFiles.files.filter { $0.hasPrefix("hostile/") }.count > 50)
    }

    @Test("own reader = libpng reader: verdicts, header facts, pixels", arguments: PNGParityFiles.files)
    func sameAsLibpng(_ name: String) throws {
        let path = PNGParityFiles.url(name).path
        for keep16 in [false, true] {
            let old = try PNGReaderCalls.libpng.outcome(path, keep16: keep16)
            let new = try PNGReaderCalls.own.outcome(path, keep16: keep16)
            #expect(new.open == old.open && new.openKind == old.openKind, "\(name): open verdict")
            #expect(new.width == old.width && new.height == old.height, "\(name): IHDR size")
            #expect(new.facts == old.facts, "\(name): header facts")
            #expect(new.icc == old.icc && new.exif == old.exif, "\(name): iCCP / eXIf")
            #expect(new.start == old.start, "\(name): start")
            #expect(new.read == old.read && new.readKind == old.readKind, "\(name) keep16=\(keep16): read verdict")
            #expect(new.rows == old.rows, "\(name): rows before the failure")
            #expect(new.pixels == old.pixels, "\(name) keep16=\(keep16): pixels")
        }
    }

    /// Rows inflated on a second thread (fz_png_pipe.c, forced here for every size): the
    /// same verdicts, rows, warnings and pixels as the one-thread reader, asked for a row at
    /// a time or seven; and a reader freed halfway (a crop's early stop) stops its thread.
    @Test("inflating on a second thread changes nothing", arguments: PNGParityFiles.files)
    func pipelinedSameAsSerial(_ name: String) throws {
        let path = PNGParityFiles.url(name).path
        var serial = PNGReaderCalls.own
        serial.warnings = { fz_pngr_warning_count($0) }
        for keep16 in [false, true] {
            let one = try serial.outcome(path, keep16: keep16)
            for rowsPerCall in [1, 7] {
                let two = try PNGReaderCalls.ownPipelined.outcome(path, keep16: keep16, rowsPerCall: rowsPerCall)
                #expect(two == one, "\(name) keep16=\(keep16), \(rowsPerCall) rows a call")
            }
            let half = Int(one.height / 2)
            let early = try PNGReaderCalls.ownPipelined.outcome(path, keep16: keep16, stopAfter: half)
            let earlySerial = try serial.outcome(path, keep16: keep16, stopAfter: half)
            #expect(early == earlySerial, "\(name) keep16=\(keep16), stopped after \(half) rows")
        }
    }

    @Test("fast unfilter = reference, every filter and pixel size", arguments: 1...8)
    func unfilter(bpp: Int) {
        var rng = SystemRandomNumberGenerator()
        for filter in 0...4 {
            for length in [bpp, bpp * 3, bpp * 97, bpp * 1000] {
                let prev = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                let row = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                var fast = row
                var reference = row
                let a = fast.withUnsafeMutableBufferPointer {
                    fz_png_unfilter($0.baseAddress, prev, length, Int32(bpp), Int32(filter))
                }
                let b = reference.withUnsafeMutableBufferPointer {
                    fz_png_unfilter_reference($0.baseAddress, prev, length, Int32(bpp), Int32(filter))
                }
                #expect(a == 0 && b == 0)
                #expect(fast == reference, "filter \(filter), \(bpp) bytes a pixel, \(length) bytes")
            }
        }
        var row: [UInt8] = [1, 2, 3]
        #expect(row.withUnsafeMutableBufferPointer { fz_png_unfilter($0.baseAddress, [0, 0, 0], 3, 1, 5) } != 0)
    }
}
