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
            throw .unusableProfile(path: path, reason: "it could not be read: damaged, cut short or in pieces that do not fit together")
        }
        guard let icc = color.icc else { return nil }
        guard let profile = color.profile else { throw .unusableProfile(path: path, reason: "not a valid ICC profile header") }
        switch (profile.colorSpace, format.isGray) {
        case ("RGB", false), ("GRAY", true): break
        default:
            throw .unusableProfile(path: path, reason: "a \(profile.colorSpace) profile on \(format.isGray ? "gray" : "colour") pixels")
        }
        switch ColorTransform.toSRGB(
            icc: icc, channels: format.channels, intent: intent, blackPointCompensation: blackPointCompensation, sixteenBit: sixteenBit)
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

    /// What an output converted to sRGB carries: the small sRGB chunk (PNG) with the intent.
    public static func tag(intent: RenderingIntent) -> ColorDescription {
        var c = ColorDescription()
        c.sRGB = true
        c.sRGBIntent = Int(intent.lcms)
        return c
    }
}
