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
    public var maxMemory: Int64 = 1 << 30
    /// The most bytes read from standard input.
    public var stdinLimit = 1 << 30

    public init() {}
}

extension DecodeOptions {
    /// Throws when `size` (from a header, maybe one cut short) is over the pixel limit.
    func checkPixels(_ size: PixelSize, path: String) throws(DecodeError) {
        if maxPixels > 0 && size.width > 0 && size.height > 0 && size.area > maxPixels {
            throw .tooManyPixels(path: path, size: size, limit: maxPixels)
        }
    }

    /// Throws when a decoder would need more than `maxMemory` bytes.
    func checkMemory(_ needed: Int64, path: String) throws(DecodeError) {
        if maxMemory > 0 && needed > maxMemory {
            throw .overMemoryLimit(path: path, needed: needed, limit: maxMemory)
        }
    }
}

/// Everything known about an image from its header.
public struct ImageHeader: Hashable, Sendable {
    public enum Details: Hashable, Sendable {
        case png(PNGDetails)
        case jpeg(JPEGDetails)
    }

    public let format: ImageFormat
    /// The stored (raw) size.
    public let storedSize: PixelSize
    /// The decoded pixel layout (gray, gray+alpha, RGB or RGBA; always 8 bits).
    public let pixelFormat: PixelFormat
    /// The EXIF orientation tag value as found (may be invalid, e.g. 0 or 9), nil if none.
    public let exifOrientationValue: Int?
    /// The orientation forcezoom applies (`.up` when there is none, it is invalid, or
    /// auto-orientation is off).
    public let orientation: Orientation
    public let details: Details

    /// The size of the upright image, the one all coordinates refer to.
    public var uprightSize: PixelSize { orientation.uprightSize(ofStored: storedSize) }
}

/// Reads one PNG or JPEG: the header on open, then the pixels of chosen regions in one
/// pass, decoding no more rows (and, for JPEG, columns) than they need.
public final class ImageReader {
    /// The input as named in messages ("<stdin>" for "-").
    public let path: String
    public let header: ImageHeader
    public let options: DecodeOptions
    /// Problems decoding skipped past (only with `lenient`).
    public private(set) var warnings: [String] = []

    private enum Backend {
        case png(PNGReader)
        case jpeg(JPEGReader)
    }

    private let backend: Backend
    private var consumed = false

    /// Row-by-row reading state (`beginRows`).
    private struct RowStream {
        let size: PixelSize
        var next: Int
        /// The whole image, for interlaced PNGs only.
        let buffered: ZeroedBuffer?
    }

    private var rowStream: RowStream?

    /// Opens a file (or "-" for stdin), sniffs its format and reads the header.
    /// - Parameters:
    ///   - path: a file path, or "-" for standard input.
    ///   - options: orientation, leniency and limits.
    /// - Throws: `DecodeError` for missing, unreadable, empty, unsupported or corrupt
    ///   files, and for images over the pixel or memory limit.
    public convenience init(path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        let name = path == "-" ? "<stdin>" : path
        let file: CFile
        if path == "-" {
            switch CFile.slurpStandardInput(limit: options.stdinLimit) {
            case .success(let f): file = f
            case .failure(let e): throw .readFailed(path: name, reason: e.description)
            }
        } else {
            switch FileSystem.kind(of: path) {
            case .directory: throw .isDirectory(path: name)
            case .missing:
                // Let fopen say why (missing, or a dangling link, or no permission).
                break
            default: break
            }
            switch CFile.open(readingFrom: path) {
            case .success(let f): file = f
            case .failure(let e): throw .cannotOpen(path: name, reason: e.description)
            }
        }
        try self.init(file: file, name: name, options: options)
    }

    /// Reads an image held in memory (a download, a fuzzer's input), as `init(path:)` reads
    /// a file: the bytes are copied and read through a `fmemopen` stream.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - name: what messages call it.
    ///   - options: orientation, leniency and limits.
    public convenience init(bytes: [UInt8], name: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) {
        let file: CFile
        switch CFile.open(bytes: bytes) {
        case .success(let f): file = f
        case .failure(let e): throw .readFailed(path: name, reason: e.description)
        }
        try self.init(file: file, name: name, options: options)
    }

