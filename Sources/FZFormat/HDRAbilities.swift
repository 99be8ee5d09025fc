/// What an output format does with an input's HDR gain map, as its encoder declares it
/// (`OutputFormat.gainMaps`): the writer asks these, never a format's name.
public struct GainMapAbilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Carries an Ultra HDR / Adobe gain map (`hdrgm` XMP, the map a second image indexed
    /// by MPF after the primary's end), of any scheme (Apple's restated as hdrgm).
    public static let ultraHDR = GainMapAbilities(rawValue: 1 << 0)
    /// Carries Apple's one-channel gain map as it is, an auxiliary image of the primary
    /// (`urn:com:apple:photo:2020:aux:hdrgainmap`).
    public static let appleAuxiliary = GainMapAbilities(rawValue: 1 << 1)
}

/// How a format holds the HDR rendition of a gain map (`--gain-map apply`), as its encoder
/// declares it (`OutputFormat.hdrRendition`).
public enum HDRRendition: String, Hashable, Sendable {
    /// It cannot: the output stays SDR.
    case none
    /// 16-bit samples coded in BT.2100 PQ, marked by a cICP chunk and no ICC profile.
    case cicp16
    /// A 10- or 12-bit codec's samples coded in BT.2100 PQ, marked by an `nclx` colour box.
    case nclxCodec
}
