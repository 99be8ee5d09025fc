import FZImage

/// How a command's outputs are encoded, whatever their names: the format `--format` asks
/// for (else each name's extension chooses, `OutputFormat.chosen`), the lossy formats'
/// quality, lossless WebP/HEIC/AVIF, PNG's settings, and what JPEG flattens alpha onto.
/// A value the command line fills once and hands to every writer (jobs, workers).
public struct OutputChoice: Hashable, Sendable {
    /// `--format`: the format of standard output and of names whose extension says none.
    public var requested: OutputFormat?
    /// JPEG, WebP, HEIC and AVIF quality, 1-100.
    public var quality = 85
    /// WebP, HEIC and AVIF lossless (asked for by name only: quality 100 stays lossy).
    public var lossless = false
    public var png = PNGSettings.default
    /// What transparent pixels are composited over in a format without alpha (JPEG).
    public var background = Color.white

    public init(
        requested: OutputFormat? = nil, quality: Int = 85, lossless: Bool = false, png: PNGSettings = .default
    ) {
        self.requested = requested
        self.quality = quality
        self.lossless = lossless
        self.png = png
    }

    /// The format `path` is written in; names the command line has not checked fall back to PNG.
    public func format(for path: String) -> OutputFormat {
        (try? OutputFormat.chosen(forPath: path, requested: requested).get()) ?? OutputFormat.renderedFormat
    }

    /// How `path` is encoded.
    public func encoding(for path: String) -> OutputEncoding {
        format(for: path).encoding(png: png, quality: quality, lossless: lossless) ?? .png(png)
    }
}
