import FZImage
import FZPNG
import FZRender
import FZSystem
import Geometry

/// Turns a picture into the bytes that show it in a terminal: fitted into the window (never
/// enlarged), alpha over a checkerboard or a background for the protocols without alpha,
/// then encoded for the protocol. The caller writes the bytes (`TerminalScreen.write`).
public enum InlineImage {
    /// The checkerboard's squares and grays (as image viewers draw transparency).
    package static let checker = 8
    package static let light: UInt8 = 153, dark: UInt8 = 102

    /// What the terminal can show: its pixel area, and how pixels map to cells.
    public struct Target: Sendable, Hashable {
        /// The largest picture, in pixels (nil: no limit, e.g. not a terminal).
        public var limit: PixelSize?
        public var graphics: GraphicsProtocol
        public var depth: ColorDepth
        /// Inside tmux: kitty and iTerm2 go through its passthrough.
        public var tmux: Bool
        /// One cell in pixels when the probe measured it (`ESC [16t`).
        public var cell: PixelSize?

        public init(limit: PixelSize?, graphics: GraphicsProtocol, depth: ColorDepth = .trueColor, tmux: Bool = false) {
            self.limit = limit
            self.graphics = graphics
            self.depth = depth
            self.tmux = tmux
        }
    }

    /// The size `image` is shown at: scaled down (aspect kept) to fit `limit`, never up.
    public static func shownSize(_ size: PixelSize, limit: PixelSize?) -> PixelSize {
        guard let limit, size.width > limit.width || size.height > limit.height else { return size }
        let s = min(Double(limit.width) / Double(size.width), Double(limit.height) / Double(size.height))
        return PixelSize(
            width: max(1, Int((Double(size.width) * s).rounded())),
            height: max(1, Int((Double(size.height) * s).rounded())))
    }

    /// `image` scaled with Lanczos (as `thumb`) to `size`, or itself when it is that size.
    public static func scaled(_ image: Image, to size: PixelSize) -> Image {
        if image.size == size { return image }
        return Resampler(source: image.size, output: size, format: image.format, filter: .lanczos).resample(image)
    }

    /// RGB pixels: alpha composited over `background`, or over a checkerboard when nil.
    public static func flattened(_ image: Image, background: Color?) -> Image {
        if !image.format.hasAlpha { return image.converted(to: .rgb) }
        var canvas: Image
        if let background, background.a == 255 {
            canvas = Image(width: image.width, height: image.height, format: .rgb, fill: background)
        } else {
            canvas = Image(width: image.width, height: image.height, format: .rgb)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let v = (x / checker + y / checker) % 2 == 0 ? light : dark
                    let i = (y * image.width + x) * 3
                    canvas.pixels[i] = v
                    canvas.pixels[i + 1] = v
                    canvas.pixels[i + 2] = v
                }
            }
        }
        canvas.blend(image, at: PixelPoint(x: 0, y: 0))
        return canvas
    }

    /// The bytes that show `image` at the cursor, followed by a newline for the protocols that
    /// leave the cursor on the picture's last line.
    /// - Parameter background: what alpha is shown over where the protocol has none (nil: a checkerboard).
    public static func encode(
        _ image: Image, for target: Target, background: Color? = nil, newline: Bool = true
    ) throws(OutputError) -> [UInt8] {
        let end: [UInt8] = newline ? [UInt8(ascii: "\n")] : []
        let shown = scaled(image, to: shownSize(image.size, limit: target.limit))
        switch target.graphics {
        case .kitty, .iterm:
            let picture = background.map { flattened(shown, background: $0) } ?? shown
            let png = try PNGWriter.encode(picture, settings: .compression(1))
            var bytes =
                target.graphics == .kitty
                ? KittyEncoder.encode(png: png)
                : ITermEncoder.encode(png: png, width: picture.width, height: picture.height)
            if target.tmux { bytes = TmuxPassthrough.wrap(bytes) }
            return bytes + end
        case .sixel:
            return SixelEncoder.encode(rgb: flattened(shown, background: background)) + end
        case .blocks:
            return BlockEncoder.encode(rgb: flattened(shown, background: background), depth: target.depth)
        }
    }
}

extension InlineImage {
    /// A 16-bit picture at 8 bits for showing (each sample rounded: v * 255 / 65535).
    public static func eightBit(_ image: Image16) -> Image {
        let n = image.width * image.height * image.format.channels
        var out = [UInt8](repeating: 0, count: n)
        for i in 0..<n {
            let v = Int(image.bytes[2 * i]) << 8 | Int(image.bytes[2 * i + 1])
            out[i] = UInt8((v * 255 + 32767) / 65535)
        }
        return Image(width: image.width, height: image.height, format: image.format, pixels: out)
    }
}
