import FZImage
import FZMetadata
import FZSystem

/// A format forcezoom writes, as its encoder declares it (`ImageEncoder.registration`), and
/// the one place an output's format is chosen from its name.
public struct OutputFormat: Hashable, Sendable, CustomStringConvertible {
    /// The format a reader of the output sniffs.
    public let format: ImageFormat
    /// The name in messages and help ("PNG").
    public let name: String
    /// Extensions that ask for it, lower case, the usual one first.
    public let extensions: [String]
    /// Whether the format stores alpha (else it is flattened onto the background).
    public let keepsAlpha: Bool
    /// Whether it writes 16-bit samples (`ImageWriter.write(_: Image16, ...)`).
    public let writes16Bit: Bool
    /// Which metadata it writes, and how large a block each container holds.
    public let metadata: MetadataContainers
    /// The command-line options that shape it.
    public let encoderOptions: [EncoderOption]
    /// Which gain maps it carries beside its image.
    public let gainMaps: GainMapAbilities
    /// How it holds an HDR rendition, if it can.
    public let hdrRendition: HDRRendition
    /// The library it is opened with on first use, nil when linked (`FormatLibrary`).
    public let library: FormatLibrary?
    /// The encoder that writes it.
    package let encoder: any ImageEncoder.Type

    package init(
        format: ImageFormat, name: String, extensions: [String], keepsAlpha: Bool, writes16Bit: Bool = false,
        metadata: MetadataContainers, options: [EncoderOption], gainMaps: GainMapAbilities = [],
        hdrRendition: HDRRendition = .none, encoder: any ImageEncoder.Type, library: FormatLibrary? = nil
    ) {
        self.format = format
        self.name = name
        self.extensions = extensions
        self.keepsAlpha = keepsAlpha
        self.writes16Bit = writes16Bit
        self.metadata = metadata
        self.encoderOptions = options
        self.gainMaps = gainMaps
        self.hdrRendition = hdrRendition
        self.library = library
        self.encoder = encoder
    }

    /// The options that shape it, for help texts ("--quality").
    public var options: [String] { encoderOptions.map(\.flag) }

    // One encoder per name: equality and hashing go by it (the encoder type is not Hashable).
    public static func == (a: OutputFormat, b: OutputFormat) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// How `ImageWriter` encodes this format with `settings`.
    public func encoding(_ settings: EncodeSettings) -> OutputEncoding { OutputEncoding(self, settings) }

    public var description: String { name }
}
