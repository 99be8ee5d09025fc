/// One of the eight EXIF orientations: how the stored pixels must be turned to stand upright.
///
/// The raw values are EXIF's (TIFF tag 0x0112). Names say what a viewer does to the stored
/// image to show it upright: `.rotate90` turns it a quarter turn clockwise (EXIF 6).
public enum Orientation: Int, CaseIterable, Sendable, CustomStringConvertible {
    case up = 1
    case mirrored = 2
    case rotate180 = 3
    case flipped = 4
    case transposed = 5
    case rotate90 = 6
    case transverse = 7
    case rotate270 = 8

    /// Whether the upright image has width and height exchanged.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The upright size of a stored image.
    public func uprightSize(ofStored size: PixelSize) -> PixelSize { swapsAxes ? size.transposed : size }

    /// The stored pixel shown at upright pixel `p`.
    /// - Parameters:
    ///   - p: a pixel of the upright image.
    ///   - stored: the stored (raw) image size.
    /// - Returns: the pixel of the stored image that lands at `p`.
    public func storedPixel(forUpright p: PixelPoint, stored: PixelSize) -> PixelPoint {
        let w = stored.width - 1
        let h = stored.height - 1
        switch self {
        case .up: return p
        case .mirrored: return PixelPoint(x: w - p.x, y: p.y)
        case .rotate180: return PixelPoint(x: w - p.x, y: h - p.y)
        case .flipped: return PixelPoint(x: p.x, y: h - p.y)
        case .transposed: return PixelPoint(x: p.y, y: p.x)
        case .rotate90: return PixelPoint(x: p.y, y: h - p.x)
        case .transverse: return PixelPoint(x: w - p.y, y: h - p.x)
        case .rotate270: return PixelPoint(x: w - p.y, y: p.x)
        }
    }

    /// The stored rectangle whose pixels make up the upright rectangle `rect`.
    /// - Parameters:
    ///   - rect: a non-empty rectangle of the upright image.
    ///   - stored: the stored (raw) image size.
    public func storedRect(forUpright rect: PixelRect, stored: PixelSize) -> PixelRect {
        let a = storedPixel(forUpright: PixelPoint(x: rect.x, y: rect.y), stored: stored)
        let b = storedPixel(forUpright: PixelPoint(x: rect.maxX - 1, y: rect.maxY - 1), stored: stored)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }

    /// The stored region (continuous coordinates, sub-pixel allowed) shown as the upright
    /// region `rect`: the same mapping as `storedRect(forUpright:stored:)`, for windows
    /// that do not fall on whole pixels.
    public func storedRect(forUpright rect: Rect, stored: PixelSize) -> Rect {
        let w = Double(stored.width)
        let h = Double(stored.height)
        func map(_ x: Double, _ y: Double) -> (Double, Double) {
            switch self {
            case .up: return (x, y)
            case .mirrored: return (w - x, y)
            case .rotate180: return (w - x, h - y)
            case .flipped: return (x, h - y)
            case .transposed: return (y, x)
            case .rotate90: return (y, h - x)
            case .transverse: return (w - y, h - x)
            case .rotate270: return (w - y, x)
            }
        }
        let a = map(rect.x, rect.y)
        let b = map(rect.maxX, rect.maxY)
        return Rect(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(a.0 - b.0), height: abs(a.1 - b.1))
    }

    /// The orientation that undoes this one.
    public var inverse: Orientation {
        switch self {
        case .rotate90: return .rotate270
        case .rotate270: return .rotate90
        default: return self  // every other one is its own inverse
        }
    }

    public var description: String {
        switch self {
        case .up: return "1 (upright)"
        case .mirrored: return "2 (mirrored)"
        case .rotate180: return "3 (rotate 180)"
        case .flipped: return "4 (flipped)"
        case .transposed: return "5 (transposed)"
        case .rotate90: return "6 (rotate 90 CW)"
        case .transverse: return "7 (transverse)"
        case .rotate270: return "8 (rotate 270 CW)"
        }
    }
}

extension Orientation {
    /// The upright pixel where stored pixel `p` is shown (the inverse of `storedPixel`).
    /// - Parameters:
    ///   - p: a pixel of the stored image.
    ///   - stored: the stored (raw) image size.
    public func uprightPixel(forStored p: PixelPoint, stored: PixelSize) -> PixelPoint {
        inverse.storedPixel(forUpright: p, stored: uprightSize(ofStored: stored))
    }
}
