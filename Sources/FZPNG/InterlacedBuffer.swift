import FZSystem

/// A whole decoded image held for formats that cannot deliver rows in order (Adam7
/// interlaced PNG spreads every row over seven passes), served afterwards row by row.
///
/// The memory comes zeroed from `calloc`: the pages of a large image are mapped lazily, so a
/// header that promises a big image and then breaks off costs only the rows that decoded.
final class InterlacedBuffer {
    private let buffer: ZeroedBuffer
    let rowBytes: Int
    let height: Int
    /// The next row `read` hands out.
    private(set) var next = 0

    /// nil when the memory cannot be had.
    init?(rowBytes: Int, height: Int) {
        let (count, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow, let b = ZeroedBuffer(count: count) else { return nil }
        buffer = b
        self.rowBytes = rowBytes
        self.height = height
    }

    /// The whole image, for the decoder to fill.
    var bytes: UnsafeMutableRawBufferPointer { buffer.bytes }

    /// Moves past `rows` rows.
    func skip(rows: Int) { next = min(height, next + max(0, rows)) }

    /// Copies up to `rows` rows into `out`; returns how many.
    func read(into out: UnsafeMutableRawBufferPointer, rows: Int) -> Int {
        let n = min(rows, height - next)
        guard n > 0 else { return 0 }
        out.baseAddress!.copyMemory(
            from: buffer.bytes.baseAddress!.advanced(by: next * rowBytes), byteCount: n * rowBytes)
        next += n
        return n
    }
}
