/// (In FZFormat, not FZPNG: every command's `EncodeSettings` holds it, whatever it writes.)
/// PNG encoder settings: zlib level, PNG row filters and zlib strategy.
///
/// Chosen by measurement, not by default (1170x2532 fit of a real photo, libpng 1.6.39,
/// zlib 1.2.13): the sub filter with zlib's run-length strategy (Z_RLE) was both the
/// fastest and smaller than level-2 deflate (3.27 MB vs 3.81 MB; libvips' default, level 6
/// without filters, 5.37 MB; adaptive filters at level 6, 3.38 MB at 8x the time). After
/// the sub filter a photo is mostly short runs of small values, which RLE plus Huffman
/// codes about as well as full LZ77 matching, at a fraction of the cost. Paeth + RLE is
/// smaller still (3.10 MB) for about a third more time. Levels 7-9 keep full deflate with
/// adaptive filters, which wins on synthetic graphics with long repeats.
public struct PNGSettings: Hashable, Sendable {
    public enum Filter: Int, Sendable {
        case none = 0x08
        case sub = 0x10
        case up = 0x20
        case average = 0x40
        case paeth = 0x80
        case adaptive = 0xF8
    }
    public var level: Int
    public var filter: Filter
    /// zlib strategy: 0 default, 1 filtered, 3 RLE.
    public var strategy: Int

    public init(level: Int, filter: Filter, strategy: Int = 0) {
        self.level = level
        self.filter = filter
        self.strategy = strategy
    }

    /// The settings for `--compression N` (0-9).
    public static func compression(_ n: Int) -> PNGSettings {
        switch n {
        case ...0: return PNGSettings(level: 0, filter: .none)
        case 1...3: return PNGSettings(level: n, filter: .sub, strategy: 3)
        case 4...6: return PNGSettings(level: n, filter: .paeth, strategy: 3)
        default: return PNGSettings(level: min(n, 9), filter: .adaptive)
        }
    }

    public static let defaultCompression = 2
    public static let `default` = compression(defaultCompression)
}
