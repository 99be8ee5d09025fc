import FZImage

/// The picture `compare --diff` writes: where two images differ, as ImageMagick's
/// `compare` draws it with its defaults — the first image faded under 80% white where
/// every sample is equal, under 80% red (#f1001e) where any differs. The amplification
/// is total: a 1-level difference is as red as a 255-level one, so no difference hides in
/// a dark corner; the measures say how large they are.
public enum DifferenceImage {
    /// ImageMagick's default highlight and lowlight colours, and their opacity.
    package static let highlight: (Double, Double, Double) = (241, 0, 30)
    package static let lowlight: (Double, Double, Double) = (255, 255, 255)
    package static let opacity = 0.8

    /// The difference picture of `a` and `b` (same size): RGB, `a`'s colours (alpha
    /// dropped) under the lowlight or highlight. Alpha counts as a sample like the others.
    public static func render(_ a: Image, _ b: Image) -> Image {
        precondition(a.size == b.size, "compared images differ in size")
        let format: PixelFormat = a.format.hasAlpha || b.format.hasAlpha ? .rgba : .rgb
        let x = a.converted(to: format)
        let y = b.converted(to: format)
        let c = format.channels
        var out = [UInt8](repeating: 0, count: a.width * a.height * 3)
        for i in 0..<(a.width * a.height) {
            var differs = false
            for k in 0..<c where x.pixels[i * c + k] != y.pixels[i * c + k] { differs = true }
            let over = differs ? highlight : lowlight
            let tint = [over.0, over.1, over.2]
            for k in 0..<3 {
                let base = Double(x.pixels[i * c + k])
                out[i * 3 + k] = UInt8((base * (1 - opacity) + tint[k] * opacity).rounded())
            }
        }
        return Image(width: a.width, height: a.height, format: .rgb, pixels: out)
    }

    /// The same picture with the differing pixels given (`--metric ae`: those its fuzz
    /// counts, as ImageMagick's `compare -fuzz` highlights them): one flag per pixel.
    public static func render(_ a: Image, marked: [Bool]) -> Image {
        precondition(marked.count == a.width * a.height, "one mark per pixel")
        let x = a.converted(to: a.format.hasAlpha ? .rgba : .rgb)
        let c = x.format.channels
        var out = [UInt8](repeating: 0, count: a.width * a.height * 3)
        for i in 0..<(a.width * a.height) {
            let over = marked[i] ? highlight : lowlight
            let tint = [over.0, over.1, over.2]
            for k in 0..<3 {
                let base = Double(x.pixels[i * c + k])
                out[i * 3 + k] = UInt8((base * (1 - opacity) + tint[k] * opacity).rounded())
            }
        }
        return Image(width: a.width, height: a.height, format: .rgb, pixels: out)
    }
}
