// Length: over 300 lines on purpose: the one Swift file that owns libwebp's pointers (the
// incremental decoder, the animation demuxer, the encoder).

import CWebP
import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// What a WebP file's container and bitstream headers say.
public struct WebPDetails: Hashable, Sendable {
    /// The first frame's coding: "lossy" (VP8), "lossless" (VP8L), or "mixed" when libwebp
    /// cannot tell (`animated` and `frames` say whether more frames follow).
    public var compression: String
    /// "simple" (a bare VP8/VP8L chunk) or "extended" (VP8X).
    public var container: String
    public var hasAlpha: Bool
    public var animated: Bool
    public var frameCount: Int
    public var hasICC: Bool
    public var hasEXIF: Bool
    public var hasXMP: Bool
}

/// WebP through libwebp (every libwebp pointer lives in this file): lossy, lossless and
/// alpha, still images decoded incrementally (`WebPIDecoder`) so a crop stops feeding data
/// and decoding after its last row; the column window is libwebp's own crop (no colour
/// conversion outside it). Animations: the first frame (or `DecodeOptions.frame`), composited
/// by `WebPAnimDecoder`.
///
/// The whole file is read into memory first (its size checked against the memory limit):
/// the EXIF chunk, which carries the orientation, comes after the image data.
package final class WebPDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .webp, names: ["WebP"], extensions: ["webp"], capabilities: [.alpha, .frames, .exif, .icc])
    package static func sniff(_ head: [UInt8]) -> Bool {
        head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8)
    }

    package let storedSize: PixelSize
    package let pixelFormat: PixelFormat
    package var bitDepth: Int { 8 }
    /// Still images decode reduced through libwebp's rescaler (area-averaging, as vips's
    /// webpload `shrink` does), so a thumbnail never holds the full-size image; animations
    /// composite at full size.
    package var denominators: [Int] { webp.animated ? [1] : [1, 2, 4, 8] }
    package func scaledSize(denominator d: Int) -> PixelSize {
        PixelSize(width: (storedSize.width + d - 1) / d, height: (storedSize.height + d - 1) / d)
    }
    package let exif: [UInt8]?
    /// The XMP chunk's packet.
    package let xmp: [UInt8]?
    /// The ICCP chunk's profile.
    let icc: [UInt8]?
    private let webp: WebPDetails
    package var details: any CodecDetails { webp }
    package var color: ColorDescription {
        var c = ColorDescription()
        c.hasICC = webp.hasICC
        c.icc = icc
        return c
    }
    package private(set) var warnings: [String] = []

    private let path: String
    private let lenient: Bool
    private let options: DecodeOptions
    /// The file's bytes (libwebp reads them in place while decoding incrementally).
    private let data: UnsafeMutableRawBufferPointer
    /// How many of `data`'s bytes the RIFF header says make up the file.
    private let riffLength: Int
    /// Set when the file ends before its RIFF size says (it was cut): the error a decode
    /// that otherwise ends well gives (see `decode(untilRows:)`).
    private let cutShort: DecodeError?

    /// Decoded rows, `layout.width * channels` bytes each, `layout.height` of them.
    private var output: ZeroedBuffer?
    private var rowBytes = 0
    /// The reduced size libwebp rescales to; nil at full size.
    private var scaled: PixelSize?
    private var layout = RowLayout(firstColumn: 0, width: 0, height: 0)
    /// The incremental decoder (still images) and how many bytes it has been given.
    private var idec: OpaquePointer?
    /// The incremental decoder's configuration: libwebp keeps pointers to its options and
    /// output buffer, so it lives (on the heap) as long as the decoder.
    private var config: UnsafeMutablePointer<WebPDecoderConfig>?
    private var fed = 0
    /// Rows fully decoded into `output`; after the end or a lenient failure, all there will be.
    private var available = 0
    private var finished = false
    /// The next row `read` hands out.
    private var next = 0

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        path = source.name
        lenient = options.lenient
        self.options = options
        let head = source.head
        guard head.count >= 12 else {
            throw .truncatedHeader(path: path, detail: "\(head.count) bytes, no RIFF header")
        }
        let (bytes, limit) = try Self.readRIFF(source, head: head, options: options, path: path)
        riffLength = min(bytes.count, limit)
        // Bytes past the RIFF end are ignored, as dwebp does; fewer bytes than it claims mean
        // the file was cut, even where every chunk that is there ends whole (dwebp: "Status:
        // 7 (NOT_ENOUGH_DATA)"); a file cut inside its image data fails on its own.
        cutShort =
            bytes.count < limit
            ? .truncated(path: path, detail: "the RIFF header says \(limit) bytes, the file ends after \(bytes.count)")
            : nil
        guard let memory = malloc(max(bytes.count, 1)) else {
            throw .readFailed(path: path, reason: "out of memory for the \(bytes.count)-byte file")
        }
        let buffer = UnsafeMutableRawBufferPointer(start: memory, count: bytes.count)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        data = buffer
        let truncatedFile = bytes.count < limit

        var webpData = WebPData(bytes: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), size: riffLength)
        let demux = try Self.openDemux(
            &webpData, memory: memory, fileBytes: bytes.count, truncatedFile: truncatedFile, path: path)
        defer { WebPDemuxDelete(demux) }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        let frames = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        storedSize = PixelSize(width: width, height: height)
        let animated = flags & ANIMATION_FLAG.rawValue != 0

        // The bitstream's own header: lossy or lossless, alpha (first frame for animations).
        var alpha = flags & ALPHA_FLAG.rawValue != 0
        var compression = "mixed"
        if let features = Self.firstFrameFeatures(demux) {
            compression = features.format == 1 ? "lossy" : features.format == 2 ? "lossless" : "mixed"
            // webpmux sets VP8X's alpha flag for any VP8L image; the bitstream says whether alpha is used.
            if !animated { alpha = features.has_alpha != 0 }
            if !animated && (Int(features.width) != width || Int(features.height) != height) {
                free(memory)
                throw .corruptHeader(
                    path: source.name,
                    detail: "the canvas is \(storedSize) but the image is \(features.width)x\(features.height)")
            }
        }
        // `compression` stays the first frame's coding (docs/json: lossy, lossless, mixed);
        // `animated` and `frames` say it is an animation.
        pixelFormat = alpha ? .rgba : .rgb

        // Some writers put JPEG's "Exif\0\0" before the TIFF header.
        var exifBlock = Self.chunk("EXIF", of: demux)
        if let e = exifBlock, e.starts(with: Array("Exif".utf8) + [0, 0]) { exifBlock = Array(e.dropFirst(6)) }
        exif = exifBlock
        xmp = flags & XMP_FLAG.rawValue != 0 ? Self.chunk("XMP ", of: demux) : nil
        icc = flags & ICCP_FLAG.rawValue != 0 ? Self.chunk("ICCP", of: demux) : nil
        webp = WebPDetails(
            compression: compression,
            container: head.count >= 16 && Array(head[12..<16]) == Array("VP8X".utf8) ? "extended" : "simple",
            hasAlpha: alpha, animated: animated, frameCount: max(frames, 1),
            hasICC: flags & ICCP_FLAG.rawValue != 0, hasEXIF: exifBlock != nil,
            hasXMP: flags & XMP_FLAG.rawValue != 0)
        if options.frame > webp.frameCount {
            throw .noSuchFrame(path: path, frame: options.frame, frames: webp.frameCount, option: options.frameOption)
        }
        if width <= 0 || height <= 0 { return }
        try options.checkPixels(storedSize, path: path)
        // libwebp's own buffers: lossless and animations hold the whole image as 32-bit ARGB
        // (an animation twice: the canvas and the previous one); lossy needs a few rows.
        let area = Int64(width) * Int64(height)
        let ownBuffers: Int64 = animated ? area * 8 : compression == "lossy" ? Int64(width) * 64 : area * 4
        try options.checkMemory(Int64(bytes.count) + ownBuffers, path: path)
    }

    /// Reads the file up to the end its RIFF header (`head`) declares: the bytes there are
    /// and that end (RIFF size + 8). The file is held whole, read in pieces (memory grows
    /// with the file, not with what RIFF claims): its size counts against the memory limit.
    /// Bytes after the RIFF end are ignored.
    private static func readRIFF(_ source: ImageSource, head: [UInt8], options: DecodeOptions, path: String)
        throws(DecodeError) -> (bytes: [UInt8], limit: Int)
    {
        let declared = Int(UInt32(head[4]) | UInt32(head[5]) << 8 | UInt32(head[6]) << 16 | UInt32(head[7]) << 24)
        let limit = declared &+ 8
        let memoryCap = options.maxMemory > 0 ? Int(min(options.maxMemory, Int64(Int.max / 2))) : Int.max / 2
        var bytes: [UInt8] = []
        while bytes.count < limit {
            let piece = source.file.read(upTo: min(1 << 16, limit - bytes.count))
            if piece.isEmpty { break }
            bytes += piece
            if bytes.count > memoryCap {
                throw .overMemoryLimit(path: path, needed: Int64(limit), limit: options.maxMemory)
            }
        }
        if declared % 2 == 1 || declared < 4 {
            throw .corruptHeader(path: path, detail: "RIFF size \(declared) is \(declared < 4 ? "too small" : "odd")")
        }
        return (bytes, limit)
    }

    /// The demuxer over the file's chunks (as far as they go). When the headers are cut short
    /// or do not parse, frees `memory` (the file's copy, which `init` has not handed over
    /// to `deinit` yet) and throws.
    private static func openDemux(
        _ webpData: inout WebPData, memory: UnsafeMutableRawPointer, fileBytes: Int, truncatedFile: Bool, path: String
    ) throws(DecodeError) -> OpaquePointer {
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demux = WebPDemuxPartial(&webpData, &state), state != WEBP_DEMUX_PARSE_ERROR else {
            let outside = Self.frameOutsideCanvas(UnsafeRawBufferPointer(start: webpData.bytes, count: webpData.size))
            free(memory)
            if state == WEBP_DEMUX_PARSING_HEADER || truncatedFile && state != WEBP_DEMUX_PARSE_ERROR {
                throw .truncatedHeader(path: path, detail: "the WebP headers end after \(fileBytes) bytes")
            }
            throw .corruptHeader(
                path: path, detail: outside ?? "the WebP chunks do not parse (bad chunk size or order)")
        }
        if state == WEBP_DEMUX_PARSING_HEADER {
            free(memory)
            WebPDemuxDelete(demux)
            throw .truncatedHeader(path: path, detail: "the WebP headers end after \(fileBytes) bytes")
        }
        return demux
    }

    /// Why libwebp's demuxer refused an animation whose chunks are whole, when it is a frame
    /// (ANMF) reaching past the VP8X canvas (the container forbids it; libwebp, and so
    /// Chrome, refuse the file): "frame 2 (16x16 at 16,16) lies outside the 16x16 canvas".
    static func frameOutsideCanvas(_ b: UnsafeRawBufferPointer) -> String? {
        func le24(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }
        func le32(_ i: Int) -> Int { le24(i) | Int(b[i + 3]) << 24 }
        guard b.count >= 30, b[12] == 0x56, b[13] == 0x50, b[14] == 0x38, b[15] == 0x58 else { return nil }
        let (cw, ch) = (le24(24) + 1, le24(27) + 1)
        var at = 12
        var frame = 0
        while at + 8 <= b.count {
            let size = le32(at + 4)
            let isANMF = b[at] == 0x41 && b[at + 1] == 0x4E && b[at + 2] == 0x4D && b[at + 3] == 0x46
            if isANMF, at + 20 <= b.count {
                frame += 1
                let (x, y) = (le24(at + 8) * 2, le24(at + 11) * 2)
                let (w, h) = (le24(at + 14) + 1, le24(at + 17) + 1)
                if x + w > cw || y + h > ch {
                    return "frame \(frame) (\(w)x\(h) at \(x),\(y)) lies outside the \(cw)x\(ch) canvas"
                }
            }
            at += 8 + size + (size & 1)
        }
        return nil
    }

    /// The first frame's bitstream features (VP8 or VP8L header), nil when there is no
    /// frame or its header does not parse.
    private static func firstFrameFeatures(_ demux: OpaquePointer) -> WebPBitstreamFeatures? {
        var features = WebPBitstreamFeatures()
        var iter = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &iter) != 0 else { return nil }
        defer { WebPDemuxReleaseIterator(&iter) }
        guard WebPGetFeatures(iter.fragment.bytes, iter.fragment.size, &features) == VP8_STATUS_OK else { return nil }
        return features
    }

    /// The first chunk named `name` ("EXIF", "XMP ", "ICCP"), copied.
    private static func chunk(_ name: String, of demux: OpaquePointer) -> [UInt8]? {
        var chunkIter = WebPChunkIterator()
        guard WebPDemuxGetChunk(demux, name, 1, &chunkIter) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&chunkIter) }
        return Array(UnsafeBufferPointer(start: chunkIter.chunk.bytes, count: chunkIter.chunk.size))
    }

    deinit {
        if let idec { WebPIDelete(idec) }
        config?.deallocate()
        free(data.baseAddress)
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        let c = pixelFormat.channels
        // libwebp crops from an even column (chroma is subsampled); one spare column each
        // side keeps the fancy upsampler's edge handling away from the columns asked for.
        let size = scaledSize(denominator: denominator)
        var first = 0
        var width = size.width
        scaled = denominator > 1 ? size : nil
        if let columns, denominator == 1 {  // a reduced decode delivers whole rows
            first = max(0, columns.lowerBound - 2) & ~1
            width = min(storedSize.width, columns.upperBound + 2) - first
        }
        layout = RowLayout(firstColumn: first, width: width, height: size.height)
        rowBytes = width * c
        let (bytes, overflow) = rowBytes.multipliedReportingOverflow(by: size.height)
        if overflow { throw .overMemoryLimit(path: path, needed: .max, limit: options.maxMemory) }
        try options.checkMemory(Int64(bytes) + Int64(data.count), path: path)
        guard let out = ZeroedBuffer(count: bytes) else {
            throw .readFailed(
                path: path, reason: "out of memory for the \(DecodeError.mebibytes(Int64(bytes))) MiB image")
        }
        output = out
        if webp.animated { try decodeFrame(options.frame, into: out) } else { try startIncremental(into: out) }
        return layout
    }

    /// Sets up the incremental decoder writing into `out`, cropped to the column window.
    private func startIncremental(into out: ZeroedBuffer) throws(DecodeError) {
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        self.config = config
        guard WebPInitDecoderConfig(config) != 0 else {
            throw .readFailed(path: path, reason: "libwebp version mismatch")
        }
        if scaled == nil && layout.width != storedSize.width {
            config.pointee.options.use_cropping = 1
            config.pointee.options.crop_left = Int32(layout.firstColumn)
            config.pointee.options.crop_top = 0
            config.pointee.options.crop_width = Int32(layout.width)
            config.pointee.options.crop_height = Int32(storedSize.height)
        }
        if let scaled {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(scaled.width)
            config.pointee.options.scaled_height = Int32(scaled.height)
        }
        config.pointee.output.colorspace = pixelFormat == .rgba ? MODE_RGBA : MODE_RGB
        config.pointee.output.is_external_memory = 1
        config.pointee.output.width = Int32(layout.width)
        config.pointee.output.height = Int32(layout.height)
        config.pointee.output.u.RGBA.rgba = out.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        config.pointee.output.u.RGBA.stride = Int32(rowBytes)
        config.pointee.output.u.RGBA.size = out.bytes.count
        guard let d = WebPIDecode(nil, 0, config) else {
            throw .readFailed(path: path, reason: "libwebp could not start decoding")
        }
        idec = d
    }

    /// Feeds the incremental decoder until `rows` rows are decoded (or the data ends).
    private func decode(untilRows rows: Int) throws(DecodeError) {
        guard let idec else { return }
        while available < rows && !finished {
            fed = min(riffLength, fed + (1 << 16))
            let status = WebPIUpdate(idec, data.baseAddress!.assumingMemoryBound(to: UInt8.self), fed)
            var lastY: Int32 = 0
            _ = WebPIDecGetRGB(idec, &lastY, nil, nil, nil)
            available = max(available, Int(lastY))
            switch status {
            case VP8_STATUS_OK:
                available = layout.height
                finished = true
                // The image decoded from the bytes there are, but the file is short of its
                // RIFF size: refused as truncated (lenient: kept, with the warning).
                if let cutShort { try fail(cutShort) }
            case VP8_STATUS_SUSPENDED:
                if fed < riffLength || available >= rows { continue }
                try fail(.truncated(path: path, detail: "the image data ends at row \(available) of \(layout.height)"))
            default:
                try fail(
                    .corrupt(
                        path: path, detail: "libwebp: \(Self.describe(status)) at row \(available) of \(layout.height)")
                )
            }
        }
    }

    /// Throws, or (lenient) keeps the rows decoded so far and says why.
    private func fail(_ error: DecodeError) throws(DecodeError) {
        guard lenient else { throw error }
        warnings.append(error.keptReason)
        finished = true
    }

    /// Decodes an animation's frame `number` (from 1) onto the canvas: libwebp composites the
    /// frames before it, as a player shows it.
    private func decodeFrame(_ number: Int, into out: ZeroedBuffer) throws(DecodeError) {
        var opts = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&opts) != 0 else {
            throw .readFailed(path: path, reason: "libwebp version mismatch")
        }
        opts.color_mode = MODE_RGBA
        opts.use_threads = 0
        var webpData = WebPData(bytes: data.baseAddress!.assumingMemoryBound(to: UInt8.self), size: riffLength)
        guard let dec = WebPAnimDecoderNew(&webpData, &opts) else {
            // libwebp reads an animation only whole: a short file is refused here.
            throw cutShort ?? .corrupt(path: path, detail: "libwebp cannot read the animation")
        }
        defer { WebPAnimDecoderDelete(dec) }
        var frame: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        for k in 1...max(1, number) {
            guard WebPAnimDecoderGetNext(dec, &frame, &timestamp) != 0 else {
                try fail(.corrupt(path: path, detail: "animation frame \(k) does not decode"))
                return
            }
        }
        guard let frame else { throw .corrupt(path: path, detail: "animation frame \(number) does not decode") }
        let c = pixelFormat.channels
        let w = storedSize.width
        let dst = out.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<storedSize.height {
            let src = frame + y * w * 4 + layout.firstColumn * 4
            let row = dst + y * rowBytes
            for x in 0..<layout.width {
                for k in 0..<c { row[x * c + k] = src[x * 4 + k] }
            }
        }
        available = layout.height
        finished = true
        if let cutShort { try fail(cutShort) }
        if webp.frameCount > 1 {
            warnings.append(
                number == 1
                    ? "animated WebP with \(webp.frameCount) frames: the first frame is used (--frame N picks another)"
                    : "animated WebP: frame \(number) of \(webp.frameCount) is used")
        }
    }

    package func skip(rows: Int) throws(DecodeError) { next = min(layout.height, next + max(0, rows)) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        try decode(untilRows: next + rows)
        let n = min(rows, available - next)
        guard n > 0, let output else { return 0 }
        buffer.baseAddress!.copyMemory(
            from: output.bytes.baseAddress!.advanced(by: next * rowBytes), byteCount: n * rowBytes)
        next += n
        return n
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data"
        default: return "status \(status.rawValue)"
        }
    }
}

