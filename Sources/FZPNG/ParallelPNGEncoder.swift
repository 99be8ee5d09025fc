import CFZDeflate
import CZlib
import FZFormat
import FZImage
import FZSystem

/// Encodes a large PNG on several cores, as pigz compresses: the image is cut into bands of
/// rows, each filtered and deflated independently on the worker pool (a raw deflate stream
/// ended by a sync flush, the last by finish, primed with the 32 KiB of filtered bytes
/// before it as a dictionary so matches across the cut are not lost), and the bands are
/// written as they complete, in order, as IDAT chunks behind one zlib header, followed by the
/// Adler-32 of the whole, combined from the bands' (zlib's `adler32_combine`). Only the bands
/// in flight are held, not a filtered copy of the image. The result is an ordinary PNG
/// with one zlib stream; the filters are the serial encoder's, so only the cuts cost bytes.
/// Z_RLE settings (levels 1-6) take this path on one thread too (`faster`): its coder,
/// `fz_rle_deflate`, beats the zlib inside libpng.
enum ParallelPNGEncoder {
    /// Images with fewer bytes than this are encoded serially: threads would cost more than
    /// they save.
    static let minimumBytes = 1 << 20
    /// Filtered bytes per band (pigz uses 128 KiB; larger bands lose less at the cuts).
    static let bandBytes = 256 << 10

    /// Filtered bytes per band when encoding serially (less held at once; the cuts cost a
    /// few bytes each).
    static let serialBandBytes = 64 << 10

    /// Whether `image` is worth encoding in parallel with `threads` threads.
    static func worthIt(_ image: Image, threads: Int) -> Bool { threads > 1 && image.pixels.count >= minimumBytes }

    /// Whether these settings are better served by this encoder than by libpng's even on one
    /// thread: Z_RLE (levels 1-6), which `fz_rle_deflate` codes about 2.5 times as fast as zlib.
    static func faster(_ settings: PNGSettings) -> Bool { settings.strategy == 3 && settings.level > 0 }

    /// Writes the IDAT chunks and IEND of `image` through `writer` (which wrote the header).
    /// `threads` 1 encodes the bands in turn on this thread.
    static func encode(_ image: Image, settings: PNGSettings, threads: Int, into writer: PNGWriter) throws(OutputError)
    {
        let rowBytes = image.stride
        let lineBytes = rowBytes + 1
        let height = image.height
        let rowsPerBand = max(1, (threads > 1 ? bandBytes : serialBandBytes) / lineBytes)
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        // PNGSettings.Filter's raw values are libpng's masks; the filter type for the rows:
        let type: Int32
        switch settings.filter {
        case .none: type = 0
        case .sub: type = 1
        case .up: type = 2
        case .average: type = 3
        case .paeth: type = 4
        case .adaptive: type = 5
        }
        var failure: OutputError?
        var adler: UInt = 1
        var pending: [Int: Band] = [:]
        var written = 0
        // Writes every band that is next in order; bands finish in any order.
        func drain() {
            while failure == nil, let band = pending.removeValue(forKey: written) {
                var chunk = written == 0 ? zlibHeader(settings) : []
                chunk += band.bytes
                adler = written == 0 ? band.adler : adler32_combine(adler, band.adler, band.length)
                if written == bands - 1 {
                    chunk += [
                        UInt8(adler >> 24 & 255), UInt8(adler >> 16 & 255), UInt8(adler >> 8 & 255), UInt8(adler & 255),
                    ]
                }
                do throws(OutputError) {
                    try chunk.withBytes { bytes throws(OutputError) in try writer.write(chunk: "IDAT", bytes) }
                } catch { failure = error }
                written += 1
            }
        }
        image.pixels.withUnsafeBufferPointer { source in
            let job = BandJob(
                source: source.baseAddress!, rowBytes: rowBytes, height: height, rowsPerBand: rowsPerBand,
                bpp: Int32(image.format.channels), filter: type, settings: settings)
            func take(_ i: Int, _ band: Band?) {
                guard let band else {
                    if failure == nil {
                        failure = .writeFailed(
                            path: writer.path, reason: "zlib could not compress the image (out of memory?)")
                    }
                    return
                }
                pending[i] = band
                drain()
            }
            if threads <= 1 {
                for i in 0..<bands where failure == nil { take(i, job.encode(band: i, last: i == bands - 1)) }
            } else {
                WorkerPool<Band?>.run(
                    count: bands, threads: threads, work: { job.encode(band: $0, last: $0 == bands - 1) },
                    onResult: take, onTick: { failure == nil })
            }
        }
        if let failure { throw failure }
        if written != bands { throw .writeFailed(path: writer.path, reason: "the PNG encode stopped early") }
        try writer.write(chunk: "IEND", UnsafeRawBufferPointer(start: nil, count: 0))
        try writer.flush()
    }
}

