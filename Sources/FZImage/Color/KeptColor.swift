/// What `--icc keep` writes for an input: its colour description, less an embedded profile
/// that must not be copied (one lcms2 cannot use, one cut short, or one that does not fit
/// the pixels), with the reason for a warning. A broken profile is never written: a viewer
/// would show wrong colours, or refuse the file.
public struct KeptColor: Sendable {
    /// What the outputs carry.
    public let color: ColorDescription
    /// Why the input's profile was left out, when it was.
    public let dropped: String?

    /// - Parameter input: the input's description. Whether the profile's colour space fits
    ///   the output's pixels is settled when writing (`ColorDescription.carried(into:)`).
    public init(_ input: ColorDescription) {
        var color = input
        var dropped: String?
        if input.madeFromCMYK == nil {
            if input.hasICC && input.icc == nil {
                dropped =
                    "the embedded ICC profile could not be read (damaged, cut short or in pieces that do not fit together)"
            } else if let icc = input.icc {
                if input.profile != nil {
                    if let reason = ColorTransform.readProblem(with: icc) {
                        dropped = "the embedded ICC profile cannot be used (\(reason))"
                    }
                } else {
                    dropped = "the embedded ICC profile is not a valid ICC profile"
                }
            }
        }
        if dropped != nil {
            color.icc = nil
            color.hasICC = false
        }
        self.color = color
        self.dropped = dropped.map { "\($0); the output carries no profile" }
    }
}
