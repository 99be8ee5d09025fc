import CFZJPEG
import FZFormat
import FZSystem
import Geometry

/// Lossless crops of a JPEG (`crop --lossless`): the DCT coefficients of the blocks inside
/// a rectangle are copied into a new JPEG with TurboJPEG's `tjTransform` (jpegtran's
/// `-crop`), so the pixels a decoder shows are exactly the source's. Evidence and archival
/// crops want the original bits, not a re-encode.
///
/// What that costs, said openly: a crop can only start on the iMCU grid (8 pixels, or 16
/// along a chroma-subsampled axis), so the rectangle written (`delivered`) is the one asked
/// for with its edges moved outward to the grid (clamped to the image). The EXIF
/// orientation is never applied: the crop is cut from the stored pixels and every marker
/// (EXIF APP1, ICC APP2, XMP, comments) is copied byte for byte, so a reader that honours
/// the tag shows the crop upright, and the tag, like the rest of the metadata, is the
/// original (its pixel dimensions and thumbnail then describe the whole photo, as after
/// jpegtran `-copy all`). Turning the blocks instead (`TJXOP_*` with `TJXOPT_PERFECT`) would
/// need the tag rewritten and fails whenever an edge is a partial block.
public struct LosslessJPEGCrop {
    /// The input as named in messages.
    public let path: String
    public let storedSize: PixelSize
    /// The iMCU: the grid a crop starts on.
    public let block: PixelSize
    /// The grid a crop is widened to: the block, or a multiple of it that also puts a gain
    /// map's rectangle on the map's own blocks (`LosslessGainMapCrop`).
    public package(set) var grid: PixelSize
    /// The whole file.
    package let bytes: [UInt8]
    /// The frame and scan count as the markers give them (nil: TurboJPEG's header said why).
    private let frame: JPEGFrame?
    /// The scan and memory limits of the ordinary decode, met before TurboJPEG reads.
    package let options: DecodeOptions

    /// Reads the whole JPEG of an opened input once (every crop comes from these bytes).
    /// - Parameters:
    ///   - limit: the most bytes read.
    ///   - options: the scan limit and the memory limit `crop` met (`--max-memory`).
    /// - Throws: `DecodeError` when it cannot be read, is larger than `limit`, or is no
    ///   JPEG TurboJPEG can crop.
    public init(source: ImageSource, limit: Int = 1 << 30, options: DecodeOptions = DecodeOptions())
        throws(DecodeError)
    {
        let path = source.name
        guard source.file.rewind() else { throw .readFailed(path: path, reason: "cannot seek back to the start") }
        guard let all = source.file.readAll(limit: limit) else {
            throw .readFailed(path: path, reason: "larger than \(limit >> 20) MiB, the most a lossless crop reads")
        }
        try self.init(bytes: all, path: path, options: options)
    }

    /// A JPEG already in memory (a gain map cut from its file's bytes, `LosslessGainMapCrop`).
    /// - Throws: `DecodeError` when it is no JPEG TurboJPEG can crop.
    public init(bytes: [UInt8], path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        self.path = path
        self.options = options
        self.bytes = bytes
        frame = JPEGFrame(bytes)
        var header = fz_tj_header()
        let status = bytes.withUnsafeBufferPointer { fz_tj_read_header($0.baseAddress, $0.count, &header) }
        guard status == FZ_OK else { throw Self.error(header, path: path, frame: frame) }
        storedSize = PixelSize(width: Int(header.width), height: Int(header.height))
        block = PixelSize(width: Int(header.mcu_width), height: Int(header.mcu_height))
        grid = block
    }

    /// The stored rectangle written for `rect` (inside the image): its left and top moved
    /// down to the grid, its right and bottom up to it or to the image's edge.
    public func delivered(forStored rect: PixelRect) -> PixelRect {
        let x = rect.x / grid.width * grid.width
        let y = rect.y / grid.height * grid.height
        let maxX = min(storedSize.width, (rect.maxX + grid.width - 1) / grid.width * grid.width)
        let maxY = min(storedSize.height, (rect.maxY + grid.height - 1) / grid.height * grid.height)
        return PixelRect(x: x, y: y, width: maxX - x, height: maxY - y)
    }

