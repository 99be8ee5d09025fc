import FZImage
import FZMetadata
import FZSystem
import Geometry

/// One image format's decoder: the header on open, then rows, top to bottom, at a scale
/// and within a column window the decoder may widen.
///
/// The contract every decoder keeps (PNG, JPEG, WebP, HEIF):
/// - `init` reads the header and checks the stored size against `options` (pixels and the
///   memory its own buffers need) before anything sized by the image is allocated.
/// - `begin` is called once; `skip` and `read` then move down the rows; `finish` reads what
///   follows the last row (to the end marker) where the caller wants the whole file checked.
/// - Failures are `DecodeError`s naming the file; with `options.lenient` a decoder keeps what
///   decoded, returns fewer rows, and says why in `warnings`.
/// - Every pointer of the decoder's C library stays in that library's own Swift file.
///
/// Adding a format: one file with a type conforming to this protocol (plus its C shim when
/// the library longjmps) and one entry in `ImageDecoders.all`.
package protocol ImageDecoder: AnyObject {
    /// The format this decoder reads: its names, extensions and capabilities
    /// (`FormatRegistry` builds help texts, messages and the batch walker's list from it).
    static var registration: InputFormatInfo { get }
    /// Whether a file's first bytes (up to `ImageFormat.sniffLength`) are this format.
    static func sniff(_ head: [UInt8]) -> Bool
    /// Reads the header from `source` (positioned at its first byte).
    init(source: ImageSource, options: DecodeOptions) throws(DecodeError)

    /// The stored size, before any orientation.
    var storedSize: PixelSize { get }
    /// The layout of the rows `read` delivers.
    var pixelFormat: PixelFormat { get }
    /// Bits per stored sample (8 or 16 for PNG, the precision for JPEG).
    var bitDepth: Int { get }
    /// The raw EXIF block (TIFF header first) when the file has one.
    var exif: [UInt8]? { get }
    /// The XMP packet (XML bytes) when the file has one.
    var xmp: [UInt8]? { get }
    /// The IPTC-NAA record (IIM datasets) when the file has one (JPEG APP13).
    var iptc: [UInt8]? { get }
    /// The orientation the file states, 1-8 as EXIF's (may be invalid), nil when none: the
    /// EXIF tag, or a format's own field (JPEG XL's codestream orientation).
    var orientationValue: Int? { get }
    /// Whether the EXIF orientation applies to the decoded pixels. HEIF, whose own
    /// transformations are applied by the decoder, says no.
    var exifOrientationApplies: Bool { get }
    /// The turn the decoder itself gave its pixels, which the file's metadata coordinates
    /// (XMP regions, as stored) must be turned through too: libraw applies a RAW's
    /// orientation as it develops. `.up` for the rest, whose orientation `ImageReader` applies.
    var pixelsTurnedBy: Orientation { get }
    /// What the file says about its colours.
    var color: ColorDescription { get }
    /// The format's own header facts, for `info`.
    var details: any CodecDetails { get }

    /// The reductions the decoder can apply while decoding: 1/d for each d (ascending, 1 first).
    var denominators: [Int] { get }
    /// The size of the image decoded at 1/`denominator`.
    func scaledSize(denominator: Int) -> PixelSize
    /// Starts decoding at 1/`denominator` (one of `denominators`), delivering at least
    /// `columns` (scaled pixels; nil = all) of every row.
    /// - Returns: where the delivered rows start and how wide and how many they are.
    func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout
    /// Starts decoding at full depth, for a decoder with `.deepSamples` and an image whose
    /// samples are deeper than 8 bits: `read` then delivers rows of 2 bytes a sample,
    /// big-endian, scaled to 0...65535 (PNG's 16 bits as stored, HEIF's 10 or 12 widened).
    /// Nil when this image keeps nothing deeper than 8 bits. Called instead of `begin`.
    func beginDeep(columns: Range<Int>?) throws(DecodeError) -> RowLayout?
    /// Starts decoding the whole image averaged over whole blocks of `factorX` x `factorY`
    /// pixels, as `BoxShrink` averages decoded rows (blocks from the top left, partial at the
    /// right and bottom edges), where the decoder can average before its own colour conversion
    /// (HEIF grids, in Y'CbCr); `read` then delivers the reduced rows. Nil when it cannot:
    /// nothing has started and `begin` is called instead.
    func beginBlocks(factorX: Int, factorY: Int) throws(DecodeError) -> RowLayout?
    /// Skips `rows` rows (as cheaply as the format allows).
    func skip(rows: Int) throws(DecodeError)
    /// Reads up to `rows` rows of `layout.width * channels` bytes into `buffer`.
    /// - Returns: rows read; fewer only when lenient and the data broke off, or at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int
    /// Problems decoding skipped past (only with `lenient`).
    var warnings: [String] { get }

    /// Sizes of the smaller copies the file carries (HEIF `thmb` items), upright.
    var embeddedThumbnails: [PixelSize] { get }
    /// Decodes embedded thumbnail `index` whole, upright, in `pixelFormat` (independent of
    /// the row stream: the main image can still be read afterwards).
    func decodeEmbeddedThumbnail(_ index: Int) throws(DecodeError) -> Image
    /// How far (a fraction) an embedded thumbnail's shape may stray from the image's and
    /// still show the same picture: 0 (within 2 pixels, HEIF's rounding); a RAW's preview is
    /// the camera's JPEG, cropped a few pixels inside the sensor's area.
    var embeddedThumbnailShapeTolerance: Double { get }

    /// Decodes stored rectangles directly, without the row stream, where the format can do
    /// better than rows (the tiles of an HEIF grid); nil: read them from the rows.
    func readRegions(_ rects: [PixelRect]) throws(DecodeError) -> [Image]?
    /// The same at 16 bits a sample (as `beginDeep` delivers them), for `readStored16`.
    func readDeepRegions(_ rects: [PixelRect]) throws(DecodeError) -> [Image16]?

    /// Begins, on a thread of its own, the library set-up a file named with `fileExtension`
    /// (one of the registration's, lower case) will need, so that it overlaps the argument
    /// parsing (`FormatRegistry.warmUp`). A hint: a decoder that skips it only starts later.
    static func warmUp(forExtension fileExtension: String)
}

