import FZImage

#if canImport(Glibc)
import Glibc
#endif

/// The mean structural similarity (SSIM, Wang et al. 2004) of two images' luma, computed
/// as scikit-image's `structural_similarity(im1, im2, gaussian_weights=True, sigma=1.5,
/// use_sample_covariance=False, data_range=255)` does, so its numbers can be checked
/// against it (and against the numpy formula in the tests' helper):
/// - luma Y = 0.299 R + 0.587 G + 0.114 B as a float (Rec. 601, unrounded), alpha ignored;
/// - the local means, variances and covariance are Gaussian-weighted (sigma 1.5, truncated
///   at 3.5 sigma: an 11-tap window, scipy's `gaussian_filter`), variances with the
///   population normalisation (`use_sample_covariance=False`);
/// - SSIM = (2 ux uy + C1)(2 vxy + C2) / ((ux² + uy² + C1)(vx + vy + C2)) with
///   C1 = (0.01 x 255)², C2 = (0.03 x 255)²;
/// - the mean is taken over the pixels at least 5 from every edge, as scikit-image crops
///   the filter's border (`crop(S, pad)`) — which also means no pixel outside the image is
///   ever read, so scipy's edge mode does not matter.
///
/// Rows are filtered as they come into a ring of 11, so the memory is 55 rows of doubles
/// whatever the height.
public enum StructuralSimilarity {
    /// The window's side: 2 x int(3.5 x 1.5 + 0.5) + 1.
    public static let window = 11
    package static let radius = 5
    package static let weights: [Double] = {
        let w = (-radius...radius).map { exp(-0.5 * Double($0 * $0) / (1.5 * 1.5)) }
        let sum = w.reduce(0, +)
        return w.map { $0 / sum }
    }()

    /// The mean SSIM of `a` and `b` (same size, RGB or RGBA), nil when a side is under 11.
    package static func mean(_ a: Image, _ b: Image) -> Double? {
        let width = a.width
        let height = a.height
        guard width >= window, height >= window else { return nil }
        let inner = width - 2 * radius
        // Five filtered quantities (x, y, x², y², xy) per ring row.
        var ring = [Double](repeating: 0, count: window * 5 * inner)
        var lumaX = [Double](repeating: 0, count: width)
        var lumaY = lumaX
        let c1 = (0.01 * 255) * (0.01 * 255)
        let c2 = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        var row = [Double](repeating: 0, count: 5)
        for r in 0..<height {
            luma(a, row: r, into: &lumaX)
            luma(b, row: r, into: &lumaY)
            let slot = (r % window) * 5 * inner
            for c in 0..<inner {
                var sx = 0.0
                var sy = 0.0
                var sxx = 0.0
                var syy = 0.0
                var sxy = 0.0
                for k in 0..<window {
                    let w = weights[k]
                    let x = lumaX[c + k]
                    let y = lumaY[c + k]
                    sx += w * x
                    sy += w * y
                    sxx += w * x * x
                    syy += w * y * y
                    sxy += w * x * y
                }
                ring[slot + c] = sx
                ring[slot + inner + c] = sy
                ring[slot + 2 * inner + c] = sxx
                ring[slot + 3 * inner + c] = syy
                ring[slot + 4 * inner + c] = sxy
            }
            guard r >= window - 1 else { continue }
            // Output row r - 5 has all its window's rows in the ring now.
            var rowTotal = 0.0
            for c in 0..<inner {
                for q in 0..<5 { row[q] = 0 }
                for k in 0..<window {
                    let base = ((r - (window - 1) + k) % window) * 5 * inner + c
                    let w = weights[k]
                    for q in 0..<5 { row[q] += w * ring[base + q * inner] }
                }
                let (ux, uy) = (row[0], row[1])
                let vx = row[2] - ux * ux
                let vy = row[3] - uy * uy
                let vxy = row[4] - ux * uy
                rowTotal += ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
            }
            total += rowTotal
        }
        return total / Double(inner * (height - 2 * radius))
    }

    /// One row's luma as doubles.
    private static func luma(_ image: Image, row: Int, into out: inout [Double]) {
        let c = image.format.channels
        let start = row * image.width * c
        image.pixels.withUnsafeBufferPointer { p in
            for x in 0..<image.width {
                let i = start + x * c
                out[x] = 0.299 * Double(p[i]) + 0.587 * Double(p[i + 1]) + 0.114 * Double(p[i + 2])
            }
        }
    }
}
