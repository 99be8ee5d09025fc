/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Number of pixels, as a wide integer so 2^31 x 2^31 headers cannot overflow.
    /// width x height; saturates at Int64.max (sizes from headers and arguments can be
    /// anything, and a limit check must see "too big", never trap).
    public var area: Int64 {
        let (a, overflow) = Int64(width).multipliedReportingOverflow(by: Int64(height))
        return overflow ? .max : a
    }
    /// The size with width and height exchanged (a quarter turn).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }
    public var description: String { "\(width)x\(height)" }
}

/// A point in whole pixels (the top-left corner of a pixel).
public struct PixelPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public var description: String { "\(x),\(y)" }
}

/// A rectangle of whole pixels: columns x..<x+width, rows y..<y+height.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: PixelPoint = PixelPoint(x: 0, y: 0), size: PixelSize) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The common part of two rectangles; empty (width or height 0) when they do not meet.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public func contains(_ p: PixelPoint) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A rectangle in continuous coordinates (view points, normalised units, sub-pixel windows).
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}