    /// Where an upright crop lands: the stored rectangle written for the upright `rect`
    /// (mapped through `orientation`, then out to the grid) and that rectangle upright, as
    /// a reader that applies the copied tag shows it.
    public func delivered(forUpright rect: PixelRect, orientation: Orientation) -> (
        stored: PixelRect, upright: PixelRect
    ) {
        let stored = delivered(forStored: orientation.storedRect(forUpright: rect, stored: storedSize))
        let a = orientation.uprightPixel(forStored: PixelPoint(x: stored.x, y: stored.y), stored: storedSize)
        let b = orientation.uprightPixel(
            forStored: PixelPoint(x: stored.maxX - 1, y: stored.maxY - 1), stored: storedSize)
        let upright = PixelRect(
            x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
        return (stored, upright)
    }

    /// Crops every rectangle (as `delivered` returns them) in one pass over the coefficients.
    /// - Parameter lenient: go on past corrupt data (TurboJPEG's warnings) instead of failing.
    /// - Returns: one complete JPEG file per rectangle.
    /// - Throws: `DecodeError.corrupt` when the data is damaged or the crop fails.
    public func crop(_ rects: [PixelRect], lenient: Bool = false) throws(DecodeError) -> [[UInt8]] {
        precondition(rects.allSatisfy { $0 == delivered(forStored: $0) }, "crop off the block grid")
        try checkLimits(rects)
        var cRects = rects.map {
            fz_tj_rect(x: Int32($0.x), y: Int32($0.y), width: Int32($0.width), height: Int32($0.height))
        }
        var outputs = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: rects.count)
        var sizes = [UInt](repeating: 0, count: rects.count)
        var header = fz_tj_header()
        let status = bytes.withUnsafeBufferPointer { input in
            fz_tj_crop(
                input.baseAddress, input.count, Int32(rects.count), &cRects, lenient ? 0 : 1, &outputs, &sizes, &header)
        }
        guard status == FZ_OK else { throw Self.error(header, path: path, frame: frame) }
        defer { for p in outputs { fz_tj_free(p) } }
        return outputs.indices.map { i in Array(UnsafeBufferPointer(start: outputs[i], count: Int(sizes[i]))) }
    }

    /// TurboJPEG reads every scan and holds every coefficient with no limit of its own: the
    /// progressive scan limit and the memory budget of the ordinary decode are met here, from
    /// the markers, before it starts. What it holds: the file, the whole image's coefficients
    /// (`jpeg_read_coefficients`), and per crop a coefficient workspace and an output buffer.
    private func checkLimits(_ rects: [PixelRect]) throws(DecodeError) {
        guard let frame else { return }
        if options.maxScans > 0 && frame.progressive && frame.scans > options.maxScans {
            throw .tooManyScans(path: path, limit: options.maxScans)
        }
        let components = Int64(frame.horizontal.count)
        var needed = Int64(bytes.count) + frame.coefficientBytes
        for rect in rects {  // sides within 65535: no product overflows
            needed += rect.size.area * (components * 2 + 4)
        }
        try options.checkMemory(needed, path: path)
    }

    private static func error(_ header: fz_tj_header, path: String, frame: JPEGFrame?) -> DecodeError {
        let message = withUnsafeBytes(of: header.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch header.failure {
        case FZ_TJ_UNKNOWN_SAMPLING:
            let factors = frame.map { " (\($0.samplingFactors))" } ?? ""
            return .unsupportedVariant(
                path: path,
                what:
                    "sampling factors\(factors) for a lossless crop: TurboJPEG crops on the grids of 4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1 and grey only (jpegtran -crop takes any); crop without --lossless"
            )
        case FZ_TJ_OUT_OF_MEMORY:
            return .readFailed(path: path, reason: "TurboJPEG ran out of memory for the lossless crop (\(message))")
        case FZ_TJ_UNREADABLE: return .corrupt(path: path, detail: "TurboJPEG cannot read it: \(message)")
        default: return .corrupt(path: path, detail: "the lossless crop failed: \(message)")
        }
    }
}
