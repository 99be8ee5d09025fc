import FZImage
import Geometry

/// Why attention or entropy chose its point (`--explain`, the `where` record's `runnerUp`):
/// the score of every place the box could go, the best place away from the chosen one, and
/// the scores as a heat map a user can look at.
extension InterestMap {
    /// Each map pixel's score as `best(box:)` scores a place: with a box, the score of the
    /// box centred on that pixel (its root mean square saliency, or its entropy), nil where
    /// no box inside the map has its centre there (near the edges); without a box, the
    /// saliency itself (attention) or the quarter-size box's entropy (entropy).
    public func placementScores(box: (width: Double, height: Double)?) -> [Double?] {
        if kind == .attention && box == nil { return values.map { Double($0) } }
        let b = box ?? (Double(width) / 4, Double(height) / 4)
        let bw = min(width, max(1, Int(b.width.rounded())))
        let bh = min(height, max(1, Int(b.height.rounded())))
        let score: (Int, Int) -> Double = kind == .attention ? boxSum(bw, bh) : boxEntropy(bw, bh)
        var out = [Double?](repeating: nil, count: width * height)
        for y in 0...(height - bh) {
            for x in 0...(width - bw) {
                let s = score(x, y)
                // Centred as `best` centres it: the box's middle, on the pixel that holds it.
                out[(y + bh / 2) * width + x + bw / 2] =
                    kind == .attention ? (s / Double(bw * bh)).squareRoot() : s
            }
        }
        return out
    }

    /// The best place away from the chosen one: the highest score among the places whose
    /// centre is at least a quarter of the box's width across or of its height down from
    /// `chosen` (map pixels; without a box, a sixteenth of the map's longer side). Nil when
    /// the box leaves no such place (it covers the map).
    public func runnerUp(box: (width: Double, height: Double)?, chosen: (x: Double, y: Double))
        -> (x: Double, y: Double, score: Double)?
    {
        let scores = placementScores(box: box)
        let side = Double(max(width, height)) / 4
        let b = box ?? (side, side)
        let (hw, hh) = (max(0.5, min(Double(width), b.width) / 4), max(0.5, min(Double(height), b.height) / 4))
        var best: (x: Double, y: Double, score: Double)?
        for y in 0..<height {
            for x in 0..<width {
                guard let s = scores[y * width + x] else { continue }
                let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
                if abs(cx - chosen.x) < hw && abs(cy - chosen.y) < hh { continue }
                if s > (best?.score ?? -Double.infinity) { best = (cx, cy, s) }
            }
        }
        return best
    }

    /// The scores as a heat map, `scale` pixels a map pixel (nearest: each map pixel one
    /// block): black where no box is centred and at the lowest score, through red and yellow
    /// to white at the highest. Red + green + blue is the score scaled to 0...765, so the
    /// picture can be read back exactly (the brightest block is the chosen place).
    public static func heatMap(_ scores: [Double?], width: Int, height: Int, scale: Int) -> Image {
        let present = scores.compactMap { $0 }
        let lo = present.min() ?? 0
        let hi = present.max() ?? 0
        var image = Image(width: width * scale, height: height * scale, format: .rgb, fill: .black)
        for y in 0..<height {
            for x in 0..<width {
                guard let s = scores[y * width + x] else { continue }
                let v = hi > lo ? Int(((s - lo) / (hi - lo) * 765).rounded()) : 765
                let color = Color(
                    r: UInt8(min(255, v)), g: UInt8(min(255, max(0, v - 255))), b: UInt8(min(255, max(0, v - 510))))
                image.fill(PixelRect(x: x * scale, y: y * scale, width: scale, height: scale), color)
            }
        }
        return image
    }

    /// The heat map's scale: whole map pixels, about 256 pixels on the longer side.
    public var heatScale: Int { max(1, 256 / max(width, height)) }
}
