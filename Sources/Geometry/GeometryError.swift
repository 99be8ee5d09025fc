/// Why a requested geometry cannot be honoured.
public enum GeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The touch point lies outside the upright image.
    case pointOutsideImage(point: String, image: PixelSize)
    /// The touch point lies outside the view it was given in.
    case pointOutsideView(point: String, view: PixelSize)
    /// A percentage outside 0...100.
    case percentOutOfRange(axis: String, value: Double)
    /// A crop side, screen or view size that is zero or negative.
    case nonPositiveSize(what: String, value: String)
    /// A zoom factor that is zero, negative or not finite.
    case invalidZoom(Double)

    public var description: String {
        switch self {
        case .pointOutsideImage(let p, let image):
            return
                "point \(p) is outside the \(image) image (x must be 0..<\(image.width), y 0..<\(image.height); percentages like 50%,50% always fit)"
        case .pointOutsideView(let p, let view):
            return "point \(p) is outside the \(view) view"
        case .percentOutOfRange(let axis, let value):
            return "\(axis) percentage \(value)% is outside 0%...100%"
        case .nonPositiveSize(let what, let value):
            return "\(what) must be positive, got \(value)"
        case .invalidZoom(let z):
            return "zoom must be a positive number, got \(z)"
        }
    }
}
