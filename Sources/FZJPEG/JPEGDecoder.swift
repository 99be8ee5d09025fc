import FZFormat
import FZImage
import FZMetadata
import FZSystem
import Geometry

/// JPEG through libjpeg-turbo (`JPEGReader` owns its pointers): 8-bit baseline,
/// progressive and arithmetic; gray, YCbCr, RGB, CMYK and YCCK to gray or RGB; DCT-scaled
/// decoding to 1/2, 1/4 and 1/8; a column window (jpeg_crop_scanline) and skipped rows.
package final class JPEGDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .jpeg, names: ["JPEG"], extensions: ["jpg", "jpeg", "jpe", "jfif"],
        capabilities: [.exif, .icc, .gainMaps])
    package static func sniff(_ head: [UInt8]) -> Bool { head.starts(with: [0xFF, 0xD8, 0xFF]) }

    private let reader: JPEGReader
    private var ownWarnings: [String] = []

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        reader = try JPEGReader(file: source.file, path: source.name, options: options)
        if reader.details.precision != 8 {
            throw .unsupportedVariant(
                path: source.name, what: "\(reader.details.precision)-bit JPEG; only 8-bit JPEG is supported")
        }
        try reader.chooseCMYKConversion(options: options, warnings: &ownWarnings)
    }

    package var storedSize: PixelSize { reader.size }
    package var pixelFormat: PixelFormat { reader.format }
    package var bitDepth: Int { reader.details.precision }
    package var exif: [UInt8]? { reader.exif }
    package var xmp: [UInt8]? { reader.xmp }
    package var iptc: [UInt8]? { reader.photoshop.flatMap(IPTCBlock.iim(inResources:)) }
    package var details: any CodecDetails { reader.details }
    package var color: ColorDescription {
        var c = ColorDescription()
        c.hasICC = reader.details.hasICC
        c.icc = reader.icc
        c.madeFromCMYK = reader.cmykConversion
        return c
    }

    package var denominators: [Int] { [1, 2, 4, 8] }

    /// libjpeg's scaled size for 1/`denominator`: ceil(W/d) x ceil(H/d).
    package func scaledSize(denominator d: Int) -> PixelSize { JPEGReader.scaledSize(storedSize, denominator: d) }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        let size = scaledSize(denominator: denominator)
        // libjpeg-turbo's fancy upsampling treats the edges of a jpeg_crop_scanline crop as
        // image edges, so the crop's first and last columns come out wrong (up to 27 levels
        // seen on 4:2:0). One spare column left and two right (a 1-2 column crop also
        // switches upsampler) give pixels identical to a full decode.
        let wanted = columns.map { max(0, $0.lowerBound - 1)..<min(size.width, $0.upperBound + 2) }
        let (x, width) = try reader.start(denominator: denominator, columns: wanted)
        return RowLayout(firstColumn: x, width: width, height: size.height)
    }

    package func skip(rows: Int) throws(DecodeError) { try reader.skip(rows: rows) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        let rowBytes = buffer.count / max(1, rows)
        return try reader.read(into: buffer, rows: rows, rowBytes: rowBytes, warnings: &ownWarnings)
    }

    /// What lenient decoding skipped past; libjpeg's corrupt-data warnings are summed up
    /// when nothing else was said.
    package var warnings: [String] {
        if reader.warningCount > 0 && ownWarnings.isEmpty {
            return ["\(reader.warningCount) corrupt-data warning(s): \(reader.lastMessage)"]
        }
        return ownWarnings
    }
}

extension ImageFormat {
    public static let jpeg = ImageFormat(rawValue: "JPEG")
}

extension JPEGDetails: CodecDetails {
    public var summary: [String] {
        var parts = ["\(colorSpace) \(components) component\(components == 1 ? "" : "s")"]
        if !subsampling.isEmpty { parts.append(subsampling) }
        parts.append(coding == "extended" ? "extended sequential" : coding)
        if arithmetic { parts.append("arithmetic") }
        if hasICC { parts.append("ICC profile (not applied)") }
        if adobe { parts.append("Adobe") }
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(precision)), ("colorSpace", .string(colorSpace)),
            ("components", .int(components)), ("progressive", .bool(progressive)), ("coding", .string(coding)),
            ("arithmetic", .bool(arithmetic)),
            ("subsampling", subsampling.isEmpty ? .null : .string(subsampling)),
            ("samplingFactors", .string(samplingFactors)), ("icc", .bool(hasICC)),
            ("adobe", .bool(adobe)),
        ]
    }
}
