import CZlib
import FZShims

/// Encodes a large PNG on several cores, as pigz compresses: the rows are filtered (in
/// bands, in parallel), the filtered bytes are cut into bands deflated independently (each a
/// raw deflate stream ended by a sync flush, the last by finish, primed with the 32 KiB
/// before it as a dictionary so matches across the cut are not lost), and the bands are
/// written in order as IDAT chunks behind one zlib header, followed by the Adler-32 of the
/// whole, combined from the bands' (zlib's `adler32_combine`). The result is an ordinary PNG
/// with one zlib stream; the filters are the serial encoder's, so only the cuts cost bytes.
enum ParallelPNGEncoder {
    /// Images with fewer bytes than this are encoded serially: threads would cost more than
    /// they save.
    static let minimumBytes = 1 << 20
    /// Filtered bytes per band (pigz uses 128 KiB; larger bands lose less at the cuts).
    static let bandBytes = 256 << 10

    /// Whether `image` is worth encoding in parallel with `threads` threads.
    static func worthIt(_ image: Image, threads: Int) -> Bool { threads > 1 && image.pixels.count >= minimumBytes }

    /// Writes the IDAT chunks and IEND of `image` through `writer` (which wrote the header).
    static func encode(_ image: Image, settings: PNGSettings, threads: Int, into writer: PNGWriter) throws(OutputError) {
        let rowBytes = image.stride, lineBytes = rowBytes + 1
        let height = image.height
        let rowsPerBand = max(1, bandBytes / lineBytes)
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
        var filtered = [UInt8](repeating: 0, count: height * lineBytes)
        var pieces = [Band?](repeating: nil, count: bands)
        image.pixels.withUnsafeBufferPointer { source in
            filtered.withUnsafeMutableBufferPointer { out in
                let job = BandJob(source: source.baseAddress!, filtered: out.baseAddress!, rowBytes: rowBytes, height: height,
                                  rowsPerBand: rowsPerBand, bpp: Int32(image.format.channels), filter: type, settings: settings)
                // 1. Filter: each band needs only the raw row above it.
                WorkerPool<Bool>.run(count: bands, threads: threads, work: { job.filter(band: $0) }, onResult: { _, _ in }, onTick: { true })
                // 2. Deflate: each band with the filtered bytes before it as its dictionary.
                WorkerPool<Band?>.run(count: bands, threads: threads, work: { job.deflate(band: $0, last: $0 == bands - 1) },
                                      onResult: { i, band in pieces[i] = band }, onTick: { true })
            }
        }
        var adler: UInt = 1
        for (i, piece) in pieces.enumerated() {
            guard let band = piece else {
                throw .writeFailed(path: writer.path, reason: "zlib could not compress the image (out of memory?)")
            }
            var chunk = i == 0 ? zlibHeader(settings) : []
            chunk += band.bytes
            adler = i == 0 ? band.adler : adler32_combine(adler, band.adler, band.length)
            if i == bands - 1 { chunk += [UInt8(adler >> 24 & 255), UInt8(adler >> 16 & 255), UInt8(adler >> 8 & 255), UInt8(adler & 255)] }
            try chunk.withBytes { bytes throws(OutputError) in try writer.write(chunk: "IDAT", bytes) }
        }
        try writer.write(chunk: "IEND", UnsafeRawBufferPointer(start: nil, count: 0))
        try writer.flush()
    }
}

extension ParallelPNGEncoder {
    /// One band's deflated bytes and the Adler-32 of its filtered bytes.
    struct Band: Sendable {
        var bytes: [UInt8]
        var adler: UInt
        var length: Int
    }

    /// The shared, read-mostly state of one encode: bands write disjoint parts of `filtered`.
    final class BandJob: @unchecked Sendable {
        let source: UnsafePointer<UInt8>
        let filtered: UnsafeMutablePointer<UInt8>
        let rowBytes: Int, height: Int, rowsPerBand: Int
        let bpp: Int32, filter: Int32
        let settings: PNGSettings
        var pieces: [Band] = []

        init(source: UnsafePointer<UInt8>, filtered: UnsafeMutablePointer<UInt8>, rowBytes: Int, height: Int,
             rowsPerBand: Int, bpp: Int32, filter: Int32, settings: PNGSettings) {
            (self.source, self.filtered, self.rowBytes, self.height, self.rowsPerBand) = (source, filtered, rowBytes, height, rowsPerBand)
            (self.bpp, self.filter, self.settings) = (bpp, filter, settings)
        }

        func rows(of band: Int) -> Range<Int> { (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand) }

        func filter(band: Int) -> Bool {
            let r = rows(of: band)
            var scratch = [UInt8](repeating: 0, count: 6 * rowBytes)
            let above: UnsafePointer<UInt8>? = r.lowerBound == 0 ? nil : source + (r.lowerBound - 1) * rowBytes
            scratch.withUnsafeMutableBufferPointer { s in
                fz_png_filter_rows(source + r.lowerBound * rowBytes, rowBytes, above, UInt32(r.count), rowBytes, bpp, filter,
                                   filtered + r.lowerBound * (rowBytes + 1), s.baseAddress)
            }
            return true
        }

        func deflate(band: Int, last: Bool) -> Band? {
            let r = rows(of: band)
            let start = r.lowerBound * (rowBytes + 1), length = r.count * (rowBytes + 1)
            let dictionary = min(start, 32768)
            var out: UnsafeMutablePointer<UInt8>?
            var produced = 0
            let status = fz_deflate_band(filtered + start, length, filtered + start - dictionary, dictionary, Int32(settings.level),
                                         Int32(settings.strategy), last ? 1 : 0, &out, &produced)
            guard status == FZ_OK, let out else { return nil }
            defer { fz_free(out) }
            let adler = adler32(1, filtered + start, UInt32(length))
            return Band(bytes: Array(UnsafeBufferPointer(start: out, count: produced)), adler: adler, length: length)
        }
    }

    /// The zlib header zlib itself would write for these settings (RFC 1950: 32 KiB window,
    /// deflate, FLEVEL as zlib sets it, FCHECK making the pair a multiple of 31).
    static func zlibHeader(_ settings: PNGSettings) -> [UInt8] {
        let cmf: UInt8 = 0x78
        let flevel: UInt8
        if settings.strategy >= 2 || settings.level < 2 { flevel = 0 }  // Z_HUFFMAN_ONLY and up, or fastest
        else if settings.level < 6 { flevel = 1 }
        else if settings.level == 6 { flevel = 2 }
        else { flevel = 3 }
        var flg = flevel << 6
        flg += UInt8(31 - (Int(cmf) * 256 + Int(flg)) % 31) % 31
        return [cmf, flg]
    }
}
