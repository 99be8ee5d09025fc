import FZImage
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// How far apart two images of the same size are, in the measures test authors check
/// decoders and encoders with (ImageMagick's `compare -metric`, scikit-image's
/// `structural_similarity`).
///
/// The definitions, all on 8-bit samples (0-255):
/// - The channels compared are R, G and B (gray is expanded to R = G = B, so a gray pair
///   measures the same as its gray channel), plus alpha as a fourth channel when either
///   image has one. Alpha is compared, not composited: a transparent pixel whose hidden
///   colour changed counts as a difference, as it does to a decoder test (ImageMagick
///   compares alpha as a channel too).
/// - `pae`: the largest absolute difference of any sample (levels).
/// - `mae`: the mean absolute difference over every sample (levels).
/// - `mse`: the mean squared difference over every sample; `psnr` = 10 log10(255² / mse) in
///   dB, +infinity for identical images (ImageMagick prints "inf").
/// - `ssim`: the mean structural similarity of the Rec. 601 luma (unrounded
///   0.299 R + 0.587 G + 0.114 B), alpha ignored, computed as scikit-image's
///   `structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
///   data_range=255)` does (`StructuralSimilarity`); nil for images under 11 pixels a side.
public struct ImageComparison: Sendable {
    /// The measures `compare --metric` chooses from.
    public enum Metric: String, CaseIterable, Sendable {
        case pae, psnr, mae, ssim

        /// Whether larger values mean closer images (PSNR, SSIM) or further (PAE, MAE):
        /// a threshold is then a floor, else a ceiling.
        public var higherIsCloser: Bool { self == .psnr || self == .ssim }
    }

    /// The size compared.
    public let width: Int
    public let height: Int
    /// 3 (RGB) or 4 (RGBA: either image had alpha).
    public let channels: Int
    public let pae: Int
    public let mae: Double
    public let mse: Double
    /// +infinity when the images are identical.
    public let psnr: Double
    /// nil when an image side is under `StructuralSimilarity.window`.
    public let ssim: Double?

    /// Measures `a` against `b`, which must have the same size.
    /// - Parameter structural: whether to measure SSIM too (the slowest: 110 multiplies a
    ///   pixel); nil when not.
    public init(_ a: Image, _ b: Image, structural: Bool = true) {
        precondition(a.size == b.size, "compared images differ in size")
        let format: PixelFormat = a.format.hasAlpha || b.format.hasAlpha ? .rgba : .rgb
        let x = a.converted(to: format)
        let y = b.converted(to: format)
        width = a.width
        height = a.height
        channels = format.channels
        var largest = 0
        var absolute: UInt64 = 0
        var squared: UInt64 = 0
        x.pixels.withUnsafeBufferPointer { p in
            y.pixels.withUnsafeBufferPointer { q in
                for i in 0..<p.count {
                    let d = abs(Int(p[i]) - Int(q[i]))
                    largest = max(largest, d)
                    absolute += UInt64(d)
                    squared += UInt64(d * d)
                }
            }
        }
        // Integer sums: exact whatever the size, so identical images give exactly 0.
        let count = Double(max(1, x.pixels.count))
        pae = largest
        mae = Double(absolute) / count
        mse = Double(squared) / count
        psnr = squared == 0 ? .infinity : 10 * (log10(255.0 * 255.0) - log10(mse))
        ssim = structural ? StructuralSimilarity.mean(x, y) : nil
    }

    /// The value of one measure (nil: SSIM of an image too small for its window).
    public func value(_ metric: Metric) -> Double? {
        switch metric {
        case .pae: return Double(pae)
        case .psnr: return psnr
        case .mae: return mae
        case .ssim: return ssim
        }
    }

    /// Whether `metric` is within `threshold`: PSNR and SSIM at least it, PAE and MAE at
    /// most it. An SSIM that could not be measured is not within.
    public func within(_ threshold: Double, metric: Metric) -> Bool {
        guard let v = value(metric) else { return false }
        return metric.higherIsCloser ? v >= threshold : v <= threshold
    }

    /// A measure as text: "inf" for identical images' PSNR (as ImageMagick prints it), at
    /// most 6 decimals otherwise (as the JSON has it), "n/a" for an unmeasured SSIM.
    public func text(_ metric: Metric) -> String {
        guard let v = value(metric) else { return "n/a" }
        return v.isInfinite ? "inf" : JSON.format(v)
    }

    /// Every measure under its name, PSNR "inf" when infinite: JSON has no infinity, the
    /// string is what ImageMagick prints, Python's `float()` reads it, and jq orders any
    /// string above every number, so `.psnr >= 40` holds for identical images.
    public var jsonMembers: [(String, JSON)] {
        [
            ("psnr", psnr.isInfinite ? .string("inf") : .number(psnr)),
            ("pae", .int(pae)),
            ("mae", .number(mae)),
            ("ssim", ssim.map { .number($0) } ?? .null),
            ("mse", .number(mse)),
        ]
    }
}
