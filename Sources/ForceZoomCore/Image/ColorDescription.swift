/// What a file says about the colours of its samples. Reported, and carried where asked;
/// pixels are always the stored samples.
public struct ColorDescription: Hashable, Sendable {
    /// An embedded ICC profile is present.
    public var hasICC = false
    /// PNG sRGB chunk.
    public var sRGB = false
    /// PNG gAMA value.
    public var gamma: Double?
    /// PNG cHRM chunk.
    public var hasChromaticities = false

    public init() {}
}
