/// An 8-bit straight-alpha RGBA colour, as given on the command line.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

    /// Named colours accepted besides hex.
    public static let names: [(String, Color)] = [
        ("black", .black), ("white", .white), ("transparent", .transparent),
        ("gray", Color(r: 128, g: 128, b: 128)), ("red", Color(r: 255, g: 0, b: 0)),
        ("green", Color(r: 0, g: 255, b: 0)), ("blue", Color(r: 0, g: 0, b: 255)),
    ]

    /// Parses `black`, `white`, `transparent` (and a few more names), `#RRGGBB`, `#RRGGBBAA`.
    public init?(parsing text: String) {
        let t = text.lowercased()
        if let named = Self.names.first(where: { $0.0 == t }) {
            self = named.1
            return
        }
        var hex = Substring(t)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 6 || hex.count == 8, let v = UInt32(hex, radix: 16) else { return nil }
        if hex.count == 6 {
            self.init(r: UInt8(v >> 16 & 255), g: UInt8(v >> 8 & 255), b: UInt8(v & 255))
        } else {
            self.init(r: UInt8(v >> 24), g: UInt8(v >> 16 & 255), b: UInt8(v >> 8 & 255), a: UInt8(v & 255))
        }
    }

    public var isGray: Bool { r == g && g == b }
    public var isOpaque: Bool { a == 255 }

    /// The smallest pixel format that can show this colour.
    public var minimalFormat: PixelFormat {
        switch (isGray, isOpaque) {
        case (true, true): return .gray
        case (true, false): return .grayAlpha
        case (false, true): return .rgb
        case (false, false): return .rgba
        }
    }

    /// The colour's bytes in `format` (gray takes the red channel of a gray colour,
    /// else Rec. 601 luma).
    public func bytes(in format: PixelFormat) -> [UInt8] {
        let y = isGray ? r : Color.luma(r, g, b)
        switch format {
        case .gray: return [y]
        case .grayAlpha: return [y, a]
        case .rgb: return [r, g, b]
        case .rgba: return [r, g, b, a]
        }
    }

    /// Rec. 601 luma, rounded.
    @inline(__always)
    package static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let sum: Int = 299 * Int(r) + 587 * Int(g) + 114 * Int(b) + 500
        return UInt8(sum / 1000)
    }

    public var description: String {
        let hex = [r, g, b, a].map { v -> String in
            let s = String(v, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex.joined()
    }
}
