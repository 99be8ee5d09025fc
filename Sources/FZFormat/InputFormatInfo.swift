import FZSystem

/// One readable format as its decoder declares it.
public struct InputFormatInfo: Hashable, Sendable {
    /// What the sniffer reports (`ImageHeader.format`).
    public let format: ImageFormat
    /// The names users know it by (HEIF's decoder reads "HEIF/HEIC" and "AVIF").
    public let names: [String]
    /// File extensions that say this format, lower case, without the dot.
    public let extensions: [String]
    public let capabilities: DecoderCapabilities
    /// The names `info` reports for its files (`ImageHeader.formatName`), as the JSON schema
    /// lists them: the format's own name, or its variants' (HEIC and AVIF, RAW and DNG).
    public let reportedNames: [String]
    /// The library it is opened with on first use, nil when linked (`FormatLibrary`).
    public let library: FormatLibrary?

    package init(
        format: ImageFormat, names: [String], extensions: [String], capabilities: DecoderCapabilities,
        reportedNames: [String]? = nil, library: FormatLibrary? = nil
    ) {
        self.format = format
        self.names = names
        self.extensions = extensions
        self.capabilities = capabilities
        self.reportedNames = reportedNames ?? [format.rawValue]
        self.library = library
    }
}

/// What a decoder can deliver beyond 8-bit pixels of one still image.
public struct DecoderCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// An alpha channel.
    public static let alpha = DecoderCapabilities(rawValue: 1 << 0)
    /// Samples deeper than 8 bits, kept (`ImageReader.readStored16`).
    public static let deepSamples = DecoderCapabilities(rawValue: 1 << 1)
    /// Animations (the first frame, or `DecodeOptions.frame`).
    public static let frames = DecoderCapabilities(rawValue: 1 << 2)
    /// A smaller image stored beside the primary one.
    public static let embeddedThumbnails = DecoderCapabilities(rawValue: 1 << 3)
    /// EXIF (the orientation).
    public static let exif = DecoderCapabilities(rawValue: 1 << 4)
    /// An ICC profile.
    public static let icc = DecoderCapabilities(rawValue: 1 << 5)
    /// An HDR gain map beside the image (its decoder is `GainMapProbing`).
    public static let gainMaps = DecoderCapabilities(rawValue: 1 << 6)
    /// A video: its still is a chosen frame, and the file may be a Live Photo's motion part.
    public static let movingPictures = DecoderCapabilities(rawValue: 1 << 7)
}
