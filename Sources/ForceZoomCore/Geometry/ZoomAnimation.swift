/// The zoom transition as geometry: a view that moves and grows from a rect on the
/// portrait screen to another (or to fullscreen, turned into an orientation), showing the
/// image aspect-filled (or fit) and clipped to its bounds. Pure, no pixels.
public struct ZoomAnimation: Sendable {
    /// Where the view is in one frame: its bounds size, centre and turn (degrees,
    /// clockwise on screen), all in portrait screen pixels.
    public struct ViewState: Hashable, Sendable {
        public var centerX: Double
        public var centerY: Double
        public var width: Double
        public var height: Double
        public var rotation: Double

        /// The unrotated rect (as a frame would be given).
        public var rect: Rect { Rect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height) }
    }

    /// One frame: its time, eased progress, view and the image-to-canvas transform.
    public struct Frame: Sendable {
        public let index: Int
        public let time: Double
        public let progress: Double
        public let view: ViewState
        public let transform: AffineTransform
        /// Canvas pixels per image pixel.
        public let scale: Double
    }

    public let image: PixelSize
    public let screen: PixelSize
    public let from: Rect
    /// nil: fullscreen for `orientation`.
    public let to: Rect?
    public let orientation: DeviceOrientation
    public let mode: FitGeometry.Mode
    public let easing: Easing
    public let frameCount: Int
    public let duration: Double
    public let rotateWithZoom: Bool
    public let reverse: Bool

    public init(image: PixelSize, screen: PixelSize, from: Rect, to: Rect?, orientation: DeviceOrientation = .portrait,
                mode: FitGeometry.Mode = .fill, easing: Easing = .easeInOut, frameCount: Int, duration: Double,
                rotateWithZoom: Bool = false, reverse: Bool = false) {
        self.image = image
        self.screen = screen
        self.from = from
        self.to = to
        self.orientation = to == nil ? orientation : .portrait
        self.mode = mode
        self.easing = easing
        self.frameCount = max(1, frameCount)
        self.duration = duration
        self.rotateWithZoom = rotateWithZoom
        self.reverse = reverse
    }

    static func state(_ r: Rect, rotation: Double = 0) -> ViewState {
        ViewState(centerX: r.x + r.width / 2, centerY: r.y + r.height / 2, width: r.width, height: r.height, rotation: rotation)
    }

    static func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double { a + (b - a) * p }

    static func lerp(_ a: ViewState, _ b: ViewState, _ p: Double) -> ViewState {
        ViewState(centerX: lerp(a.centerX, b.centerX, p), centerY: lerp(a.centerY, b.centerY, p),
                  width: lerp(a.width, b.width, p), height: lerp(a.height, b.height, p), rotation: lerp(a.rotation, b.rotation, p))
    }

    /// The screen rect before any turn.
    var screenRect: Rect { Rect(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height)) }

    /// The final view: the given rect, or fullscreen in the orientation (bounds swapped in
    /// landscape, turned by the orientation's content rotation, as `fit` does).
    public var endState: ViewState {
        if let to { return Self.state(to) }
        let bounds = orientation.isLandscape ? screen.transposed : screen
        return ViewState(centerX: Double(screen.width) / 2, centerY: Double(screen.height) / 2,
                         width: Double(bounds.width), height: Double(bounds.height), rotation: orientation.contentRotation)
    }

    /// The view for frame `k`. Without --rotate-with-zoom and with a turn to make, the
    /// first half of the frames zoom to the unturned fullscreen and the second half turn,
    /// each half with its own easing, as a view controller zooms and then follows the device.
    public func frame(_ k: Int) -> Frame {
        let n = frameCount
        let index = reverse ? n - 1 - k : k
        let t = n > 1 ? Double(index) / Double(n - 1) : 1
        let start = Self.state(from)
        let end = endState
        let view: ViewState
        let progress: Double
        if end.rotation != 0 && !rotateWithZoom {
            let half = Double(n - 1) / 2
            let upright = Self.state(screenRect)
            if Double(index) <= half {
                progress = easing.progress(half > 0 ? Double(index) / half : 1)
                view = Self.lerp(start, upright, progress)
            } else {
                progress = easing.progress((Double(index) - half) / (Double(n - 1) - half))
                view = Self.lerp(upright, end, progress)
            }
        } else {
            progress = easing.progress(t)
            view = Self.lerp(start, end, progress)
        }
        let sx = view.width / Double(image.width), sy = view.height / Double(image.height)
        let scale = mode == .fill ? max(sx, sy) : min(sx, sy)
        // Image -> view-local (centred at 0) -> turned -> placed at the view's centre.
        let transform = AffineTransform.translation(-Double(image.width) / 2, -Double(image.height) / 2)
            .then(.scale(scale, scale))
            .then(.rotation(degrees: view.rotation))
            .then(.translation(view.centerX, view.centerY))
        return Frame(index: k, time: duration * t, progress: progress, view: view, transform: transform, scale: scale)
    }

    /// The bounce recipe: each frame turns by 1% of pi more and scales by |cos| + 0.5.
    public static func bounce(image: PixelSize, screen: PixelSize, frameCount: Int, fps: Double) -> [Frame] {
        (0..<max(1, frameCount)).map { k in
            let angle = Double(k) * Double.pi / 100
            let fit = min(Double(screen.width) / Double(image.width), Double(screen.height) / Double(image.height))
            let scale = fit * (abs(cos(angle)) + 0.5) / 1.5
            let t = AffineTransform.translation(-Double(image.width) / 2, -Double(image.height) / 2)
                .then(.scale(scale, scale)).then(.rotation(degrees: angle * 180 / Double.pi))
                .then(.translation(Double(screen.width) / 2, Double(screen.height) / 2))
            let view = ViewState(centerX: Double(screen.width) / 2, centerY: Double(screen.height) / 2,
                                 width: Double(image.width) * scale, height: Double(image.height) * scale,
                                 rotation: angle * 180 / Double.pi)
            return Frame(index: k, time: Double(k) / fps, progress: Double(k) / Double(max(1, frameCount - 1)), view: view,
                         transform: t, scale: scale)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