extension ImageDecoder {
    package static func warmUp(forExtension fileExtension: String) {}
    package var embeddedThumbnails: [PixelSize] { [] }
    package func decodeEmbeddedThumbnail(_ index: Int) throws(DecodeError) -> Image {
        preconditionFailure("no embedded thumbnails")
    }
    package var embeddedThumbnailShapeTolerance: Double { 0 }
    package var exifOrientationApplies: Bool { true }
    package var pixelsTurnedBy: Orientation { .up }
    package var orientationValue: Int? { exif.flatMap { EXIF.orientationValue(in: $0) } }
    package var xmp: [UInt8]? { nil }
    package var iptc: [UInt8]? { nil }
    package func readRegions(_ rects: [PixelRect]) throws(DecodeError) -> [Image]? { nil }
    package func readDeepRegions(_ rects: [PixelRect]) throws(DecodeError) -> [Image16]? { nil }
    package var denominators: [Int] { [1] }
    package func beginDeep(columns: Range<Int>?) throws(DecodeError) -> RowLayout? { nil }
    package func beginBlocks(factorX: Int, factorY: Int) throws(DecodeError) -> RowLayout? { nil }
    package func scaledSize(denominator: Int) -> PixelSize { storedSize }
}

/// What `ImageDecoder.begin` delivers: rows of `width` pixels starting at stored column
/// `firstColumn` (at the chosen scale), `height` of them in all.
package struct RowLayout: Hashable, Sendable {
    package var firstColumn: Int
    package var width: Int
    package var height: Int

    package init(firstColumn: Int, width: Int, height: Int) {
        self.firstColumn = firstColumn
        self.width = width
        self.height = height
    }
}

extension ImageDecoder {
    /// The format this decoder reads.
    package static var format: ImageFormat { registration.format }
}

/// A format's own header facts, shown by `info` in text and JSON.
public protocol CodecDetails: Sendable, CustomStringConvertible {
    /// Phrases for `info`'s one-line summary ("rgb 8-bit", "interlaced"...).
    var summary: [String] { get }
    /// Fields for `info --json`.
    var jsonMembers: [(String, JSON)] { get }
    /// Whether `other` holds the same facts.
    func isEqual(to other: any CodecDetails) -> Bool
    /// The name users know the format by, when the format's own is not it (HEIF: HEIC or AVIF).
    var formatName: String? { get }
    /// The size as coded, when the decoder turns it (HEIF's transformations).
    var codedDimensions: PixelSize? { get }
    /// The coded rectangle an upright one comes from, when the decoder turns the coded
    /// image itself (HEIF's transformations); nil: the header's orientation says.
    func codedRect(forDisplayed rect: PixelRect) -> PixelRect?
}

extension CodecDetails where Self: Equatable {
    public func isEqual(to other: any CodecDetails) -> Bool { (other as? Self) == self }
}

extension CodecDetails {
    public var description: String { summary.joined(separator: ", ") }
    public var formatName: String? { nil }
    public var codedDimensions: PixelSize? { nil }
    public func codedRect(forDisplayed rect: PixelRect) -> PixelRect? { nil }
}
