/// One coordinate of a touch: in pixels (or view points) or in percent of the extent.
public enum Coordinate: Hashable, Sendable, CustomStringConvertible {
    case absolute(Double)
    case percent(Double)

    /// Parses `1200`, `12.5` or `50%`.
    public init?(parsing text: Substring) {
        let t = text.trimmingSpaces
        if t.hasSuffix("%") {
            guard let p = Double(t.dropLast()), p.isFinite else { return nil }
            self = .percent(p)
        } else {
            guard let v = Double(t), v.isFinite else { return nil }
            self = .absolute(v)
        }
    }

    /// Whole values without a fraction (within Int's range), others as Swift prints them.
    package static func format(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    public var description: String {
        switch self {
        case .absolute(let v): return Self.format(v)
        case .percent(let p): return Self.format(p) + "%"
        }
    }
}

/// Where the user touched: image pixels, percentages of the image, or a point in an
/// aspect-fit view of the image that is mapped back to it.
public struct TouchPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Coordinate
    public var y: Coordinate
    /// With a view size, coordinates are view points (or percent of the view).
    public var view: PixelSize?
    /// The text it was parsed from, shown in messages as typed (`1e308,1e308`).
    public var text: String?

    public init(x: Coordinate, y: Coordinate, view: PixelSize? = nil) {
        self.x = x
        self.y = y
        self.view = view
    }

    /// Parses `X,Y` where each part is a number or a percentage.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Coordinate(parsing: parts[0]), let y = Coordinate(parsing: parts[1]) else {
            return nil
        }
        self.init(x: x, y: y)
        self.text = text
    }

    public var description: String { text ?? "\(x),\(y)" }

    /// Why the point can never be inside an image, whatever its size, or nil: a percentage
    /// outside 0...100 or a negative coordinate.
    public var argumentProblem: String? {
        for (c, axis) in [(x, "x"), (y, "y")] {
            switch c {
            case .percent(let p) where !(0...100).contains(p):
                return "\(axis) percentage \(Coordinate.format(p))% is outside 0%...100%"
            case .absolute(let v) where v < 0:
                return "\(axis) \(Coordinate.format(v)) is negative; coordinates start at 0"
            default: continue
            }
        }
        return nil
    }

    /// The upright image pixel this touch names.
    /// - Parameter image: the upright image size.
    /// - Returns: a pixel inside the image.
    /// - Throws: `GeometryError` when the point lies outside the image or view, or a
    ///   percentage is outside 0...100.
    public func resolve(in image: PixelSize) throws(GeometryError) -> PixelPoint {
        if let view {
            let fit = AspectFit(image: image, view: view)
            let vx = try Self.absolute(x, extent: view.width, axis: "x")
            let vy = try Self.absolute(y, extent: view.height, axis: "y")
            guard vx >= 0, vy >= 0, vx < Double(view.width), vy < Double(view.height) else {
                throw .pointOutsideView(point: description, view: view)
            }
            return fit.imagePixel(x: vx, y: vy)
        }
        let px = try Self.pixel(x, extent: image.width, axis: "x")
        let py = try Self.pixel(y, extent: image.height, axis: "y")
        guard px >= 0, py >= 0, px < image.width, py < image.height else {
            throw .pointOutsideImage(point: description, image: image)
        }
        return PixelPoint(x: px, y: py)
    }

    private static func absolute(_ c: Coordinate, extent: Int, axis: String) throws(GeometryError) -> Double {
        switch c {
        case .absolute(let v): return v
        case .percent(let p):
            guard (0...100).contains(p) else { throw .percentOutOfRange(axis: axis, value: p) }
            return p / 100 * Double(extent)
        }
    }

    /// Pixels: floor of the value. Percent: floor(p/100 * extent), clamped to extent - 1
    /// (so 100% is the last pixel).
    private static func pixel(_ c: Coordinate, extent: Int, axis: String) throws(GeometryError) -> Int {
        switch c {
        case .absolute(let v):
            // Outside any image (and past Int's range): the caller's range check refuses it.
            guard v >= 0 && v < Double(extent) else { return -1 }
            return Int(v.rounded(.down))
        case .percent(let p):
            guard (0...100).contains(p) else { throw .percentOutOfRange(axis: axis, value: p) }
            // The epsilon keeps decimal percentages exact: 33.3% of 4000 is 1332, though
            // 33.3 / 100 * 4000 is 1331.9999999999998 in binary floating point.
            return min(Int((p / 100 * Double(extent) + 1e-9).rounded(.down)), extent - 1)
        }
    }
}

extension Substring {
    public var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
