import FZImage
import Geometry

/// What the grid tile path (`HEIFTileDecoder`, its regions, `HEIFTileStream`,
/// `HEIFBandPrefetch`) decodes tiles to and assembles rectangles of: `Image` for 8-bit reads,
/// `Image16` for 16-bit ones (`--depth 16` of a 10- or 12-bit grid). One generic path for
/// both, so the tile bookkeeping is not kept twice; only the sample width differs.
protocol HEIFTilePixels: Sendable {
    /// Bytes a sample: 1, or 2 (big-endian, 0...65535).
    static var sampleBytes: Int { get }
    init(width: Int, height: Int, format: PixelFormat, samples: [UInt8])
    var width: Int { get }
    var height: Int { get }
    /// Rows packed, `format.channels * sampleBytes` bytes a pixel.
    var samples: [UInt8] { get }
    func oriented(_ orientation: Orientation) -> Self
}

extension Image: HEIFTilePixels {
    package static var sampleBytes: Int { 1 }
    package init(width: Int, height: Int, format: PixelFormat, samples: [UInt8]) {
        self.init(width: width, height: height, format: format, pixels: samples)
    }
    package var samples: [UInt8] { pixels }
}

extension Image16: HEIFTilePixels {
    package static var sampleBytes: Int { 2 }
    package init(width: Int, height: Int, format: PixelFormat, samples: [UInt8]) {
        self.init(width: width, height: height, format: format, bytes: samples)
    }
    package var samples: [UInt8] { bytes }
}