    /// Sniffs the format of an open stream and reads the header.
    init(file: CFile, name: String, options: DecodeOptions) throws(DecodeError) {
        self.path = name
        self.options = options
        let head = file.read(upTo: ImageFormat.sniffLength)
        if head.isEmpty { throw .empty(path: name) }
        guard file.rewind() else { throw .readFailed(path: name, reason: "cannot seek back to the start") }

        let size: PixelSize, format: PixelFormat, exif: [UInt8]?, details: ImageHeader.Details
        switch ImageFormat.sniff(head) {
        case .supported(.png):
            let r = try PNGReader(file: file, path: name, options: options)
            backend = .png(r)
            (size, format, exif, details) = (r.size, r.format, r.exif, .png(r.details))
        case .supported(.jpeg):
            let r = try JPEGReader(file: file, path: name, options: options)
            if r.details.precision != 8 {
                throw .unsupportedVariant(path: name, what: "\(r.details.precision)-bit JPEG; only 8-bit JPEG is supported")
            }
            backend = .jpeg(r)
            (size, format, exif, details) = (r.size, r.format, r.exif, .jpeg(r.details))
        case .unsupported(let what): throw .unsupportedFormat(path: name, format: what)
        case .text: throw .notAnImage(path: name, what: "the file is text")
        case .unknown: throw .notAnImage(path: name, what: "unrecognised leading bytes")
        }
        if size.width <= 0 || size.height <= 0 {
            throw .corrupt(path: name, detail: "image size \(size) has no pixels")
        }
        try options.checkPixels(size, path: name)
        let value = exif.flatMap { EXIF.orientationValue(in: $0) }
        let orientation = options.autoOrient ? (value.flatMap { Orientation(rawValue: $0) } ?? .up) : .up
        header = ImageHeader(format: details.format, storedSize: size, pixelFormat: format,
                             exifOrientationValue: value, orientation: orientation, details: details)
    }

