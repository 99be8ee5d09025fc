import Geometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InterestMap {
    /// The best place, in map pixels: the centre of the box (`box` map pixels a side, clamped
    /// to the map) holding the most saliency or entropy, or with no box the map's maximum
    /// (attention) or the centre of the quarter-size box of most entropy.
    /// - Returns: the centre (continuous map coordinates) and its score: the root mean square
    ///   saliency in the box (the value at the point), or the box's entropy in bits.
    public func best(box: (width: Double, height: Double)?) -> (x: Double, y: Double, score: Double) {
        if kind == .attention && box == nil {
            var best = 0
            for i in values.indices where values[i] > values[best] { best = i }
            return (Double(best % width) + 0.5, Double(best / width) + 0.5, Double(values[best]))
        }
        let b = box ?? (Double(width) / 4, Double(height) / 4)
        let bw = min(width, max(1, Int(b.width.rounded())))
        let bh = min(height, max(1, Int(b.height.rounded())))
        var best = (x: 0, y: 0, score: -Double.infinity)
        let score: (Int, Int) -> Double = kind == .attention ? boxSum(bw, bh) : boxEntropy(bw, bh)
        for y in 0...(height - bh) {
            for x in 0...(width - bw) {
                let s = score(x, y)
                // Ties go to the box nearest the centre, so a flat map gives the centre.
                if s > best.score + 1e-9
                    || (abs(s - best.score) <= 1e-9
                        && centreDistance(x, y, bw, bh) < centreDistance(best.x, best.y, bw, bh))
                {
                    best = (x, y, s)
                }
            }
        }
        let mean = kind == .attention ? (best.score / Double(bw * bh)).squareRoot() : best.score
        // The box's centre, placed as the caller's box is (not the rounded one).
        return (Double(best.x) + Double(bw) / 2, Double(best.y) + Double(bh) / 2, mean)
    }

    private func centreDistance(_ x: Int, _ y: Int, _ bw: Int, _ bh: Int) -> Double {
        let dx = Double(x) + Double(bw) / 2 - Double(width) / 2
        let dy = Double(y) + Double(bh) / 2 - Double(height) / 2
        return dx * dx + dy * dy
    }

    /// The sum of the squared values in the box at (x, y), from a summed-area table.
    func boxSum(_ bw: Int, _ bh: Int) -> (Int, Int) -> Double {
        // Squared: a box around one strong peak beats one over a wide low plateau (a gradient's ends).
        let sat = Self.summedArea(values.map { Double($0) * Double($0) }, width: width, height: height)
        let w1 = width + 1
        return { x, y in
            sat[(y + bh) * w1 + x + bw] - sat[y * w1 + x + bw] - sat[(y + bh) * w1 + x] + sat[y * w1 + x]
        }
    }

    /// The entropy (bits) of the 16 luminance levels in the box at (x, y), from one
    /// summed-area table per level.
    func boxEntropy(_ bw: Int, _ bh: Int) -> (Int, Int) -> Double {
        let tables = (0..<16).map { level in
            Self.summedArea(values.map { Int($0) == level ? 1 : 0 }, width: width, height: height)
        }
        let w1 = width + 1
        let n = Double(bw * bh)
        return { x, y in
            var e = 0.0
            for t in tables {
                let c = t[(y + bh) * w1 + x + bw] - t[y * w1 + x + bw] - t[(y + bh) * w1 + x] + t[y * w1 + x]
                if c > 0 {
                    let p = c / n
                    e -= p * log2(p)
                }
            }
            return e
        }
    }

    static func summedArea(_ f: [Double], width w: Int, height h: Int) -> [Double] {
        var sat = [Double](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var row = 0.0
            for x in 0..<w {
                row += f[y * w + x]
                sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + row
            }
        }
        return sat
    }
}