extension WebPDecoder: AnimatedDecoder {
    package var animationFrameCount: Int { webp.animated ? webp.frameCount : 1 }

    /// The frames one by one, composited by libwebp's `WebPAnimDecoder` (its canvas and the
    /// previous one: two canvases, counted in `init`'s memory check); nil for a still.
    package func animation() throws(DecodeError) -> (any AnimationSource)? {
        guard webp.animated, webp.frameCount > 1 else { return nil }
        if let cutShort { throw cutShort }
        return try WebPAnimation(owner: self, bytes: data.baseAddress!, count: riffLength, path: path)
    }
}

/// An animated WebP's frames one at a time, as `WebPAnimDecoderGetNext` composites them
/// (every libwebp pointer stays in this file). Holds its decoder, whose copy of the file
/// libwebp reads in place.
final class WebPAnimation: AnimationSource {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    private let owner: WebPDecoder
    private let decoder: OpaquePointer
    private let path: String
    private var timestamp: Int32 = 0
    private var index = 0

    init(owner: WebPDecoder, bytes: UnsafeMutableRawPointer, count: Int, path: String) throws(DecodeError) {
        self.owner = owner
        self.path = path
        var opts = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&opts) != 0 else {
            throw .readFailed(path: path, reason: "libwebp version mismatch")
        }
        opts.color_mode = MODE_RGBA
        opts.use_threads = 0
        var webpData = WebPData(bytes: bytes.assumingMemoryBound(to: UInt8.self), size: count)
        guard let dec = WebPAnimDecoderNew(&webpData, &opts) else {
            throw .corrupt(path: path, detail: "libwebp cannot read the animation")
        }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(dec, &info) != 0 else {
            WebPAnimDecoderDelete(dec)
            throw .corrupt(path: path, detail: "libwebp cannot read the animation's header")
        }
        decoder = dec
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        frameCount = Int(info.frame_count)
        loopCount = Int(info.loop_count)
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    func next(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Bool {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return false }
        var frame: UnsafeMutablePointer<UInt8>?
        var end: Int32 = 0
        index += 1
        guard WebPAnimDecoderGetNext(decoder, &frame, &end) != 0, let frame else {
            throw DecodeError.corrupt(path: path, detail: "animation frame \(index) does not decode")
        }
        // libwebp gives each frame's end time: its delay is the step from the one before.
        let delay = Int(end) - Int(timestamp)
        timestamp = end
        try body(UnsafeRawBufferPointer(start: frame, count: canvasSize.width * canvasSize.height * 4), delay)
        return true
    }
}

