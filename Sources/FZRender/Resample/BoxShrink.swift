import FZImage
import Geometry

/// Area-averages whole blocks of `factorX` x `factorY` source pixels into one, a row at a
/// time: the cheap first stage of a large reduction (what vips calls shrink), leaving the
/// filter a small factor. Blocks at the right and bottom edges may be partial and average
/// what they hold. With alpha, colour is averaged weighted by alpha, so transparent pixels
/// do not darken visible ones.
public struct BoxShrink: Sendable {
    public let sourceSize: PixelSize
    public let outputSize: PixelSize
    public let format: PixelFormat
    public let factorX: Int
    public let factorY: Int

    /// The largest factor: keeps the 32-bit sums of alpha-weighted colour from overflowing
    /// (64 x 64 x 255 x 255 < 2^32).
    public static let maximumFactor = 64

    /// - Parameters:
    ///   - source: the size of the rows that will be pulled.
    ///   - factorX: source columns per output column (1...maximumFactor).
    ///   - factorY: source rows per output row (1...maximumFactor).
    ///   - format: the pixel layout (kept).
    public init(source: PixelSize, factorX: Int, factorY: Int, format: PixelFormat) {
        precondition(
            (1...Self.maximumFactor).contains(factorX) && (1...Self.maximumFactor).contains(factorY),
            "box factor out of range")
        sourceSize = source
        self.factorX = factorX
        self.factorY = factorY
        self.format = format
        outputSize = PixelSize(
            width: (source.width + factorX - 1) / factorX, height: (source.height + factorY - 1) / factorY)
    }

    /// Makes a row source for a resampler: each call fills one output row from the next
    /// `factorY` rows that `pull` delivers (fewer at the bottom edge, or when `pull`
    /// returns false early: then the rows it did deliver are averaged).
    /// - Parameter pull: fills one source row (`sourceSize.width * channels` bytes); false
    ///   when no row came.
    /// - Returns: a closure filling one output row; it returns false once no source row is left.
    ///
    /// Length: long on purpose, a named hot loop (issue 34). Every source byte of a large reduction
    /// passes through the closure once; its accumulation runs inside the buffers' pointer
    /// scopes, with the RGB case unrolled, and split into helpers it would re-enter those
    /// scopes (or pass the three buffers and the factors) for every source row. The set-up
    /// before the closure is a handful of lets.
    public func rows(pulling pull: @escaping (UnsafeMutablePointer<UInt8>) -> Bool) -> (UnsafeMutablePointer<UInt8>) ->
        Bool
    {
        let c = format.channels
        let alpha = format.hasAlpha
        let sw = sourceSize.width
        let ow = outputSize.width
        let fx = factorX
        let fy = factorY
        var source = [UInt8](repeating: 0, count: sw * c)
        var sums = [UInt32](repeating: 0, count: ow * c)
        // With alpha: sums hold colour x alpha, and `alphas` the plain alpha per column.
        var alphas = [UInt32](repeating: 0, count: alpha ? ow : 0)
        var exhausted = false
        return { out in
            if exhausted { return false }
            for i in 0..<sums.count { sums[i] = 0 }
            for i in 0..<alphas.count { alphas[i] = 0 }
            var rows = 0
            while rows < fy {
                let got = source.withUnsafeMutableBufferPointer { pull($0.baseAddress!) }
                if !got {
                    exhausted = true
                    break
                }
                rows += 1
                source.withUnsafeBufferPointer { src in
                    sums.withUnsafeMutableBufferPointer { acc in
                        alphas.withUnsafeMutableBufferPointer { al in
                            var x = 0
                            for ox in 0..<ow {
                                let end = min(x + fx, sw)
                                let a = ox * c
                                if alpha {
                                    while x < end {
                                        let s = x * c
                                        let w = UInt32(src[s + c - 1])
                                        for k in 0..<(c - 1) { acc[a + k] &+= UInt32(src[s + k]) &* w }
                                        al[ox] &+= w
                                        x += 1
                                    }
                                } else if c == 3 {  // RGB, the common case, unrolled
                                    var r: UInt32 = 0
                                    var g: UInt32 = 0
                                    var b: UInt32 = 0
                                    var s = x * 3
                                    while x < end {
                                        r &+= UInt32(src[s])
                                        g &+= UInt32(src[s + 1])
                                        b &+= UInt32(src[s + 2])
                                        s += 3
                                        x += 1
                                    }
                                    acc[a] &+= r
                                    acc[a + 1] &+= g
                                    acc[a + 2] &+= b
                                } else {
                                    while x < end {
                                        let s = x * c
                                        for k in 0..<c { acc[a + k] &+= UInt32(src[s + k]) }
                                        x += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if rows == 0 { return false }
            for ox in 0..<ow {
                let n = UInt32((min((ox + 1) * fx, sw) - ox * fx) * rows)
                let a = ox * c
                if alpha {
                    let total = alphas[ox]
                    for k in 0..<(c - 1) { out[a + k] = total == 0 ? 0 : UInt8((sums[a + k] + total / 2) / total) }
                    out[a + c - 1] = UInt8((total + n / 2) / n)
                } else {
                    for k in 0..<c { out[a + k] = UInt8((sums[a + k] + n / 2) / n) }
                }
            }
            return true
        }
    }
}
