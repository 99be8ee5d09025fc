import FZImage
import Geometry

/// Everything known about an image from its header.
public struct ImageHeader: Equatable, Sendable {
    public let format: ImageFormat
    /// The stored (raw) size.
    public let storedSize: PixelSize
    /// The decoded pixel layout (gray, gray+alpha, RGB or RGBA; always 8 bits).
    public let pixelFormat: PixelFormat
    /// Bits per stored sample.
    public let bitDepth: Int
    /// The EXIF orientation tag value as found (may be invalid, e.g. 0 or 9), nil if none.
    public let exifOrientationValue: Int?
    /// The orientation forcezoom applies (`.up` when there is none, it is invalid, or
    /// auto-orientation is off).
    public let orientation: Orientation
    /// What the file says about its colours.
    public let color: ColorDescription
    /// The format's own header facts.
    public let details: any CodecDetails

    package init(
        format: ImageFormat, storedSize: PixelSize, pixelFormat: PixelFormat, bitDepth: Int,
        exifOrientationValue: Int?, orientation: Orientation, color: ColorDescription, details: any CodecDetails
    ) {
        self.format = format
        self.storedSize = storedSize
        self.pixelFormat = pixelFormat
        self.bitDepth = bitDepth
        self.exifOrientationValue = exifOrientationValue
        self.orientation = orientation
        self.color = color
        self.details = details
    }

    /// The format's name as users know it: PNG, JPEG, WebP, HEIC or AVIF (HEIF files by
    /// their codec).
    public var formatName: String { details.formatName ?? format.rawValue }

    /// The size as stored or coded (for HEIF the `ispe` size, before `irot`/`imir`/`clap`,
    /// which the decoder applies: the decoded, displayed size is `uprightSize`).
    public var codedSize: PixelSize { details.codedDimensions ?? storedSize }

    /// The size of the upright image, the one all coordinates refer to.
    public var uprightSize: PixelSize { orientation.uprightSize(ofStored: storedSize) }

    /// Where an upright rectangle lies in the pixels as the file stores them, before the
    /// orientation: through the EXIF orientation, or HEIF's transformations (in `codedSize`).
    public func storedRect(forUpright rect: PixelRect) -> PixelRect {
        details.codedRect(forDisplayed: rect) ?? orientation.storedRect(forUpright: rect, stored: storedSize)
    }
}

extension ImageHeader {
    public static func == (a: ImageHeader, b: ImageHeader) -> Bool {
        a.format == b.format && a.storedSize == b.storedSize && a.pixelFormat == b.pixelFormat
            && a.bitDepth == b.bitDepth
            && a.exifOrientationValue == b.exifOrientationValue && a.orientation == b.orientation && a.color == b.color
            && a.details.isEqual(to: b.details)
    }
}