extension ImageFormat {
    public static let webp = ImageFormat(rawValue: "WebP")
}

extension WebPDetails: CodecDetails {
    public var summary: [String] {
        var parts = [compression, container]
        if hasAlpha { parts.append("alpha") }
        if animated { parts.append("animated, \(frameCount) frame\(frameCount == 1 ? "" : "s")") }
        if hasICC { parts.append("ICC profile (not applied)") }
        if hasEXIF { parts.append("EXIF") }
        if hasXMP { parts.append("XMP") }
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(8)), ("compression", .string(compression)), ("container", .string(container)),
            ("alpha", .bool(hasAlpha)), ("animated", .bool(animated)), ("frames", .int(frameCount)),
            ("icc", .bool(hasICC)),
        ]
    }
}

/// WebP encoding through libwebp (its pointers stay in this file): lossy at a quality, or
/// lossless; an EXIF block is added in a VP8X container built here byte by byte (no
/// libwebpmux). Deterministic: the same pixels and settings give the same bytes.
package enum WebPEncoder {
    /// Encodes 8-bit pixels (gray is widened to RGB: WebP has no gray).
    /// - Parameters:
    ///   - quality: 1-100 for lossy (libwebp's quality factor); ignored when `lossless`.
    ///   - exif: a TIFF block (no "Exif\0\0" prefix) written as the EXIF chunk.
    package static func encode(
        _ image: Image, quality: Int, lossless: Bool, exif: [UInt8]?, icc: [UInt8]? = nil, xmp: [UInt8]? = nil,
        path: String
    ) throws(OutputError) -> [UInt8] {
        let source = image.format.isGray ? image.converted(to: image.format.hasAlpha ? .rgba : .rgb) : image
        let alpha = source.format.hasAlpha
        var output: UnsafeMutablePointer<UInt8>?
        let w = Int32(source.width)
        let h = Int32(source.height)
        let stride = Int32(source.width * source.format.channels)
        let count: Int = source.pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return 0 }
            switch (lossless, alpha) {
            case (true, true): return WebPEncodeLosslessRGBA(base, w, h, stride, &output)
            case (true, false): return WebPEncodeLosslessRGB(base, w, h, stride, &output)
            case (false, true): return WebPEncodeRGBA(base, w, h, stride, Float(quality), &output)
            case (false, false): return WebPEncodeRGB(base, w, h, stride, Float(quality), &output)
            }
        }
        guard count > 0, let output else {
            throw .writeFailed(
                path: path, reason: "libwebp could not encode the \(source.width)x\(source.height) image")
        }
        defer { WebPFree(output) }
        let webp = Array(UnsafeBufferPointer(start: output, count: count))
        if exif == nil && icc == nil && xmp == nil { return webp }
        return withChunks(webp, size: source.size, alpha: alpha, exif: exif, icc: icc, xmp: xmp)
    }

    /// A simple-format (or VP8X) WebP as an extended one with an ICCP chunk after VP8X
    /// (before the image data, as the container requires) and EXIF and XMP chunks after the image.
    package static func withChunks(
        _ webp: [UInt8], size: PixelSize, alpha: Bool, exif: [UInt8]?, icc: [UInt8]?, xmp: [UInt8]? = nil
    ) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] {
            [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)]
        }
        func le24(_ v: Int) -> [UInt8] { Array(le32(v).prefix(3)) }
        func chunk(_ name: String, _ data: [UInt8]) -> [UInt8] {
            Array(name.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
        }
        var image = Array(webp[12...])
        var vp8x: [UInt8]
        if image.starts(with: Array("VP8X".utf8)) {
            vp8x = Array(image.prefix(18))
            image = Array(image.dropFirst(18))
        } else {
            vp8x =
                Array("VP8X".utf8) + le32(10) + [alpha ? 0x10 : 0, 0, 0, 0] + le24(size.width - 1)
                + le24(size.height - 1)
        }
        if exif != nil { vp8x[8] |= 0x08 }
        if icc != nil { vp8x[8] |= 0x20 }
        if xmp != nil { vp8x[8] |= 0x04 }
        let body =
            Array("WEBP".utf8) + vp8x + (icc.map { chunk("ICCP", $0) } ?? []) + image
            + (exif.map { chunk("EXIF", $0) } ?? [])
            + (xmp.map { chunk("XMP ", $0) } ?? [])
        return Array("RIFF".utf8) + le32(body.count) + body
    }
}
