#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rotating-bounce recipe in real time: a timer adds pi/100 rad to the view's angle
/// every 0.03 s (60 degrees a second) and sets its transform to that turn scaled by
/// |cos(angle)| + 0.5. Pure, no pixels.
///
/// The angle is taken as continuous in time (pi/3 rad a second), so any frame rate shows
/// the same motion, and frame k is at k/fps. The view is the image aspect-fit into the
/// screen, then scaled by one constant factor chosen so that the largest extent the
/// turning, bouncing image ever reaches fits the screen: the canvas stays the device's
/// and no corner is ever cut.
public struct Bounce: Sendable {
    /// Radians added per timer tick, and the tick.
    public static let step = Double.pi / 100
    public static let tick = 0.03
    /// One full turn: 200 ticks, 6 s.
    public static let period = 2 * Double.pi / step * tick

    public let image: PixelSize
    public let screen: PixelSize
    public let duration: Double
    public let fps: Double
    /// The image's aspect-fit size in the screen, before the recipe's transform.
    public let fitted: (width: Double, height: Double)
    /// The constant factor that keeps the largest rotated extent on the screen.
    public let viewScale: Double

    public init(image: PixelSize, screen: PixelSize, duration: Double = Bounce.period, fps: Double = 60) {
        self.image = image
        self.screen = screen
        self.duration = duration
        self.fps = fps
        let fit = min(Double(screen.width) / Double(image.width), Double(screen.height) / Double(image.height))
        let w = Double(image.width) * fit
        let h = Double(image.height) * fit
        fitted = (w, h)
        // The extent repeats every pi (|cos| and |sin| do); sample it densely, the kinks at 0
        // and pi/2 included, and take the tightest fit.
        var k = Double.infinity
        let samples = 20_000
        for i in 0...samples {
            let a = Double.pi * Double(i) / Double(samples)
            let e = Self.extent(width: w, height: h, angle: a)
            k = min(k, Double(screen.width) / e.width, Double(screen.height) / e.height)
        }
        viewScale = k * (1 - 1e-9)
    }

    /// The angle at `time` seconds, radians (clockwise on screen).
    public static func angle(at time: Double) -> Double { step * time / tick }

    /// The recipe's scale at `time`: |cos(angle)| + 0.5.
    public static func recipeScale(at time: Double) -> Double { abs(cos(angle(at: time))) + 0.5 }

    /// The bounding box of a width x height rect scaled by the recipe and turned by `angle`.
    package static func extent(width w: Double, height h: Double, angle a: Double) -> (width: Double, height: Double) {
        let s = abs(cos(a)) + 0.5
        let c = abs(cos(a))
        let n = abs(sin(a))
        return (s * (w * c + h * n), s * (w * n + h * c))
    }

    /// round(duration x fps) intervals: frame k at k/fps, the last at exactly `duration`.
    public var frameCount: Int { max(1, Int((duration * fps).rounded())) + 1 }

    public func frame(_ k: Int) -> ZoomAnimation.Frame {
        let n = frameCount - 1
        let t = k >= n ? duration : Double(k) / fps
        let a = Self.angle(at: t)
        let scale =
            min(fitted.width / Double(image.width), fitted.height / Double(image.height)) * viewScale
            * Self.recipeScale(at: t)
        let cx = Double(screen.width) / 2
        let cy = Double(screen.height) / 2
        let transform = AffineTransform.translation(-Double(image.width) / 2, -Double(image.height) / 2)
            .then(.scale(scale, scale)).then(.rotation(degrees: a * 180 / Double.pi)).then(.translation(cx, cy))
        let view = ZoomAnimation.ViewState(
            centerX: cx, centerY: cy, width: Double(image.width) * scale,
            height: Double(image.height) * scale, rotation: a * 180 / Double.pi)
        return ZoomAnimation.Frame(
            index: k, time: t, phase: "bounce", progress: t / duration, presented: 1, view: view,
            transform: transform, scale: scale)
    }

    public var frames: [ZoomAnimation.Frame] { (0..<frameCount).map(frame) }
}
