import FZImage
import FZMetadata
import Geometry

/// Reads one image of any format a decoder exists for: the header on open, then the pixels
/// of chosen regions in one pass, or the rows one at a time (for the reduction pipeline in
/// `Resample/`), decoding no more rows (and, where the format can, columns) than needed.
///
/// Format-specific work lives in the decoders (`ImageDecoder`); this type only maps the
/// orientation, checks limits common to every format and cuts regions out of rows.
public final class ImageReader {
    /// The input as named in messages ("<stdin>" for "-").
    public let path: String
    public let header: ImageHeader
    public let options: DecodeOptions
    /// The opened input (its identity protects it from being overwritten).
    public let source: ImageSource
    /// Problems decoding skipped past (only with `lenient`).
    public var warnings: [String] { decoder.warnings }

    package let decoder: any ImageDecoder
    /// Whether the pixels (or a probe that reads the file again) were read: a reader decodes once.
    package var consumed = false
    /// Row-by-row reading state (`beginRows`).
    private var rowsLeft = 0
    private var rowBytes = 0

    /// Reads the header of an opened input with `type`, the decoder the registry chose for its
    /// first bytes (FZCodecs' `init(source:options:)` chooses; a format's own code may name
    /// its decoder, as RAW's preview does).
    package init(source: ImageSource, options: DecodeOptions, decoder type: any ImageDecoder.Type) throws(DecodeError) {
        let name = source.name
        path = name
        self.options = options
        self.source = source
        let d: any ImageDecoder
        do { d = try type.init(source: source, options: options) } catch {
            throw source.remoteFailure(or: error).given(lenient: options.lenient)
        }
        decoder = d
        // Only a decoder that reads animations has frames past the first (it checks the number).
        if options.frame > 1 && !type.registration.capabilities.contains(.frames) {
            throw .noSuchFrame(path: name, frame: options.frame, frames: 1, option: options.frameOption)
        }
        let size = d.storedSize
        if size.width <= 0 || size.height <= 0 {
            throw .corrupt(path: name, detail: "image size \(size) has no pixels")
        }
        try options.checkPixels(size, path: name)
        let value = d.orientationValue
        let applies = options.autoOrient && d.exifOrientationApplies
        let orientation = applies ? (value.flatMap { Orientation(rawValue: $0) } ?? .up) : .up
        header = ImageHeader(
            format: type.format, storedSize: size, pixelFormat: d.pixelFormat, bitDepth: d.bitDepth,
            exifOrientationValue: value, orientation: orientation, color: d.color, details: d.details)
    }

    /// Decodes stored-pixel rectangles in one pass over the file: the decoder is asked for
    /// the union of their columns, skips the rows above, and stops after the last row needed.
    /// - Parameter rects: non-empty rectangles inside the stored image.
    /// - Returns: one image per rectangle, in stored orientation.
    /// - Throws: `DecodeError` on corrupt or truncated data (unless lenient).
    public func readStored(_ rects: [PixelRect]) throws(DecodeError) -> [Image] {
        try saying { () throws(DecodeError) in try readStoredPieces(rects) }
    }

    /// An error of `body` as said under this reader's --lenient (`DecodeError.given`).
    private func saying<T>(_ body: () throws(DecodeError) -> T) throws(DecodeError) -> T {
        // A URL's failure (issue 52) in place of the truncation a decoder saw.
        do { return try body() } catch { throw source.remoteFailure(or: error).given(lenient: options.lenient) }
    }

    private func readStoredPieces(_ rects: [PixelRect]) throws(DecodeError) -> [Image] {
        let bounds = PixelRect(size: header.storedSize)
        precondition(rects.allSatisfy { !$0.isEmpty && $0.intersection(bounds) == $0 }, "region outside image")
        // A decoder that reads regions better than rows (the tiles of an HEIF grid).
        if !rects.isEmpty, let images = try decoder.readRegions(rects) {
            consumed = true
            return images
        }
        let pieces = try readPieces(rects, deep: false)
        return zip(rects, pieces).map {
            Image(width: $0.width, height: $0.height, format: header.pixelFormat, pixels: $1)
        }
    }

    /// Whether the image has samples deeper than 8 bits that its decoder can keep
    /// (`.deepSamples`: a 16-bit PNG, a 10- or 12-bit HEIF), for `readStored16`.
    public var hasDeepSamples: Bool {
        header.bitDepth > 8 && type(of: decoder).registration.capabilities.contains(.deepSamples)
    }

