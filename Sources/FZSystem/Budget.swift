import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// The one limit on what a command may allocate for its own images: canvases, peeks after
/// zoom, animation frames in flight, contact sheets, thumbnails before they are written.
/// The decoders check their own buffers against the same two numbers (`DecodeOptions`);
/// this checks everything a command makes, from its arguments and the header, with
/// overflow-checked arithmetic, before anything is allocated.
public struct Budget: Hashable, Sendable {
    /// The most pixels one image (or all of `count` images together) may have; 0 = no limit.
    public var maxPixels: Int64
    /// The most bytes the images of one check may take; 0 = no limit.
    public var maxBytes: Int64

    /// The longest side forcezoom makes, whatever the budget (2^20): sides past it are
    /// refused before any arithmetic, so every product of two sides fits an Int64.
    public static let maxSide = 1 << 20

    /// - Parameter maxBytes: --max-memory; lowered to what the process's memory limits
    ///   allow (`MemoryLimit`), so an image that could not be allocated is refused first.
    public init(maxPixels: Int64 = 268_435_456, maxBytes: Int64 = 1 << 30) {
        self.maxPixels = maxPixels
        self.maxBytes = MemoryLimit.cap(maxBytes)
    }

    /// Checks `count` images of `size` at `bytesPerPixel`, named `what` for the message
    /// (say which option made them, e.g. "the peek (--size 46341)").
    public func check(_ what: String, size: PixelSize, bytesPerPixel: Int = 4, count: Int = 1) throws(BudgetError) {
        guard size.width >= 0, size.height >= 0, size.width <= Self.maxSide, size.height <= Self.maxSide else {
            throw .side(what: what, size: size)
        }
        let (pixels, o1) = size.area.multipliedReportingOverflow(by: Int64(max(count, 0)))
        if o1 || (maxPixels > 0 && pixels > maxPixels) {
            throw .pixels(what: what, size: size, count: count, limit: maxPixels)
        }
        let (bytes, o2) = pixels.multipliedReportingOverflow(by: Int64(max(bytesPerPixel, 0)))
        if o2 || (maxBytes > 0 && bytes > maxBytes) {
            throw .memory(what: what, bytes: o2 ? .max : bytes, limit: maxBytes)
        }
        try Self.probe(what, bytes: bytes)
    }

    /// Large blocks are asked of the system once before the arrays that will hold them:
    /// Swift's arrays trap when an allocation fails, so a refusal (memory exhausted, an
    /// overcommit policy, a limit the budget could not see) becomes one line here instead.
    /// The block is freed at once; it is never touched, so no page becomes resident.
    package static func probe(_ what: String, bytes: Int64) throws(BudgetError) {
        guard bytes >= 64 << 20, bytes < Int64(Int.max) else { return }
        guard let block = malloc(Int(bytes)) else { throw .unavailable(what: what, bytes: bytes) }
        free(block)
    }

    /// Checks a plain byte count (a table, a file read whole).
    public func check(_ what: String, bytes: Int64) throws(BudgetError) {
        if maxBytes > 0 && bytes > maxBytes { throw .memory(what: what, bytes: bytes, limit: maxBytes) }
    }
}

/// What a command would make that is over its budget.
public enum BudgetError: ForceZoomError, Equatable, CustomStringConvertible {
    /// A side longer than `Budget.maxSide` (or negative).
    case side(what: String, size: PixelSize)
    /// More pixels than --max-pixels (`count` images of `size`).
    case pixels(what: String, size: PixelSize, count: Int, limit: Int64)
    /// More bytes than --max-memory.
    case memory(what: String, bytes: Int64, limit: Int64)
    /// Within the limits, but the system refused the memory.
    case unavailable(what: String, bytes: Int64)

    public var description: String {
        switch self {
        case .side(let what, let size):
            return "\(what) would be \(size), and sides are limited to \(Budget.maxSide) pixels; give smaller values"
        case .pixels(let what, let size, let count, let limit):
            let n = count == 1 ? "\(size)" : "\(count) x \(size)"
            return
                "\(what) would be \(n) = \(size.area.multipliedReportingOverflow(by: Int64(count)).overflow ? "too many" : String(size.area * Int64(count))) pixels, over --max-pixels \(limit); give smaller values or raise --max-pixels"
        case .memory(let what, let bytes, let limit):
            let mib = bytes == .max ? "more than 8 EiB" : "\((bytes + (1 << 20) - 1) >> 20) MiB"
            return "\(what) would need \(mib), over \(MemoryLimit.describe(limit)); \(MemoryLimit.advice(limit))"
        case .unavailable(let what, let bytes):
            return
                "\(what) would need \((bytes + (1 << 20) - 1) >> 20) MiB, which the system refused (out of memory); give smaller values"
        }
    }
}
