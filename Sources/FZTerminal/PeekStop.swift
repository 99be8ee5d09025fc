import FZImage
import FZRender
import FZSystem
import Geometry

/// A place `peek` jumps to with r / Tab (R / Shift-Tab back): a face or a named region of the
/// file's metadata, in upright pixels, with the label its status line shows.
public struct PeekStop: Hashable, Sendable {
    /// Shown in the status line and the outline's tab: printable only (`printable`).
    public let label: String
    public let rect: Rect

    /// - Parameter label: the region's name (or "face" for an unnamed face); any control
    ///   character or terminal escape in it is taken out here, whoever read it.
    public init(label: String, rect: Rect) {
        self.label = Echo.printable(label, limit: Self.maxLabel)
        self.rect = rect
    }

    /// The longest label kept, in characters: the status line has one row.
    public static let maxLabel = 80
}

extension PeekScreen {
    /// The stop the peek is on now: the last one jumped to, while the point is still its centre.
    public var currentStop: Int? {
        guard let i = stopIndex, i < stops.count, point == Self.centre(stops[i].rect, in: image.size) else {
            return nil
        }
        return i
    }

    /// Moves to the next stop (`by` 1) or the one before (-1), from the current one or the
    /// first; false when the file has none.
    mutating func jump(by step: Int) -> Bool {
        guard !stops.isEmpty else { return false }
        let n = stops.count
        let next = stopIndex.map { (($0 + step) % n + n) % n } ?? (step > 0 ? 0 : n - 1)
        stopIndex = next
        point = Self.centre(stops[next].rect, in: image.size)
        return true
    }

    /// The rectangle's middle pixel, inside the image (as `crop --at region:` centres on it).
    static func centre(_ r: Rect, in size: PixelSize) -> PixelPoint {
        PixelPoint(
            x: min(size.width - 1, max(0, Int((r.x + r.width / 2).rounded(.down)))),
            y: min(size.height - 1, max(0, Int((r.y + r.height / 2).rounded(.down)))))
    }

    /// What the status line says of the current stop: "2/3 Marie Curie", or nil.
    public var stopStatus: String? {
        currentStop.map { "region \($0 + 1)/\(stops.count) \(stops[$0].label)" }
    }

    /// The current stop outlined on the fitted view.
    func outlined(_ view: inout Image) {
        guard let i = currentStop else { return }
        RegionOutline.draw(
            [RegionOutline(rect: stops[i].rect, label: "")], on: &view,
            transform: .scale(fit.scale, fit.scale).then(.translation(fit.offsetX, fit.offsetY)))
    }
}
