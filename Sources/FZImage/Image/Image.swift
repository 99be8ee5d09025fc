import Geometry

/// An 8-bit image in memory: `height` rows of `width` pixels, `format.channels` bytes each,
/// rows packed with no padding. A value type; copies share storage until written.
public struct Image: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public var pixels: [UInt8]

    /// An image filled with one colour.
    /// - Parameters:
    ///   - width: columns, >= 0.
    ///   - height: rows, >= 0.
    ///   - format: the pixel layout.
    ///   - fill: the colour of every pixel (converted to `format`).
    public init(width: Int, height: Int, format: PixelFormat, fill: Color = .transparent) {
        self.width = width
        self.height = height
        self.format = format
        let bytes = fill.bytes(in: format)
        if bytes.allSatisfy({ $0 == 0 }) {
            pixels = [UInt8](repeating: 0, count: width * height * format.channels)
        } else {
            var p: [UInt8] = []
            p.reserveCapacity(width * height * format.channels)
            for _ in 0..<(width * height) { p.append(contentsOf: bytes) }
            pixels = p
        }
    }

    /// An image over existing bytes (`width * height * channels` of them).
    public init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) {
        precondition(pixels.count == width * height * format.channels, "pixel buffer size mismatch")
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Bytes per row.
    public var stride: Int { width * format.channels }

    /// The bytes of one pixel.
    public subscript(x: Int, y: Int) -> ArraySlice<UInt8> {
        let c = format.channels
        let i = (y * width + x) * c
        return pixels[i..<(i + c)]
    }

    /// A pixel as RGBA (gray expanded, alpha 255 where there is none).
    public func rgba(x: Int, y: Int) -> Color {
        let i = (y * width + x) * format.channels
        switch format {
        case .gray: return Color(r: pixels[i], g: pixels[i], b: pixels[i])
        case .grayAlpha: return Color(r: pixels[i], g: pixels[i], b: pixels[i], a: pixels[i + 1])
        case .rgb: return Color(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
        case .rgba: return Color(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
    }

    /// The pixels inside `rect` (which must lie within the image).
    public func cropped(to rect: PixelRect) -> Image {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.maxX <= width && rect.maxY <= height, "crop outside image")
        if rect == PixelRect(size: size) { return self }
        let c = format.channels
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * c)
        let rowBytes = rect.width * c
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<rect.height {
                    let s = ((rect.y + row) * width + rect.x) * c
                    let d = row * rowBytes
                    dst.baseAddress!.advanced(by: d).update(from: src.baseAddress!.advanced(by: s), count: rowBytes)
                }
            }
        }
        return Image(width: rect.width, height: rect.height, format: format, pixels: out)
    }

    /// The image turned upright: the stored image shown as `orientation` says.
    public func oriented(_ orientation: Orientation) -> Image {
        if orientation == .up { return self }
        let upright = orientation.uprightSize(ofStored: size)
        let out = Self.oriented(pixels, size: size, pixelBytes: format.channels, orientation)
        return Image(width: upright.width, height: upright.height, format: format, pixels: out)
    }

    /// Packed pixels of `pixelBytes` bytes each, of an image of `size`, turned upright as
    /// `orientation` says (shared with `Image16.oriented`, whose pixels are 6 or 8 bytes).
    package static func oriented(
        _ pixels: [UInt8], size stored: PixelSize, pixelBytes c: Int, _ orientation: Orientation
    )
        -> [UInt8]
    {
        let width = stored.width
        let upright = orientation.uprightSize(ofStored: stored)
        var out = [UInt8](repeating: 0, count: pixels.count)
        // Per upright row, the stored pixel walks with a fixed step: compute the start and
        // the step once and copy pixel by pixel.
        let origin = orientation.storedPixel(forUpright: PixelPoint(x: 0, y: 0), stored: stored)
        let nextX =
            upright.width > 1
            ? orientation.storedPixel(forUpright: PixelPoint(x: 1, y: 0), stored: stored) : origin
        let nextY =
            upright.height > 1
            ? orientation.storedPixel(forUpright: PixelPoint(x: 0, y: 1), stored: stored) : origin
        let stepX = ((nextX.y - origin.y) * width + (nextX.x - origin.x)) * c
        let stepY = ((nextY.y - origin.y) * width + (nextY.x - origin.x)) * c
        pixels.withUnsafeBufferPointer { srcBuf in
            out.withUnsafeMutableBufferPointer { dstBuf in
                let src = srcBuf.baseAddress!
                let dst = dstBuf.baseAddress!
                var rowStart = (origin.y * width + origin.x) * c
                var d = 0
                // One loop per pixel size so the copy is a single load and store.
                func walk<T>(_ type: T.Type) {
                    let s = UnsafeRawPointer(src)
                    let o = UnsafeMutableRawPointer(dst)
                    for _ in 0..<upright.height {
                        var p = rowStart
                        for _ in 0..<upright.width {
                            o.storeBytes(
                                of: s.loadUnaligned(fromByteOffset: p, as: T.self), toByteOffset: d, as: T.self)
                            d += c
                            p += stepX
                        }
                        rowStart += stepY
                    }
                }
                switch c {
                case 1: walk(UInt8.self)
                case 2: walk(UInt16.self)
                case 4: walk(UInt32.self)
                case 8: walk(UInt64.self)
                case 6:
                    for _ in 0..<upright.height {
                        var s = rowStart
                        for _ in 0..<upright.width {
                            (dst + d).update(from: src + s, count: 6)
                            d += 6
                            s += stepX
                        }
                        rowStart += stepY
                    }
                default:
                    for _ in 0..<upright.height {
                        var s = rowStart
                        for _ in 0..<upright.width {
                            dst[d] = src[s]
                            dst[d + 1] = src[s + 1]
                            dst[d + 2] = src[s + 2]
                            d += 3
                            s += stepX
                        }
                        rowStart += stepY
                    }
                }
            }
        }
        return out
    }

    /// The same pixels in another format: gray to RGB by copying, RGB to gray by Rec. 601
    /// luma, alpha added as opaque or dropped.
    public func converted(to target: PixelFormat) -> Image {
        if target == format { return self }
        let sc = format.channels
        let tc = target.channels
        var out = [UInt8](repeating: 0, count: width * height * tc)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<(width * height) {
                    let s = i * sc
                    let d = i * tc
                    let r = src[s]
                    let g = format.isGray ? r : src[s + 1]
                    let b = format.isGray ? r : src[s + 2]
                    let a: UInt8 = format.hasAlpha ? src[s + sc - 1] : 255
                    if target.isGray {
                        dst[d] = format.isGray ? r : Color.luma(r, g, b)
                    } else {
                        dst[d] = r
                        dst[d + 1] = g
                        dst[d + 2] = b
                    }
                    if target.hasAlpha { dst[d + tc - 1] = a }
                }
            }
        }
        return Image(width: width, height: height, format: target, pixels: out)
    }

    /// Copies `source` into this image with its top-left corner at `origin`; the parts
    /// outside are dropped. Formats must match.
    public mutating func place(_ source: Image, at origin: PixelPoint) {
        precondition(source.format == format, "formats differ")
        let target = PixelRect(origin: origin, size: source.size).intersection(PixelRect(size: size))
        if target.isEmpty { return }
        let c = format.channels
        let rowBytes = target.width * c
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for row in 0..<target.height {
                    let s = ((target.y - origin.y + row) * source.width + (target.x - origin.x)) * c
                    let d = ((target.y + row) * width + target.x) * c
                    dst.baseAddress!.advanced(by: d).update(from: src.baseAddress!.advanced(by: s), count: rowBytes)
                }
            }
        }
    }
}