    /// Decodes stored-pixel rectangles in one pass over the file.
    ///
    /// JPEG: libjpeg delivers only the union of the columns (jpeg_crop_scanline), skips the
    /// rows above (jpeg_skip_scanlines) and stops after the last row needed. PNG: rows are
    /// streamed one at a time and reading stops after the last row needed (interlaced PNGs
    /// are decoded whole: Adam7 scatters every row across seven passes).
    /// - Parameter rects: non-empty rectangles inside the stored image.
    /// - Returns: one image per rectangle, in stored orientation.
    /// - Throws: `DecodeError` on corrupt or truncated data (unless lenient).
    public func readStored(_ rects: [PixelRect]) throws(DecodeError) -> [Image] {
        precondition(!consumed, "an ImageReader decodes once")
        consumed = true
        let bounds = PixelRect(size: header.storedSize)
        precondition(rects.allSatisfy { !$0.isEmpty && $0.intersection(bounds) == $0 }, "region outside image")
        guard let union = rects.dropFirst().reduce(rects.first, { $0?.union($1) }) else { return [] }
        var outputs = rects.map { Image(width: $0.width, height: $0.height, format: header.pixelFormat) }
        let c = header.pixelFormat.channels

        switch backend {
        case .jpeg(let r):
            // libjpeg-turbo's fancy upsampling treats the edges of a jpeg_crop_scanline
            // crop as image edges, so the crop's first and last columns come out wrong (up
            // to 27 levels seen on 4:2:0). One spare column left and two right (a 1-2 column
            // crop also switches upsampler) give pixels identical to a full decode.
            let width = header.storedSize.width
            let columns = max(0, union.x - 1)..<min(width, union.maxX + 2)
            let (firstColumn, rowWidth) = try r.start(denominator: 1, columns: columns)
            try r.skip(rows: union.y)
            let rowBytes = rowWidth * c
            var row = [UInt8](repeating: 0, count: rowBytes)
            for y in union.y..<union.maxY {
                let got = try row.withMutableBytes { buffer throws(DecodeError) in
                    try r.read(into: buffer, rows: 1, rowBytes: rowBytes, warnings: &warnings)
                }
                if got == 0 { break }  // lenient and the data ended: the rest stays zero
                distribute(row: row, y: y, firstColumn: firstColumn, rects: rects, into: &outputs, channels: c)
            }
            if r.warningCount > 0 && warnings.isEmpty {
                warnings.append("\(r.warningCount) corrupt-data warning(s): \(r.lastMessage)")
            }
        case .png(let r) where !r.details.interlaced:
            var row = [UInt8](repeating: 0, count: header.storedSize.width * c)
            for y in 0..<union.maxY {
                let got = try row.withMutableBytes { buffer throws(DecodeError) in
                    try r.readRows(into: buffer, count: 1, lenient: options.lenient, warnings: &warnings)
                }
                if got == 0 { break }
                if y >= union.y {
                    distribute(row: row, y: y, firstColumn: 0, rects: rects, into: &outputs, channels: c)
                }
            }
        case .png(let r):
            let full = try readInterlaced(r)
            let stride = header.storedSize.width * c
            outputs = rects.map { rect in
                var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * c)
                pixels.withUnsafeMutableBytes { out in
                    for row in 0..<rect.height {
                        let src = full.bytes.baseAddress!.advanced(by: (rect.y + row) * stride + rect.x * c)
                        out.baseAddress!.advanced(by: row * rect.width * c).copyMemory(from: src, byteCount: rect.width * c)
                    }
                }
                return Image(width: rect.width, height: rect.height, format: header.pixelFormat, pixels: pixels)
            }
        }
        return outputs
    }

    /// Decodes upright rectangles: each is mapped to the stored pixels, only those are
    /// decoded, and the result is turned upright.
    /// - Parameter rects: non-empty rectangles inside the upright image.
    /// - Returns: one upright image per rectangle.
    public func readUpright(_ rects: [PixelRect]) throws(DecodeError) -> [Image] {
        let o = header.orientation
        let stored = rects.map { o.storedRect(forUpright: $0, stored: header.storedSize) }
        return try readStored(stored).map { $0.oriented(o) }
    }

    /// Decodes the whole upright image.
    public func readImage() throws(DecodeError) -> Image {
        try readUpright([PixelRect(size: header.uprightSize)])[0]
    }

    /// Decodes the whole image reduced by 1/`denominator` (1, 2, 4 or 8) where the codec
    /// can do it while decoding (JPEG DCT scaling), upright.
    /// - Returns: the image and the denominator actually applied (PNG: always 1).
    public func readReduced(denominator: Int) throws(DecodeError) -> (Image, Int) {
        guard case .jpeg(let r) = backend, denominator > 1 else { return (try readImage(), 1) }
        precondition(!consumed, "an ImageReader decodes once")
        consumed = true
        let size = JPEGReader.scaledSize(header.storedSize, denominator: denominator)
        let c = header.pixelFormat.channels
        _ = try r.start(denominator: denominator, columns: nil)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * c)
        let rowBytes = size.width * c
        _ = try pixels.withMutableBytes { buffer throws(DecodeError) in
            try r.read(into: buffer, rows: size.height, rowBytes: rowBytes, warnings: &warnings)
        }
        let image = Image(width: size.width, height: size.height, format: header.pixelFormat, pixels: pixels)
        return (image.oriented(header.orientation), denominator)
    }

    /// The DCT-scaling denominator (1, 2, 4, 8) that reduces the stored image the most while
    /// keeping it at least `minimum` in both dimensions (JPEG only; PNG is always 1).
    /// - Parameter minimum: the smallest acceptable stored-orientation size.
    public func reductionDenominator(keepingAtLeast minimum: PixelSize) -> Int {
        guard header.format == .jpeg else { return 1 }
        var best = 1
        for d in [2, 4, 8] {
            let s = JPEGReader.scaledSize(header.storedSize, denominator: d)
            if s.width >= minimum.width && s.height >= minimum.height { best = d }
        }
        return best
    }

    /// Starts reading the stored image row by row, reduced by 1/`denominator` where the
    /// codec can (JPEG DCT scaling; PNG ignores it). Nothing holds the whole image, except
    /// for interlaced PNGs (Adam7 spreads every row over seven passes).
    /// - Parameter denominator: 1, 2, 4 or 8.
    /// - Returns: the size of the rows `readNextRow` will deliver.
    /// - Throws: `DecodeError`.
    public func beginRows(denominator: Int) throws(DecodeError) -> PixelSize {
        precondition(!consumed, "an ImageReader decodes once")
        consumed = true
        let c = header.pixelFormat.channels
        switch backend {
        case .jpeg(let r):
            let size = JPEGReader.scaledSize(header.storedSize, denominator: denominator)
            _ = try r.start(denominator: denominator, columns: nil)
            rowStream = RowStream(size: size, next: 0, buffered: nil)
        case .png(let r) where r.details.interlaced:
            rowStream = RowStream(size: header.storedSize, next: 0, buffered: try readInterlaced(r))
        case .png:
            rowStream = RowStream(size: header.storedSize, next: 0, buffered: nil)
        }
        return rowStream!.size
    }

    /// Reads the next stored row (`size.width * channels` bytes) after `beginRows`.
    /// - Returns: false when no row came (the end, or lenient and the data broke off).
    /// - Throws: `DecodeError` on corrupt or truncated data (unless lenient).
    public func readNextRow(into row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> Bool {
        guard var stream = rowStream, stream.next < stream.size.height else { return false }
        let rowBytes = stream.size.width * header.pixelFormat.channels
        let buffer = UnsafeMutableRawBufferPointer(start: row, count: rowBytes)
        let got: Int
        switch backend {
        case .jpeg(let r):
            got = try r.read(into: buffer, rows: 1, rowBytes: rowBytes, warnings: &warnings)
        case .png(let r):
            if let full = stream.buffered {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: full.bytes[(stream.next * rowBytes)...].prefix(rowBytes)))
                got = 1
            } else {
                got = try r.readRows(into: buffer, count: 1, lenient: options.lenient, warnings: &warnings)
            }
        }
        stream.next += got
        rowStream = got == 0 ? nil : stream
        return got == 1
    }

    /// Decodes the whole image, or an upright `window` of it, resampled to `target` (upright
    /// size), the fast way: JPEG DCT scaling to the smallest scale that keeps the window at
    /// least `headroom` times the target, optionally a box average of whole blocks down to
    /// that size too, rows pulled one at a time into the resampler in stored orientation,
    /// and only the small result turned upright.
    /// - Parameters:
    ///   - target: the upright output size.
    ///   - window: the upright source region shown (sub-pixel allowed); nil for all of it.
    ///   - filter: the kernel (a reduction stretches it by the scale: alias-free).
    ///   - headroom: keep the reduced window at least this many times the target.
    ///     DCT scaling and box averaging alias; 2 leaves the filter a factor of 2 to
    ///     remove that, as vipsthumbnail does (measured on real photos against a Lanczos
    ///     reduction of the full decode: 30 dB at 1, 42 dB at 2, on the worst one).
    ///   - boxShrink: also average whole blocks of rows and columns (PNG, or what DCT
    ///     scaling left) before the filter: a large reduction then costs one addition per
    ///     source sample instead of a wide kernel.
    /// - Returns: the upright image at `target` size, and the DCT denominator used.
    public func readResampled(to target: PixelSize, window: Rect? = nil, filter: ResampleFilter,
                              headroom: Int = 1, boxShrink: Bool = false) throws(DecodeError) -> (Image, Int) {
        let o = header.orientation
        let stored = header.storedSize
        let storedTarget = o.swapsAxes ? target.transposed : target
        let region = window.map { o.storedRect(forUpright: $0, stored: stored) }
            ?? Rect(x: 0, y: 0, width: Double(stored.width), height: Double(stored.height))
        // The whole image must stay this large for the region to stay at least the target
        // (the epsilon keeps an exact fit exact: 256 * 6016 / 6016 is not always 256.0).
        let k = Double(max(1, headroom))
        let minimum = PixelSize(width: Int((k * Double(storedTarget.width) * Double(stored.width) / region.width - 1e-9).rounded(.up)),
                                height: Int((k * Double(storedTarget.height) * Double(stored.height) / region.height - 1e-9).rounded(.up)))
        let d = reductionDenominator(keepingAtLeast: minimum)
        let size = try beginRows(denominator: d)
        let fx = Double(size.width) / Double(stored.width), fy = Double(size.height) / Double(stored.height)
        // Whole blocks that still keep the region at least `headroom` times the target.
        func factor(_ regionLength: Double, _ targetLength: Int) -> Int {
            guard boxShrink else { return 1 }
            return min(BoxShrink.maximumFactor, max(1, Int(regionLength / (k * Double(targetLength)))))
        }
        let bx = factor(region.width * fx, storedTarget.width), by = factor(region.height * fy, storedTarget.height)
        let box = BoxShrink(source: size, factorX: bx, factorY: by, format: header.pixelFormat)
        // Source x maps to DCT-scaled x * fx, then to box x * fx / bx (blocks start at 0).
        let sx = fx / Double(bx), sy = fy / Double(by)
        try options.checkMemory(Resampler.memoryNeeded(source: box.outputSize, output: storedTarget,
                                                       stepX: region.width * sx / Double(storedTarget.width),
                                                       stepY: region.height * sy / Double(storedTarget.height),
                                                       channels: header.pixelFormat.channels, filter: filter), path: path)
        let resampler = Resampler(source: box.outputSize, output: storedTarget, originX: region.x * sx, originY: region.y * sy,
                                  stepX: region.width * sx / Double(storedTarget.width),
                                  stepY: region.height * sy / Double(storedTarget.height),
                                  format: header.pixelFormat, filter: filter)
        var failure: DecodeError?
        let pull: (UnsafeMutablePointer<UInt8>) -> Bool = { row in
            do throws(DecodeError) { return try self.readNextRow(into: row) } catch {
                failure = error
                return false
            }
        }
        let next = bx == 1 && by == 1 ? pull : box.rows(pulling: pull)
        let small = resampler.run { _, row in next(row) }
        if let failure { throw failure }
        return (small.oriented(o), d)
    }

    /// Decodes a whole interlaced PNG (Adam7 spreads every row over seven passes) into a
    /// zeroed buffer from `calloc`: the pages of a large one are mapped lazily, so a header
    /// that promises a big interlaced image and then breaks off costs only the rows that
    /// really decoded, not the whole size at once.
    private func readInterlaced(_ r: PNGReader) throws(DecodeError) -> ZeroedBuffer {
        let size = header.storedSize
        let count = size.width * size.height * header.pixelFormat.channels
        guard let full = ZeroedBuffer(count: count) else {
            throw .readFailed(path: path, reason: "out of memory for the \(DecodeError.mebibytes(Int64(count))) MiB interlaced image")
        }
        try r.readInterlaced(into: full.bytes, lenient: options.lenient, warnings: &warnings)
        return full
    }

    /// Copies the parts of one decoded row that fall in each rectangle.
    private func distribute(row: [UInt8], y: Int, firstColumn: Int, rects: [PixelRect], into outputs: inout [Image], channels c: Int) {
        row.withUnsafeBytes { src in
            for (i, rect) in rects.enumerated() where y >= rect.y && y < rect.maxY {
                let start = (rect.x - firstColumn) * c
                let dst = (y - rect.y) * rect.width * c
                outputs[i].pixels.withUnsafeMutableBytes { out in
                    out.baseAddress!.advanced(by: dst).copyMemory(from: src.baseAddress!.advanced(by: start), byteCount: rect.width * c)
                }
            }
        }
    }
}

extension ImageHeader.Details {
    var format: ImageFormat {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        }
    }
}
