import FZShims

/// Converts pixels described by an ICC profile to sRGB with lcms2 (`--icc srgb`): the
/// relative colorimetric intent with black-point compensation by default, as vips does.
/// Pixels without a profile are taken as sRGB already and are left alone. Every lcms2
/// pointer lives in this file (through the FZShims transform).
public final class SRGBConverter {
    private let transform: OpaquePointer

    /// - Returns: nil when there is nothing to convert (no profile, or one whose colour space
    ///   does not fit the pixels: a CMYK profile for RGB pixels forcezoom made from CMYK).
    /// - Throws: `ColorError` when lcms2 cannot read the profile.
    public init?(
        color: ColorDescription, format: PixelFormat, intent: RenderingIntent = .relative,
        blackPointCompensation: Bool = true, path: String
    ) throws(ColorError) {
        guard let icc = color.icc, let profile = color.profile else { return nil }
        guard (profile.colorSpace == "RGB" && !format.isGray) || (profile.colorSpace == "GRAY" && format.isGray) else { return nil }
        var out: OpaquePointer?
        var message = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))
        let status = icc.withUnsafeBufferPointer { p in
            fz_color_to_srgb_create(p.baseAddress, p.count, Int32(format.channels), intent.lcms, blackPointCompensation ? 1 : 0, &out, &message)
        }
        guard status == FZ_OK, let out else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .unusableProfile(path: path, reason: text)
        }
        transform = out
    }

    deinit { fz_color_free(transform) }

    /// Converts `image` in place (8-bit pixels; alpha copied).
    public func convert(_ image: inout Image) {
        let pixels = image.width * image.height
        image.pixels.withMutableBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            fz_color_apply(transform, base, base, pixels)
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

/// Why colours cannot be converted.
public enum ColorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// lcms2 cannot read the input's profile or build the transform.
    case unusableProfile(path: String, reason: String)

    public var description: String {
        switch self {
        case .unusableProfile(let path, let reason):
            return "\(path): the ICC profile cannot be used (\(reason)); use --icc keep or --icc strip"
        }
    }
}
