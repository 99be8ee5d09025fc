import FZFormat
import FZImage

/// How a command's outputs are encoded, whatever their names: the format `--format` asks
/// for (else each name's extension chooses, `OutputFormat.chosen`) and the encoders'
/// settings (`EncodeSettings`: quality, lossless, PNG's settings, what JPEG flattens onto).
/// A value the command line fills once and hands to every writer (jobs, workers).
public struct OutputChoice: Hashable, Sendable {
    /// `--format`: the format of standard output and of names whose extension says none.
    public var requested: OutputFormat?
    /// What every encoder reads its options from.
    public var settings: EncodeSettings

    /// JPEG, WebP, HEIC and AVIF quality, 1-100.
    public var quality: Int {
        get { settings.quality }
        set { settings.quality = newValue }
    }
    /// WebP, HEIC and AVIF lossless (asked for by name only: quality 100 stays lossy).
    public var lossless: Bool {
        get { settings.lossless }
        set { settings.lossless = newValue }
    }
    public var png: PNGSettings {
        get { settings.png }
        set { settings.png = newValue }
    }
    /// What transparent pixels are composited over in a format without alpha (JPEG).
    public var background: Color {
        get { settings.background }
        set { settings.background = newValue }
    }

    public init(requested: OutputFormat? = nil, settings: EncodeSettings = EncodeSettings()) {
        self.requested = requested
        self.settings = settings
    }

    public init(
        requested: OutputFormat? = nil, quality: Int = EncodeSettings.defaultQuality, lossless: Bool = false,
        png: PNGSettings = .default
    ) {
        self.init(requested: requested, settings: EncodeSettings(quality: quality, lossless: lossless, png: png))
    }

    /// The format `path` is written in; names the command line has not checked fall back to PNG.
    public func format(for path: String) -> OutputFormat {
        (try? OutputFormat.chosen(forPath: path, requested: requested).get()) ?? OutputFormat.renderedFormat
    }

    /// How `path` is encoded.
    public func encoding(for path: String) -> OutputEncoding { format(for: path).encoding(settings) }
}
