/// The layout of one 8-bit pixel: gray, gray+alpha, RGB or RGBA, in that byte order.
public enum PixelFormat: Int, Sendable, CaseIterable, CustomStringConvertible {
    case gray = 1
    case grayAlpha = 2
    case rgb = 3
    case rgba = 4

    /// Bytes per pixel.
    public var channels: Int { rawValue }
    public var hasAlpha: Bool { self == .grayAlpha || self == .rgba }
    public var isGray: Bool { self == .gray || self == .grayAlpha }

    /// The format from a channel count (1...4).
    public init?(channels: Int) { self.init(rawValue: channels) }

    /// The same colours with an alpha channel.
    public var withAlpha: PixelFormat { isGray ? .grayAlpha : .rgba }
    /// The same alpha with colour channels.
    public var withColor: PixelFormat { hasAlpha ? .rgba : .rgb }

    /// The smallest format that holds both this format's pixels and `other`'s.
    public func union(_ other: PixelFormat) -> PixelFormat {
        let alpha = hasAlpha || other.hasAlpha
        let gray = isGray && other.isGray
        switch (gray, alpha) {
        case (true, false): return .gray
        case (true, true): return .grayAlpha
        case (false, false): return .rgb
        case (false, true): return .rgba
        }
    }

    public var description: String {
        switch self {
        case .gray: return "gray"
        case .grayAlpha: return "gray+alpha"
        case .rgb: return "rgb"
        case .rgba: return "rgba"
        }
    }
}
