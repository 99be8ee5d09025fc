/// Alpha meeting a format without it (JPEG): composited over a background colour.
extension Image {
    /// The image composited over `background`, opaque: each sample becomes
    /// `(c * a + bg * (255 - a)) / 255`, rounded, the arithmetic of premultiplied alpha as
    /// Pillow's `alpha_composite`, ImageMagick's `-flatten` and browsers' exports do it.
    /// A transparent pixel's colour never shows (its weight is 0), so nothing leaks from
    /// under the alpha and soft edges fade without a halo. A background that is itself not
    /// opaque is first put over white. Gray stays gray on a gray background; an image
    /// without alpha is returned as it is.
    public func flattened(onto background: Color) -> Image {
        guard format.hasAlpha else { return self }
        let bg = background.overWhite
        let target: PixelFormat = format.isGray && bg.isGray ? .gray : .rgb
        let sc = format.channels
        let tc = target.channels
        let back = [Int(bg.r), Int(bg.g), Int(bg.b)]
        var out = [UInt8](repeating: 0, count: width * height * tc)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<(width * height) {
                    let s = i * sc
                    let d = i * tc
                    let a = Int(src[s + sc - 1])
                    let rest = 255 - a
                    for k in 0..<tc {
                        let c = Int(src[s + (format.isGray ? 0 : k)])
                        dst[d + k] = UInt8((c * a + back[k] * rest + 127) / 255)
                    }
                }
            }
        }
        return Image(width: width, height: height, format: target, pixels: out)
    }
}

extension Color {
    /// This colour put over white: itself when opaque (what an opaque format's background is).
    public var overWhite: Color {
        if isOpaque { return self }
        let a = Int(self.a)
        let rest = 255 - a
        func over(_ c: UInt8) -> UInt8 { UInt8((Int(c) * a + 255 * rest + 127) / 255) }
        return Color(r: over(r), g: over(g), b: over(b))
    }
}