extension ParallelPNGEncoder {
    /// One band's deflated bytes and the Adler-32 of its filtered bytes.
    package struct Band: Sendable {
        var bytes: [UInt8]
        var adler: UInt
        var length: Int
    }

    /// What every band job reads: the image's rows (bands filter and deflate their own).
    package final class BandJob: @unchecked Sendable {
        let source: UnsafePointer<UInt8>
        let rowBytes: Int, height: Int, rowsPerBand: Int
        let bpp: Int32, filter: Int32
        let settings: PNGSettings

        init(
            source: UnsafePointer<UInt8>, rowBytes: Int, height: Int, rowsPerBand: Int, bpp: Int32, filter: Int32,
            settings: PNGSettings
        ) {
            (self.source, self.rowBytes, self.height, self.rowsPerBand) = (source, rowBytes, height, rowsPerBand)
            (self.bpp, self.filter, self.settings) = (bpp, filter, settings)
        }

        /// Filters the band's rows and, before them, enough rows for a 32 KiB dictionary (one
        /// row for Z_RLE, whose coder reads only the last byte; filtering a row needs only the
        /// raw row above it, so these bytes are exactly the whole image's), then deflates the
        /// band with that dictionary.
        func encode(band: Int, last: Bool) -> Band? {
            let lineBytes = rowBytes + 1
            let first = band * rowsPerBand
            let end = min(height, first + rowsPerBand)
            // Z_RLE (fz_rle_deflate) reads only the last byte before the band: one row then.
            let dictionary = settings.strategy == 3 && settings.level > 0 ? 1 : 32768
            let context = min(first, (dictionary + lineBytes - 1) / lineBytes)
            let start = first - context
            var filtered = [UInt8](repeating: 0, count: (end - start) * lineBytes)
            var scratch = [UInt8](repeating: 0, count: 6 * rowBytes)
            let above: UnsafePointer<UInt8>? = start == 0 ? nil : source + (start - 1) * rowBytes
            return filtered.withUnsafeMutableBufferPointer { out -> Band? in
                scratch.withUnsafeMutableBufferPointer { s in
                    fz_png_filter_rows(
                        source + start * rowBytes, rowBytes, above, UInt32(end - start), rowBytes, bpp, filter,
                        out.baseAddress!, s.baseAddress)
                }
                let body = out.baseAddress! + context * lineBytes
                let length = (end - first) * lineBytes
                var compressed: UnsafeMutablePointer<UInt8>?
                var produced = 0
                let status = fz_deflate_band(
                    body, length, out.baseAddress!, context * lineBytes, Int32(settings.level),
                    Int32(settings.strategy), last ? 1 : 0, &compressed, &produced)
                guard status == FZ_OK, let compressed else { return nil }
                defer { fz_free(compressed) }
                return Band(
                    bytes: Array(UnsafeBufferPointer(start: compressed, count: produced)),
                    adler: adler32(1, body, UInt32(length)), length: length)
            }
        }
    }

    /// `bytes` as one zlib stream (level 9, default strategy): what PNG's iCCP chunk holds.
    /// Nil when zlib fails (no memory).
    package static func zlibStream(_ bytes: [UInt8]) -> [UInt8]? {
        let settings = PNGSettings.compression(9)
        return bytes.withUnsafeBufferPointer { b -> [UInt8]? in
            var compressed: UnsafeMutablePointer<UInt8>?
            var produced = 0
            let status = fz_deflate_band(b.baseAddress, b.count, nil, 0, 9, 0, 1, &compressed, &produced)
            guard status == FZ_OK, let compressed else { return nil }
            defer { fz_free(compressed) }
            let check = UInt32(adler32(1, b.baseAddress, UInt32(b.count)))
            return zlibHeader(settings) + Array(UnsafeBufferPointer(start: compressed, count: produced))
                + [UInt8(check >> 24), UInt8(check >> 16 & 255), UInt8(check >> 8 & 255), UInt8(check & 255)]
        }
    }

    /// The zlib header zlib itself would write for these settings (RFC 1950: 32 KiB window,
    /// deflate, FLEVEL as zlib sets it, FCHECK making the pair a multiple of 31).
    package static func zlibHeader(_ settings: PNGSettings) -> [UInt8] {
        let cmf: UInt8 = 0x78
        let flevel: UInt8
        if settings.strategy >= 2 || settings.level < 2 {
            flevel = 0
        }  // Z_HUFFMAN_ONLY and up, or fastest
        else if settings.level < 6 {
            flevel = 1
        } else if settings.level == 6 {
            flevel = 2
        } else {
            flevel = 3
        }
        var flg = flevel << 6
        flg += UInt8(31 - (Int(cmf) * 256 + Int(flg)) % 31) % 31
        return [cmf, flg]
    }
}
