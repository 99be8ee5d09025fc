/// How big pins are drawn as the view zooms, in the map seed's units.
///
/// The seed clamps its map's zoom scale to MIN...MAX (0.25...1) and scales each pin's view
/// by 1 / zoomScale, so on screen a pin keeps its size while the zoom is in range. When an
/// animation zooms past the range (an overshoot, or a transition from a thumbnail), the
/// pin's scale stays at the clamped value and the pin grows or shrinks with the content:
///
///     drawn size = zoom / clamp(zoom, MIN, MAX)        zoom = initialZoom x (scale / first scale)
///
/// where `zoom` is the absolute zoom scale: `initialZoom` when the view is at its thumbnail
/// rect (the first frame; the last of a dismiss, so both directions size pins alike). Example: a
/// map loaded at 0.25 and zoomed 4x in is `--initial-zoom 0.25 --pin-scale-range 0.25,1`:
/// pins keep their size all the way to 4x (zoom 1), and are twice as big at 8x (zoom 2).
public struct PinScaleRange: Hashable, Sendable {
    public var minimum: Double
    public var maximum: Double
    /// The absolute zoom scale at the first frame.
    public var initialZoom: Double

    /// No range: pins keep their size at every zoom.
    public static let unlimited = PinScaleRange(minimum: 0, maximum: .infinity, initialZoom: 1)

    public init(minimum: Double, maximum: Double, initialZoom: Double = 1) {
        self.minimum = minimum
        self.maximum = maximum
        self.initialZoom = initialZoom
    }

    /// The absolute zoom scale of a frame drawn at `scale` when the first was at `firstScale`.
    public func zoom(scale: Double, firstScale: Double) -> Double { initialZoom * scale / firstScale }

    /// Each frame's pin size. The reference is the frame at the thumbnail rect (presented
    /// 0: the first, or the last of a dismiss), or the first frame when none is (bounce).
    public func pinSizes(_ frames: [ZoomAnimation.Frame]) -> [Double] {
        let reference = (frames.first { $0.presented == 0 } ?? frames.first)?.scale ?? 1
        return frames.map { pinSize(atZoom: zoom(scale: $0.scale, firstScale: reference)) }
    }

    /// The pin's drawn size (1 = the standard pin) at absolute zoom `zoom`.
    public func pinSize(atZoom zoom: Double) -> Double {
        zoom / min(max(zoom, minimum), maximum)
    }
}