    /// Whether the file is a video (`.movingPictures`): `info` asks whether it is a Live
    /// Photo's movie.
    public var isVideo: Bool { type(of: decoder).registration.capabilities.contains(.movingPictures) }

    /// Decodes stored-pixel rectangles at full depth (16 bits a sample) in one pass, as
    /// `readStored` does, from an image with `hasDeepSamples`.
    public func readStored16(_ rects: [PixelRect]) throws(DecodeError) -> [Image16] {
        try saying { () throws(DecodeError) in try readStored16Pieces(rects) }
    }

    private func readStored16Pieces(_ rects: [PixelRect]) throws(DecodeError) -> [Image16] {
        let bounds = PixelRect(size: header.storedSize)
        precondition(rects.allSatisfy { !$0.isEmpty && $0.intersection(bounds) == $0 }, "region outside image")
        // A decoder that reads regions better than rows (the tiles of an HEIF grid).
        if !rects.isEmpty, let images = try decoder.readDeepRegions(rects) {
            precondition(!consumed, "an ImageReader decodes once")
            consumed = true
            return images
        }
        let pieces = try readPieces(rects, deep: true)
        return zip(rects, pieces).map {
            Image16(width: $0.width, height: $0.height, format: header.pixelFormat, bytes: $1)
        }
    }

