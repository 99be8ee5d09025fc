import FZSystem

/// What `compare --metric` measures and tests: one of `ImageComparison`'s measures, or a
/// count of differing pixels (`ae` as ImageMagick's `compare -metric AE` counts them,
/// `pixelmatch` as mapbox/pixelmatch does).
public enum CompareMetric: String, CaseIterable, Sendable {
    case pae, psnr, mae, ssim, ae, pixelmatch

    /// The `ImageComparison` measure, nil for the pixel counts.
    public var measure: ImageComparison.Metric? { ImageComparison.Metric(rawValue: rawValue) }

    /// Whether the value is a count of pixels (a threshold may then be a ratio of them).
    public var counts: Bool { self == .ae || self == .pixelmatch }

    /// The threshold used when none is given: a count fails on any differing pixel (as
    /// pixelmatch's and odiff's command lines, ImageMagick's exit status and Playwright's
    /// `maxDiffPixels` default do); a measure without a threshold has no verdict.
    public var defaultThreshold: CompareThreshold? { counts ? .value(0) : nil }

    /// Why `threshold` cannot be this metric's, or nil.
    public func problem(_ threshold: CompareThreshold) -> String? {
        switch (threshold, self) {
        case (.ratio(let r), _) where counts:
            return r >= 0 && r <= 1 ? nil : "--threshold takes a ratio of 0% to 100%"
        case (.ratio, _):
            return "--threshold as a percentage (a ratio of pixels) is for --metric ae or pixelmatch"
        case (.value(let v), .ae), (.value(let v), .pixelmatch):
            return v >= 0 && v <= 1e15 && v == v.rounded()
                ? nil : "--threshold for --metric \(rawValue) is a whole number of pixels (or a ratio such as 0.5%)"
        case (.value(let v), _):
            let range: ClosedRange<Double> =
                switch self {
                case .pae, .mae: 0...255
                case .psnr: 0...1000
                default: -1...1
                }
            return range.contains(v)
                ? nil
                : "--threshold for --metric \(rawValue) must be \(JSON.format(range.lowerBound)) to \(JSON.format(range.upperBound))"
        }
    }

    /// Why `fuzz` cannot be this metric's, or nil.
    public func problem(_ fuzz: PixelFuzz) -> String? {
        switch self {
        case .ae:
            let top = fuzz.percent ? 100.0 : 255.0
            return fuzz.value >= 0 && fuzz.value <= top
                ? nil : "--fuzz for --metric ae is 0 to 255 levels or 0% to 100%"
        case .pixelmatch:
            let top = fuzz.percent ? 100.0 : 1.0
            return fuzz.value >= 0 && fuzz.value <= top
                ? nil : "--fuzz for --metric pixelmatch is pixelmatch's threshold, 0 to 1 (or 0% to 100%)"
        default: return "--fuzz is for --metric ae or pixelmatch (the measures count every difference)"
        }
    }
}

/// `--threshold`: a value in the metric's unit (dB, levels, SSIM, pixels), or for the
/// pixel counts a ratio of the compared pixels (`0.5%`), as Playwright's `maxDiffPixels` /
/// `maxDiffPixelRatio` and jest-image-snapshot's `failureThresholdType` pixel / percent.
public enum CompareThreshold: Equatable, Sendable {
    case value(Double)
    /// 0...1 (written as a percentage).
    case ratio(Double)

    /// "120" or "0.5%"; nil for anything else.
    public init?(text: String) {
        if text.hasSuffix("%") {
            guard let p = Double(text.dropLast()), p.isFinite else { return nil }
            self = .ratio(p / 100)
        } else {
            guard let v = Double(text), v.isFinite else { return nil }
            self = .value(v)
        }
    }

    /// The number as the JSON record has it (a ratio as 0-1).
    public var number: Double {
        switch self {
        case .value(let v), .ratio(let v): return v
        }
    }
}

/// `--fuzz`: how far apart two pixels may be and still count as the same, as a number or
/// a percentage of the largest distance. For `ae`, a channel distance: N levels of 255
/// (N x 257 on ImageMagick's 16-bit scale) or P% (ImageMagick's `-fuzz P%`: P% of 65536);
/// for `pixelmatch`, its YIQ `threshold` (0-1, or P% = P / 100).
public struct PixelFuzz: Equatable, Sendable {
    public var value: Double
    public var percent: Bool

    public init(value: Double, percent: Bool) {
        self.value = value
        self.percent = percent
    }

    /// "12" or "5%"; nil for anything else.
    public init?(text: String) {
        let percent = text.hasSuffix("%")
        guard let v = Double(percent ? String(text.dropLast()) : text), v.isFinite else { return nil }
        self.init(value: v, percent: percent)
    }

    /// ImageMagick's fuzz on its 16-bit scale (Q16): `-fuzz P%` is P x (65535 + 1) / 100
    /// (`StringToDoubleInterval(..., QuantumRange + 1.0)`), N levels of 255 are N x 257.
    public var quantum16: Double { percent ? value * ((65535.0 + 1.0) / 100.0) : value * 257 }

    /// pixelmatch's threshold (0-1).
    public var yiqThreshold: Double { percent ? value / 100 : value }

    /// As written: "5%" or "12".
    public var text: String { JSON.format(value) + (percent ? "%" : "") }
}
