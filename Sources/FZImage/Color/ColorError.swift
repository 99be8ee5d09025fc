import FZSystem

/// Why colours cannot be converted.
public enum ColorError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// lcms2 cannot read the input's profile or build the transform, or the profile does not
    /// describe the pixels.
    case unusableProfile(path: String, reason: String)
    /// The `--cmyk-profile` file cannot be used.
    case cmykProfile(path: String, reason: String)

    public var description: String {
        switch self {
        case .unusableProfile(let path, let reason):
            return
                "\(path): the ICC profile cannot be used (\(reason)); use --lenient to take the pixels as sRGB, or --icc keep or --icc strip"
        case .cmykProfile(let path, let reason):
            return "--cmyk-profile \(path): \(reason); give a CMYK ICC profile (.icc or .icm)"
        }
    }
}