    /// The samples of each rectangle, rows packed, 1 or (`deep`) 2 bytes a sample.
    private func readPieces(_ rects: [PixelRect], deep: Bool) throws(DecodeError) -> [[UInt8]] {
        let bounds = PixelRect(size: header.storedSize)
        precondition(rects.allSatisfy { !$0.isEmpty && $0.intersection(bounds) == $0 }, "region outside image")
        guard let union = rects.dropFirst().reduce(rects.first, { $0?.union($1) }) else { return [] }
        let c = header.pixelFormat.channels * (deep ? 2 : 1)
        var outputs = rects.map { [UInt8](repeating: 0, count: $0.width * $0.height * c) }
        let columns = union.x..<union.maxX
        let layout: RowLayout
        if deep {
            precondition(!consumed, "an ImageReader decodes once")
            consumed = true
            guard let l = try decoder.beginDeep(columns: columns) else {
                throw .unsupportedVariant(path: path, what: "\(header.bitDepth)-bit image for a 16-bit read")
            }
            layout = l
        } else {
            layout = try begin(denominator: 1, columns: columns)
        }
        try decoder.skip(rows: union.y)
        var row = [UInt8](repeating: 0, count: layout.width * c)
        for y in union.y..<union.maxY {
            let got = try row.withMutableBytes { buffer throws(DecodeError) in try decoder.read(into: buffer, rows: 1) }
            if got == 0 { break }  // lenient and the data ended: the rest stays zero
            row.withUnsafeBytes { src in
                for (i, rect) in rects.enumerated() where y >= rect.y && y < rect.maxY {
                    let start = (rect.x - layout.firstColumn) * c
                    outputs[i].withUnsafeMutableBytes { out in
                        out.baseAddress!.advanced(by: (y - rect.y) * rect.width * c)
                            .copyMemory(from: src.baseAddress!.advanced(by: start), byteCount: rect.width * c)
                    }
                }
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

    /// The upright sizes of the embedded thumbnails (HEIF `thmb` items), smallest first.
    public var embeddedThumbnailSizes: [PixelSize] { decoder.embeddedThumbnails.sorted { $0.area < $1.area } }

    /// The smallest embedded thumbnail at least `minimum` in both dimensions that shows the
    /// whole upright picture (its aspect within a pixel of the image's), decoded whole and
    /// upright; nil when there is none.
    public func readEmbeddedThumbnail(atLeast minimum: PixelSize) throws(DecodeError) -> Image? {
        let up = header.uprightSize
        let tolerance = decoder.embeddedThumbnailShapeTolerance
        let candidates = decoder.embeddedThumbnails.enumerated().filter { _, t in
            // The same picture: its shape within 2 pixels of the image's (encoders round a
            // thumbnail's short side either way, and libheif's to an even number), or within
            // the decoder's tolerance.
            let allowed = max(2 * max(up.width, up.height), Int(tolerance * Double(t.width * up.height)))
            return t.width >= minimum.width && t.height >= minimum.height && t.width < up.width
                && abs(t.height * up.width - t.width * up.height) <= allowed
        }
        guard let (index, _) = candidates.min(by: { $0.element.area < $1.element.area }) else { return nil }
        try options.checkPixels(decoder.embeddedThumbnails[index], path: path)
        return try saying { () throws(DecodeError) in try decoder.decodeEmbeddedThumbnail(index) }
    }

    /// The decoding reduction (1/d, from what the decoder offers: JPEG's DCT scaling) that
    /// reduces the stored image the most while keeping it at least `minimum` in both
    /// dimensions; 1 when the decoder cannot reduce.
    public func reductionDenominator(keepingAtLeast minimum: PixelSize) -> Int {
        var best = 1
        for d in decoder.denominators where d > 1 {
            let s = decoder.scaledSize(denominator: d)
            if s.width >= minimum.width && s.height >= minimum.height { best = d }
        }
        return best
    }

    /// Starts reading the whole stored image row by row, reduced by 1/`denominator` (one of
    /// the decoder's, see `reductionDenominator`).
    /// - Returns: the size of the rows `readNextRow` will deliver.
    public func beginRows(denominator: Int) throws(DecodeError) -> PixelSize {
        let layout = try saying { () throws(DecodeError) in try begin(denominator: denominator, columns: nil) }
        rowsLeft = layout.height
        rowBytes = layout.width * header.pixelFormat.channels
        return PixelSize(width: layout.width, height: layout.height)
    }

    /// Starts reading the whole stored image row by row, averaged over whole blocks of
    /// `factorX` x `factorY` pixels by the decoder itself, as `BoxShrink` averages (HEIF grids
    /// average in Y'CbCr, before converting); nil when the decoder does not (nothing started:
    /// call `beginRows`).
    /// - Returns: the size of the reduced rows `readNextRow` will deliver.
    public func beginBlockRows(factorX: Int, factorY: Int) throws(DecodeError) -> PixelSize? {
        precondition(!consumed, "an ImageReader decodes once")
        let blocks = try saying { () throws(DecodeError) in try decoder.beginBlocks(factorX: factorX, factorY: factorY)
        }
        guard let layout = blocks else { return nil }
        consumed = true
        rowsLeft = layout.height
        rowBytes = layout.width * header.pixelFormat.channels
        return PixelSize(width: layout.width, height: layout.height)
    }

    /// Reads the next stored row (`size.width * channels` bytes) after `beginRows`.
    /// - Returns: false when no row came (the end, or lenient and the data broke off).
    /// - Throws: `DecodeError` on corrupt or truncated data (unless lenient).
    public func readNextRow(into row: UnsafeMutablePointer<UInt8>) throws(DecodeError) -> Bool {
        guard rowsLeft > 0 else { return false }
        let got = try saying { () throws(DecodeError) in
            try decoder.read(into: UnsafeMutableRawBufferPointer(start: row, count: rowBytes), rows: 1)
        }
        rowsLeft = got == 1 ? rowsLeft - 1 : 0
        return got == 1
    }

    /// The EXIF and XMP the file carries, as read.
    public var metadata: ImageMetadata { ImageMetadata(exif: decoder.exif, xmp: decoder.xmp, iptc: decoder.iptc) }

    /// Whether the pixels this reader delivers are upright: the EXIF orientation was
    /// applied, or the decoder applies the format's own (HEIF's irot/imir). An output's
    /// copy of the orientation tag is then 1.
    public var deliversUpright: Bool { options.autoOrient || !decoder.exifOrientationApplies }

    /// A reader decodes once: the decoder's stream moves forward only.
    private func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        precondition(!consumed, "an ImageReader decodes once")
        consumed = true
        return try decoder.begin(denominator: denominator, columns: columns)
    }
}

extension ImageReader {
    /// A new reader of the same input from its start (a reader decodes once: a reduced decode
    /// to find where to look, then the decode that crops). Standard input is held in memory,
    /// so it rewinds too.
    /// - Throws: `DecodeError` when the input cannot be read again from its start.
    public func reopened() throws(DecodeError) -> ImageReader {
        guard source.file.rewind() else {
            throw .corrupt(path: path, detail: "cannot be read a second time from its start")
        }
        return try ImageReader(source: source, options: options, decoder: type(of: decoder))
    }
}
