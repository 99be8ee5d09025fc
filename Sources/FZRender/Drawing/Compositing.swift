import FZImage
import Geometry

/// Drawing onto images: alpha compositing and anti-aliased shapes from coverage masks.
extension Image {
    /// Composites `source` over this image with its top-left at `origin` (straight alpha,
    /// Porter-Duff over). The source is converted to this image's format first; where
    /// this image has no alpha, the result is opaque.
    public mutating func blend(_ source: Image, at origin: PixelPoint) {
        let src = source.format.hasAlpha ? source.converted(to: format.withAlpha) : source.converted(to: format)
        if !src.format.hasAlpha {
            place(src, at: origin)
            return
        }
        let target = PixelRect(origin: origin, size: src.size).intersection(PixelRect(size: size))
        if target.isEmpty { return }
        let c = format.channels
        let sc = src.format.channels
        for y in target.y..<target.maxY {
            for x in target.x..<target.maxX {
                let s = ((y - origin.y) * src.width + (x - origin.x)) * sc
                let d = (y * width + x) * c
                let color =
                    sc == 2
                    ? SIMD4(src.pixels[s], 0, 0, 0) : SIMD4(src.pixels[s], src.pixels[s + 1], src.pixels[s + 2], 0)
                blendPixel(at: d, channels: c, color: color, alpha: Float(src.pixels[s + sc - 1]) / 255)
            }
        }
    }

    /// Paints `color` through a coverage mask: `coverage` (0...1 per pixel, row-major over
    /// `rect`) scales the colour's alpha. Used for anti-aliased strokes, shadows and pins.
    public mutating func paint(_ color: Color, coverage: [Float], in rect: PixelRect) {
        let clipped = rect.intersection(PixelRect(size: size))
        if clipped.isEmpty { return }
        let c = format.channels
        let value = format.isGray ? SIMD4(color.bytes(in: .gray)[0], 0, 0, 0) : SIMD4(color.r, color.g, color.b, 0)
        let alpha = Float(color.a) / 255
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX {
                let k = coverage[(y - rect.y) * rect.width + (x - rect.x)]
                if k <= 0 { continue }
                blendPixel(at: (y * width + x) * c, channels: c, color: value, alpha: alpha * min(k, 1))
            }
        }
    }

    /// One pixel, straight-alpha over.
    /// `color` holds the gray value, or red, green and blue, in its first lanes (no heap
    /// array per pixel).
    private mutating func blendPixel(at d: Int, channels c: Int, color: SIMD4<UInt8>, alpha sa: Float) {
        if sa <= 0 { return }
        let colorChannels = format.hasAlpha ? c - 1 : c
        let da: Float = format.hasAlpha ? Float(pixels[d + c - 1]) / 255 : 1
        let oa = sa + da * (1 - sa)
        for k in 0..<colorChannels {
            let sv = Float(color[k])
            let dv = Float(pixels[d + k])
            let v = oa > 0 ? (sv * sa + dv * da * (1 - sa)) / oa : 0
            pixels[d + k] = UInt8(max(0, min(255, (v + 0.5).rounded(.down))))
        }
        if format.hasAlpha { pixels[d + c - 1] = UInt8(max(0, min(255, (oa * 255 + 0.5).rounded(.down)))) }
    }
}

/// Coverage masks of simple shapes, computed exactly (area of each pixel inside the shape).
public enum Coverage {
    /// The fraction of pixel (x, y)'s square inside rectangle `r` (continuous coordinates).
    @inline(__always)
    package static func rect(_ r: Rect, x: Int, y: Int) -> Float {
        let w = max(0, min(Double(x + 1), r.maxX) - max(Double(x), r.x))
        let h = max(0, min(Double(y + 1), r.maxY) - max(Double(y), r.y))
        return Float(w * h)
    }

    /// The mask of a rectangle outline of `width`, drawn inside `box`, over `area`.
    public static func stroke(_ box: Rect, width: Double, over area: PixelRect) -> [Float] {
        let inner = Rect(
            x: box.x + width, y: box.y + width, width: max(0, box.width - 2 * width),
            height: max(0, box.height - 2 * width))
        var mask = [Float](repeating: 0, count: area.width * area.height)
        for y in 0..<area.height {
            for x in 0..<area.width {
                let px = area.x + x
                let py = area.y + y
                mask[y * area.width + x] = max(0, rect(box, x: px, y: py) - rect(inner, x: px, y: py))
            }
        }
        return mask
    }

    /// A box blur of `radius` applied three times (close to a Gaussian of sigma ~ radius),
    /// for soft shadows.
    public static func blur(_ mask: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        guard radius > 0 else { return mask }
        var m = mask
        var tmp = m
        let norm = 1 / Float(2 * radius + 1)
        for _ in 0..<3 {
            for y in 0..<height {
                var sum: Float = 0
                for i in -radius...radius { sum += m[y * width + min(max(i, 0), width - 1)] }
                for x in 0..<width {
                    tmp[y * width + x] = sum * norm
                    sum += m[y * width + min(x + radius + 1, width - 1)] - m[y * width + max(x - radius, 0)]
                }
            }
            for x in 0..<width {
                var sum: Float = 0
                for i in -radius...radius { sum += tmp[min(max(i, 0), height - 1) * width + x] }
                for y in 0..<height {
                    m[y * width + x] = sum * norm
                    sum += tmp[min(y + radius + 1, height - 1) * width + x] - tmp[max(y - radius, 0) * width + x]
                }
            }
        }
        return m
    }

    /// A supersampled mask (4x4 samples per pixel) of any shape given by `inside`.
    public static func shape(over area: PixelRect, inside: (Double, Double) -> Bool) -> [Float] {
        var mask = [Float](repeating: 0, count: area.width * area.height)
        for y in 0..<area.height {
            for x in 0..<area.width {
                var n = 0
                for sy in 0..<4 {
                    for sx in 0..<4
                    where inside(
                        Double(area.x + x) + (Double(sx) + 0.5) / 4, Double(area.y + y) + (Double(sy) + 0.5) / 4)
                    {
                        n += 1
                    }
                }
                mask[y * area.width + x] = Float(n) / 16
            }
        }
        return mask
    }
}
