import FZImage
import Geometry

/// Solid fills and text in the built-in bitmap font, drawn straight into the pixels.
extension Image {
    /// Fills a rectangle (clipped to the image) with a colour.
    public mutating func fill(_ rect: PixelRect, _ color: Color) {
        let r = rect.intersection(PixelRect(size: size))
        if r.isEmpty { return }
        let bytes = color.bytes(in: format)
        let c = format.channels
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX {
                let i = (y * width + x) * c
                for k in 0..<c { pixels[i + k] = bytes[k] }
            }
        }
    }

    /// Draws text in the built-in bitmap font (clipped to the image).
    public mutating func draw(_ text: String, x: Int, y: Int, scale: Int, color: Color) {
        let bytes = color.bytes(in: format)
        let c = format.channels
        let w = width
        let h = height
        pixels.withUnsafeMutableBufferPointer { px in
            BitmapFont.standard.render(text, originX: x, originY: y, scale: scale) { gx, gy in
                guard gx >= 0, gy >= 0, gx < w, gy < h else { return }
                let i = (gy * w + gx) * c
                for k in 0..<c { px[i + k] = bytes[k] }
            }
        }
    }
}
