/// Converts pixels described by an ICC profile to sRGB with lcms2 (`--icc srgb`): the
/// relative colorimetric intent with black-point compensation by default, as vips does.
/// Pixels without a profile are taken as sRGB already and are left alone.
public struct SRGBConverter: Sendable {
    private let transform: ColorTransform
    /// Whether it converts `Image16` (16-bit samples) rather than `Image`.
    public let sixteenBit: Bool

    /// - Returns: nil when there is nothing to convert (no profile, or one whose colour space
    ///   does not fit the pixels: a CMYK profile for RGB pixels forcezoom made from CMYK).
    /// - Throws: `ColorError` when lcms2 cannot read the profile.
    public init?(
        color: ColorDescription, format: PixelFormat, intent: RenderingIntent = .relative,
        blackPointCompensation: Bool = true, sixteenBit: Bool = false, path: String
    ) throws(ColorError) {
        self.sixteenBit = sixteenBit
        if color.madeFromCMYK != nil { return nil }  // forcezoom made sRGB from the CMYK pixels
        if color.hasICC && color.icc == nil && color.profile == nil {
            throw .unusableProfile(
                path: path, reason: "it could not be read: damaged, cut short or in pieces that do not fit together")
        }
        let chunks: [UInt8]? = color.icc == nil ? try Self.chunkProfile(color, gray: format.isGray, path: path) : nil
        guard let icc = color.icc ?? chunks else { return nil }
        guard let profile = ICCProfile(icc) else {
            throw .unusableProfile(path: path, reason: "not a valid ICC profile header")
        }
        switch (profile.colorSpace, format.isGray) {
        case ("RGB", false), ("GRAY", true): break
        default:
            throw .unusableProfile(
                path: path, reason: "a \(profile.colorSpace) profile on \(format.isGray ? "gray" : "colour") pixels")
        }
        switch ColorTransform.toSRGB(
            icc: icc, channels: format.channels, intent: intent, blackPointCompensation: blackPointCompensation,
            sixteenBit: sixteenBit)
        {
        case .success(let t): transform = t
        case .failure(let p): throw .unusableProfile(path: path, reason: p.reason)
        }
    }

    /// Converts `image` in place (8-bit pixels; alpha copied).
    public func convert(_ image: inout Image) {
        precondition(!sixteenBit, "a 16-bit converter given 8-bit pixels")
        let pixels = image.width * image.height
        image.pixels.withMutableBytes { transform.apply($0, pixels: pixels) }
    }

    /// Converts `image` in place at 16 bits (alpha copied): a lossless crop's samples keep
    /// their precision through the conversion.
    public func convert(_ image: inout Image16) {
        precondition(sixteenBit, "an 8-bit converter given 16-bit pixels")
        let pixels = image.width * image.height
        image.bytes.withUnsafeMutableBytes { transform.apply($0, pixels: pixels) }
    }

    /// The profile PNG's gAMA and cHRM describe when the file has them and neither iCCP nor
    /// sRGB nor cICP (which take precedence, PNG third edition 4.3): what Chrome and Firefox
    /// show such a file through. A value the specification calls invalid (a gamma of 0,
    /// chromaticities outside 0-1 or a y of 0) is ignored, as browsers do.
    package static func chunkProfile(_ color: ColorDescription, gray: Bool, path: String) throws(ColorError) -> [UInt8]?
    {
        guard !color.hasICC, !color.sRGB, color.cicp == nil else { return nil }
        let gamma = color.gamma.flatMap { $0 > 0.01 && $0 < 100 ? $0 : nil }
        let chrm = color.chromaticities.flatMap { c in
            c.count == 8 && c.allSatisfy { $0 >= 0 && $0 <= 1 }
                && stride(from: 1, to: 8, by: 2).allSatisfy { c[$0] > 0 } ? c : nil
        }
        guard gamma != nil || chrm != nil else { return nil }
        switch ColorTransform.profile(gamma: gamma, chromaticities: gray ? nil : chrm, gray: gray) {
        case .success(let icc): return icc
        case .failure(let p):
            throw .unusableProfile(path: path, reason: "the gAMA/cHRM chunks do not make a profile: \(p.reason)")
        }
    }

    /// What an output converted to sRGB carries: the small sRGB chunk (PNG) with the intent.
    public static func tag(intent: RenderingIntent) -> ColorDescription {
        var c = ColorDescription()
        c.sRGB = true
        c.sRGBIntent = Int(intent.lcms)
        return c
    }
}
