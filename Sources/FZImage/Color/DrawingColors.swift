/// forcezoom's own colours (backgrounds, frame's box, pins) are given in sRGB; on an output
/// that keeps the input's RGB profile they are converted into that profile's space with
/// lcms2 (relative colorimetric), so a `#FF0000` pin is the same red on every photo,
/// whatever space its pixels are in. On outputs in sRGB or without a profile the colours
/// pass unchanged.
public struct DrawingColors: Sendable {
    private let transform: ColorTransform?
    private let alphaTransform: ColorTransform?

    /// - Parameter output: what the output carries (`nil`: nothing, taken as sRGB).
    public init(output: ColorDescription?) {
        guard let output, let icc = output.icc, output.profile?.colorSpace == "RGB",
            case .success(let t) = ColorTransform.fromSRGB(icc: icc, channels: 3, intent: .relative),
            case .success(let a) = ColorTransform.fromSRGB(icc: icc, channels: 4, intent: .relative)
        else {
            (transform, alphaTransform) = (nil, nil)
            return
        }
        (transform, alphaTransform) = (t, a)
    }

    /// Whether colours pass unchanged.
    public var isIdentity: Bool { transform == nil }

    /// `color` (sRGB) in the output's space; alpha unchanged.
    public func map(_ color: Color) -> Color {
        guard let transform else { return color }
        var rgb: [UInt8] = [color.r, color.g, color.b]
        rgb.withUnsafeMutableBytes { transform.apply($0, pixels: 1) }
        return Color(r: rgb[0], g: rgb[1], b: rgb[2], a: color.a)
    }

    /// An sRGB picture forcezoom composites (animate's `--overlay`) in the output's space; a
    /// gray one becomes colour first.
    public func convert(_ image: inout Image) {
        guard let transform, let alphaTransform else { return }
        if image.format.isGray { image = image.converted(to: image.format.withColor) }
        let pixels = image.width * image.height
        let t = image.format.hasAlpha ? alphaTransform : transform
        image.pixels.withMutableBytes { t.apply($0, pixels: pixels) }
    }
}
