import FZImage
import FZRender
import Geometry

/// A 16-bit straight-alpha RGBA sample, the fixtures' working precision.
public struct Sample16: Hashable, Sendable {
    public var r: UInt16, g: UInt16, b: UInt16, a: UInt16

    public init(r: UInt16, g: UInt16, b: UInt16, a: UInt16 = 65535) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public init(gray: UInt16, a: UInt16 = 65535) { self.init(r: gray, g: gray, b: gray, a: a) }

    /// An 8-bit colour widened exactly (v * 257), so 8-bit output gives it back unchanged.
    public init(_ c: Color) {
        self.init(r: UInt16(c.r) * 257, g: UInt16(c.g) * 257, b: UInt16(c.b) * 257, a: UInt16(c.a) * 257)
    }

    /// Rec. 601 luma at 16 bits.
    public var luma: UInt16 {
        if r == g && g == b { return r }
        let sum: UInt32 = 299 * UInt32(r) + 587 * UInt32(g) + 114 * UInt32(b) + 500
        return UInt16(sum / 1000)
    }
}

/// A synthetic test picture, defined for every pixel of the upright image.
public struct Pattern: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case coords, grid, orientation, checker, gradient, zoneplate, noise, solid
    }

    public enum GradientDirection: String, CaseIterable, Sendable { case horizontal, vertical, radial }

    public let kind: Kind
    public let size: PixelSize
    /// checker cell / grid spacing in pixels.
    public var step: Int
    public var seed: UInt64
    public var color: Color
    public var direction: GradientDirection
    /// Alpha falls from opaque at the top row to clear at the bottom (for alpha fixtures).
    public var fade = false
    /// Pre-drawn pictures (grid, orientation), 8-bit RGBA.
    private var drawn: Image?

    /// - Parameters:
    ///   - kind: the picture.
    ///   - size: upright size (both sides > 0).
    ///   - step: checker cell or grid spacing (default 8 for checker, 100 for grid).
    ///   - seed: noise seed.
    ///   - color: the solid colour.
    ///   - direction: the gradient's direction.
    public init(
        _ kind: Kind, size: PixelSize, step: Int? = nil, seed: UInt64 = 1, color: Color = .white,
        direction: GradientDirection = .horizontal
    ) {
        self.kind = kind
        self.size = size
        self.step = max(1, step ?? (kind == .grid ? 100 : 8))
        self.seed = seed
        self.color = color
        self.direction = direction
        switch kind {
        case .grid: drawn = Self.drawGrid(size: size, step: self.step)
        case .orientation: drawn = Self.drawOrientation(size: size)
        default: drawn = nil
        }
    }

    /// The sample at upright pixel (x, y).
    public func sample(x: Int, y: Int) -> Sample16 {
        var s = opaqueSample(x: x, y: y)
        if fade && size.height > 1 {
            s.a = UInt16(
                (UInt32(s.a) * UInt32(size.height - 1 - y) + UInt32(size.height - 1) / 2) / UInt32(size.height - 1))
        }
        return s
    }

    private func opaqueSample(x: Int, y: Int) -> Sample16 {
        switch kind {
        case .coords:
            let c = CoordinateCode.color(x: x, y: y)
            return Sample16(r: UInt16(c.r) * 257, g: UInt16(c.g) * 257, b: UInt16(c.b) * 257)
        case .checker:
            let on = ((x / step) + (y / step)) % 2 == 0
            return Sample16(gray: on ? 65535 : 0)
        case .gradient:
            return Sample16(gray: gradient(x: x, y: y))
        case .zoneplate:
            // 0.5 + 0.5 cos(pi r^2 / R): the local frequency r/R cycles per pixel passes
            // Nyquist (0.5) at r = R/2, so every scale of aliasing shows as moire rings.
            let cx = Double(x) - Double(size.width - 1) / 2
            let cy = Double(y) - Double(size.height - 1) / 2
            let r2 = cx * cx + cy * cy
            let v = 0.5 + 0.5 * cos(Double.pi * r2 / Double(max(size.width, size.height)))
            return Sample16(gray: UInt16((v * 65535).rounded()))
        case .noise:
            let h = Self.mix(seed &+ UInt64(y) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(x) &* 0xD1B5_4A32_D192_ED03)
            return Sample16(
                r: UInt16(truncatingIfNeeded: h), g: UInt16(truncatingIfNeeded: h >> 16),
                b: UInt16(truncatingIfNeeded: h >> 32))
        case .solid:
            return Sample16(color)
        case .grid, .orientation:
            return Sample16(drawn!.rgba(x: x, y: y))
        }
    }

    private func gradient(x: Int, y: Int) -> UInt16 {
        switch direction {
        case .horizontal:
            return size.width > 1 ? UInt16((x * 65535 + (size.width - 1) / 2) / (size.width - 1)) : 0
        case .vertical:
            return size.height > 1 ? UInt16((y * 65535 + (size.height - 1) / 2) / (size.height - 1)) : 0
        case .radial:
            let cx = Double(x) - Double(size.width - 1) / 2
            let cy = Double(y) - Double(size.height - 1) / 2
            let rmax =
                (Double(size.width - 1) * Double(size.width - 1) + Double(size.height - 1) * Double(size.height - 1))
                .squareRoot() / 2
            let r = rmax > 0 ? (cx * cx + cy * cy).squareRoot() / rmax : 0
            return UInt16((min(r, 1) * 65535).rounded())
        }
    }

    /// splitmix64's finaliser: a good, fast, portable hash (same bytes on every machine).
    package static func mix(_ z0: UInt64) -> UInt64 {
        var z = z0 &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: Drawn pictures

    package static func drawGrid(size: PixelSize, step: Int) -> Image {
        var image = Image(width: size.width, height: size.height, format: .rgba, fill: .white)
        let line = Color(r: 90, g: 90, b: 90)
        let major = Color(r: 200, g: 0, b: 0)
        for x in stride(from: 0, to: size.width, by: step) {
            image.fill(PixelRect(x: x, y: 0, width: 1, height: size.height), x == 0 ? major : line)
        }
        for y in stride(from: 0, to: size.height, by: step) {
            image.fill(PixelRect(x: 0, y: y, width: size.width, height: 1), y == 0 ? major : line)
        }
        let font = BitmapFont.standard
        let scale = step >= 60 ? 2 : 1
        for x in stride(from: 0, to: size.width, by: step) {
            for y in stride(from: 0, to: size.height, by: step) {
                let label = "\(x),\(y)"
                let s = font.size(of: label, scale: scale)
                if s.width + 3 > step && !(x == 0 && y == 0) && step < 40 { continue }
                image.draw(label, x: x + 3, y: y + 3, scale: scale, color: .black)
            }
        }
        return image
    }

    package static func drawOrientation(size: PixelSize) -> Image {
        let w = size.width
        let h = size.height
        var image = Image(width: w, height: h, format: .rgba, fill: Color(r: 235, g: 235, b: 235))
        let m = max(1, min(w, h) / 5)
        // Four corners in four colours: top-left red, top-right green, bottom-left blue,
        // bottom-right yellow. Any turn or flip moves them somewhere else.
        image.fill(PixelRect(x: 0, y: 0, width: m, height: m), Color(r: 230, g: 0, b: 0))
        image.fill(PixelRect(x: w - m, y: 0, width: m, height: m), Color(r: 0, g: 200, b: 0))
        image.fill(PixelRect(x: 0, y: h - m, width: m, height: m), Color(r: 0, g: 0, b: 230))
        image.fill(PixelRect(x: w - m, y: h - m, width: m, height: m), Color(r: 240, g: 200, b: 0))
        // An "F": asymmetric under every flip and rotation.
        let fw = max(3, min(w, h) * 2 / 5)
        let fh = max(5, min(w, h) / 2)
        let fx = (w - fw) / 2
        let fy = (h - fh) / 2 + max(1, min(w, h) / 16)
        let bar = max(1, fw / 4)
        let ink = Color(r: 20, g: 20, b: 20)
        image.fill(PixelRect(x: fx, y: fy, width: bar, height: fh), ink)
        image.fill(PixelRect(x: fx, y: fy, width: fw, height: bar), ink)
        image.fill(PixelRect(x: fx, y: fy + fh / 2 - bar / 2, width: fw * 3 / 4, height: bar), ink)
        // "TOP" centred above the F.
        let font = BitmapFont.standard
        var scale = max(1, min(w, h) / 60)
        while scale > 1 && font.size(of: "TOP", scale: scale).width > w - 2 * m { scale -= 1 }
        let t = font.size(of: "TOP", scale: scale)
        image.draw(
            "TOP", x: (w - t.width) / 2, y: max(0, min(fy - t.height - scale * 2, m / 2)), scale: scale, color: ink)
        return image
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
