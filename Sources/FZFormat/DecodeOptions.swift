import FZImage
import FZSystem
import Geometry

/// How inputs are read.
public struct DecodeOptions: Hashable, Sendable {
    /// Apply the EXIF orientation so coordinates refer to the upright image.
    public var autoOrient = true
    /// Keep what decoded from a truncated or corrupt file, with a warning.
    public var lenient = false
    /// Refuse images with more pixels than this, before allocating (0 = no limit).
    public var maxPixels: Int64 = 268_435_456
    /// The most progressive-JPEG scans accepted (0 = no limit). Every scan revisits the
    /// whole image, so a few hundred kilobytes of tiny scans over a large image take
    /// minutes (measured: 1000 scans over an 8192x8192 image, 0.5 MB, 8 s). Real encoders
    /// write 10 or so (libjpeg's progression) and rarely more than a few dozen.
    public var maxScans = 100
    /// The largest ancillary PNG chunk libpng may allocate (ICC, eXIf), decompressed.
    public var chunkLimit = 8 << 20
    /// The most memory (bytes) a decoder may need for its own buffers, worked out from the
    /// header before anything is allocated (0 = no limit): libpng's rows, an interlaced
    /// PNG's whole image, a progressive JPEG's coefficients. The pixel limit alone does not
    /// bound this: a 268435456x1 16-bit RGBA PNG is under it and needs 5 GiB of rows.
    /// Lowered to what the process's memory limits allow (`MemoryLimit`).
    public var maxMemory: Int64 = MemoryLimit.cap(1 << 30)
    /// The frame of an animated image to read, from 1 (animated WebP; other files have one).
    public var frame = 1
    /// The time in a video (seconds from its start) whose frame is read (`--time`); nil: the
    /// poster frame its decoder chooses.
    public var videoTime: Double?
    /// The option `frame` was given as, for messages: `--frame`, or `--page` (its TIFF name).
    public var frameOption = "--frame"
    /// Threads one image's decoding may use (HEIF grid tiles decode side by side); a batch
    /// (`thumb -j`) gives each image its share.
    public var threads = Threads.perImage
    /// The least stored bytes for which a PNG's rows are inflated on a second thread while
    /// this one unfilters (with `threads` >= 2): from about 1 MiB (a 600x600 RGB photo) it
    /// saves more than a thread costs. The fuzz target sets 0 to send every image through it.
    public var pngPipelineMinimum = 1 << 20
    /// The most bytes read from standard input.
    public var stdinLimit = 1 << 30
    /// A CA bundle for https:// inputs (`--ca-file`; issue 52); nil: SSL_CERT_FILE or the system's.
    public var caFile: String?
    /// The profile CMYK and YCCK JPEGs without a usable one of their own are read through
    /// (nil: `CMYKProfile.system`, found once).
    public var cmykProfile: CMYKProfile?
    /// The rendering intent of that conversion (black-point compensation unless absolute).
    public var intent = RenderingIntent.relative
    /// An embedded profile that cannot be used fails the file instead of being passed over
    /// with a warning (`--icc srgb` without `--lenient`).
    public var strictProfiles = false
    /// Only the header is read, nothing will be decoded (`info`): the memory decoding would
    /// need is not checked (`ImageReader.header(path:options:)` says whether it would be
    /// refused). Bytes a reader really holds for the header (a WebP read whole) still meet
    /// the limit, and the pixel limit, a limit on the image itself, still applies.
    package var headerOnly = false
    /// The caller reads an embedded preview where one is large enough (`thumb`): a decoder
    /// may put off what only a develop or `info` needs. RAW: a plain DNG's preview is read
    /// without libraw, which opens only if the image is developed after all (issue 51).
    package var previewFirst = false

    public init() {}
}

extension DecodeOptions {
    /// The same two limits for what a command makes from the decoded pixels.
    public var budget: Budget { Budget(maxPixels: maxPixels, maxBytes: maxMemory) }

    /// Throws when `size` (from a header, maybe one cut short) is over the pixel limit.
    package func checkPixels(_ size: PixelSize, path: String) throws(DecodeError) {
        if maxPixels > 0 && size.width > 0 && size.height > 0 && size.area > maxPixels {
            throw .tooManyPixels(path: path, size: size, limit: maxPixels)
        }
    }

    /// Throws when a decoder would need more than `maxMemory` bytes, or more than the
    /// process's memory limits allow (`MemoryLimit`).
    package func checkMemory(_ needed: Int64, path: String) throws(DecodeError) {
        if headerOnly { return }
        let limit = budget.maxBytes
        if limit > 0 && needed > limit {
            throw .overMemoryLimit(path: path, needed: needed, limit: limit)
        }
    }
}
