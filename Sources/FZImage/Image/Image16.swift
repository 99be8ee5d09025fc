import Geometry

/// Pixels at 16 bits a sample, big-endian as PNG stores them: what a lossless crop or
/// quarter turn of a 16-bit PNG carries through unchanged (`--depth 16`). Only moves and
/// fills, never arithmetic on samples, so every input sample reaches the output as it was.
public struct Image16: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// `2 * format.channels` bytes a pixel, rows packed, samples big-endian.
    public var bytes: [UInt8]

    public init(width: Int, height: Int, format: PixelFormat, bytes: [UInt8]) {
        precondition(bytes.count == width * height * format.channels * 2)
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
    }

    /// An image filled with `color` (each 8-bit channel c as c * 257: 0xFF -> 0xFFFF).
    public init(width: Int, height: Int, format: PixelFormat, fill color: Color) {
        let one = color.bytes(in: format).flatMap { [$0, $0] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * one.count)
        for _ in 0..<(width * height) { bytes += one }
        self.init(width: width, height: height, format: format, bytes: bytes)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    package var pixelBytes: Int { format.channels * 2 }

    /// The same pixels in `target` (a format with at least this one's information): gray
    /// replicated into RGB, an opaque alpha (0xFFFF) added.
    public func converted(to target: PixelFormat) -> Image16 {
        if target == format { return self }
        let from = format.channels
        let to = target.channels
        var out = [UInt8](repeating: 0xFF, count: width * height * to * 2)
        for p in 0..<(width * height) {
            let s = p * from * 2
            let d = p * to * 2
            let colour = format.isGray ? [0, 0, 0] : [0, 1, 2]
            for k in 0..<(target.isGray ? 1 : 3) {
                out[d + 2 * k] = bytes[s + 2 * colour[k]]
                out[d + 2 * k + 1] = bytes[s + 2 * colour[k] + 1]
            }
            if format.hasAlpha && target.hasAlpha {
                out[d + 2 * (to - 1)] = bytes[s + 2 * (from - 1)]
                out[d + 2 * (to - 1) + 1] = bytes[s + 2 * (from - 1) + 1]
            }
        }
        return Image16(width: width, height: height, format: target, bytes: out)
    }

    /// Copies `other` (same format) with its top-left at `point`, clipped to this image.
    public mutating func place(_ other: Image16, at point: PixelPoint) {
        precondition(other.format == format)
        let n = pixelBytes
        for y in 0..<other.height {
            let ty = point.y + y
            guard ty >= 0, ty < height else { continue }
            let x0 = max(0, -point.x)
            let x1 = min(other.width, width - point.x)
            guard x0 < x1 else { continue }
            let s = (y * other.width + x0) * n
            let d = (ty * width + point.x + x0) * n
            bytes.replaceSubrange(d..<(d + (x1 - x0) * n), with: other.bytes[s..<(s + (x1 - x0) * n)])
        }
    }

    /// The image turned upright: the stored image shown as `orientation` says.
    public func oriented(_ orientation: Orientation) -> Image16 {
        if orientation == .up { return self }
        let upright = orientation.uprightSize(ofStored: size)
        let out = Image.oriented(bytes, size: size, pixelBytes: pixelBytes, orientation)
        return Image16(width: upright.width, height: upright.height, format: format, bytes: out)
    }

    /// Turned `quarterTurns` times clockwise (negative: anticlockwise).
    public func rotated(quarterTurns: Int) -> Image16 {
        let q = ((quarterTurns % 4) + 4) % 4
        if q == 0 { return self }
        let n = pixelBytes
        let (w, h) = q == 2 ? (width, height) : (height, width)
        var out = [UInt8](repeating: 0, count: bytes.count)
        for y in 0..<h {
            for x in 0..<w {
                // The source pixel shown at output (x, y).
                let (sx, sy): (Int, Int)
                switch q {
                case 1: (sx, sy) = (y, height - 1 - x)
                case 2: (sx, sy) = (width - 1 - x, height - 1 - y)
                default: (sx, sy) = (width - 1 - y, x)
                }
                let s = (sy * width + sx) * n
                let d = (y * w + x) * n
                for k in 0..<n { out[d + k] = bytes[s + k] }
            }
        }
        return Image16(width: w, height: h, format: format, bytes: out)
    }
}
