/// What a file says about the colours of its samples. Reported, and carried into outputs
/// where asked (`--icc keep`); pixels are always the stored samples.
public struct ColorDescription: Hashable, Sendable {
    /// An embedded ICC profile is present (even if it could not be read whole).
    public var hasICC = false
    /// The embedded ICC profile's bytes (PNG iCCP inflated, JPEG APP2 reassembled, WebP
    /// ICCP, HEIF `colr` prof), when it was read.
    public var icc: [UInt8]?
    /// PNG sRGB chunk.
    public var sRGB = false
    /// The sRGB chunk's rendering intent (0-3).
    public var sRGBIntent: Int?
    /// PNG gAMA value.
    public var gamma: Double?
    /// PNG cHRM chunk.
    public var hasChromaticities = false
    /// cHRM's white, red, green and blue x,y.
    public var chromaticities: [Double]?
    /// PNG cICP: colour primaries, transfer characteristics, matrix coefficients and
    /// video-full-range flag (ITU-T H.273). Reported; it takes precedence over the chunks above.
    public var cicp: [Int]?

    /// For pixels forcezoom made from CMYK or YCCK (the pixels are then sRGB): what they
    /// went through ("embedded profile", "profile PATH", or the formula when no CMYK profile
    /// could be used). Nil for every other image.
    public var madeFromCMYK: String?

    public init() {}

    /// The profile's header and description, when there is a readable one.
    public var profile: ICCProfile? { icc.flatMap(ICCProfile.init) }

    /// Whether there is anything to carry into an output.
    public var isEmpty: Bool { icc == nil && sRGBIntent == nil && gamma == nil && chromaticities == nil }
}

extension ColorDescription {
    /// What an output of `format` carries with `--icc keep`: the profile when its colour
    /// space fits the pixels (an RGB profile on colour pixels, a GRAY one on gray); for a
    /// CMYK profile, whose pixels forcezoom turned into RGB, an sRGB tag instead (a CMYK
    /// profile cannot describe RGB pixels); PNG's sRGB/gAMA/cHRM chunks as they were. Nil
    /// when nothing fits.
    public func carried(into format: PixelFormat) -> ColorDescription? {
        var out = ColorDescription()
        if madeFromCMYK != nil {
            out.sRGB = true
            out.sRGBIntent = 0
            return out
        }
        if let icc, let profile {
            switch (profile.colorSpace, format.isGray) {
            case ("RGB", false), ("GRAY", true):
                out.icc = icc
                out.hasICC = true
                return out
            default:
                break
            }
        }
        out.sRGB = sRGB
        out.sRGBIntent = sRGBIntent
        out.gamma = gamma
        out.hasChromaticities = hasChromaticities
        out.chromaticities = chromaticities
        return out.isEmpty ? nil : out
    }
}
