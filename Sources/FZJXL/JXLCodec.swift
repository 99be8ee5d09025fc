// Length: over 300 lines on purpose: the one Swift file that owns libjxl's pointers (the
// decoder's header pass and frame decode, the encoder, the thread runner).

import CFZJXL
import CJXL
import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// What a JPEG XL file's headers and boxes say (`JXLCodec.readFacts`).
struct JXLFacts {
    /// The size as coded, before the codestream orientation.
    var size = PixelSize(width: 0, height: 0)
    var bitsPerSample = 8
    /// Samples stored as floating point (`exponent_bits_per_sample` > 0).
    var floatSamples = false
    var colorChannels = 3
    var alphaBits = 0
    /// The codestream orientation, 1-8 as EXIF's.
    var orientation = 1
    var animated = false
    /// Displayed frames (1 for a still image).
    var frames = 0
    /// An animation's time unit (ticks a second, as a fraction) and plays (0 forever).
    var ticksPerSecond = (numerator: 0, denominator: 1)
    var loops = 0
    /// An ISOBMFF container (boxes) rather than a bare codestream.
    var container = false
    /// XYB (lossy VarDCT as cjxl writes it) rather than the original colour space.
    var xyb = false
    /// The colours of the decoded samples: sRGB, or else libjxl's ICC profile for them.
    var sRGB = false
    var icc: [UInt8]?
    var exif: [UInt8]?
    var xmp: [UInt8]?

    /// Colour and extra channels: the planes libjxl keeps.
    var planes = 3
    var hasAlpha: Bool { alphaBits > 0 }

    /// What libjxl itself holds while it decodes the frame, besides our output: its planes,
    /// 4 bytes a sample (a canvas besides the frame for an animation), and about one more for
    /// its group and modular buffers; for 16-bit output a second whole-frame float copy, which
    /// its 8-bit output renders group by group without. Measured on 3000x2000 16-bit files
    /// (cjxl -d 1 and -d 0) with `crop --depth 8` and `--depth 16`: 16-bit output took 15
    /// bytes a pixel more, of which 3 are our wider rows; the lossless file 184 MiB in all at
    /// 16 bits, which this (with our rows) puts at 189.
    func ownBytes(deep: Bool) -> Int64 {
        let perSample: Int64 = 4 * (animated ? 2 : 1) * (deep ? 2 : 1) + 1
        return Int64(size.width) * Int64(size.height) * Int64(planes) * perSample
    }
    var channels: Int { colorChannels + (hasAlpha ? 1 : 0) }
}

/// libjxl 0.7 (every pointer of it lives here): a header pass that reads the basic info,
/// the colour encoding, the frame headers and the Exif and XMP boxes without decoding
/// pixels; a frame decode into a caller's buffer; the encoder. libjxl returns statuses
/// and never longjmps; its own thread runner does the parallel work.
enum JXLCodec {
    static func ok(_ s: JxlDecoderStatus) -> Bool { s == JXL_DEC_SUCCESS }

    /// libjxl's thread runner with `threads` workers, nil for one thread (a batch's images).
    final class Runner {
        let pointer: UnsafeMutableRawPointer?
        init(threads: Int) {
            pointer = threads > 1 ? fz_JxlThreadParallelRunnerCreate(nil, threads) : nil
        }
        deinit { if let pointer { fz_JxlThreadParallelRunnerDestroy(pointer) } }
    }

    /// Reads everything but the pixels from the whole file `data`, checking the sizes the
    /// basic info gives against `options` before any pixel buffer exists.
    static func readFacts(_ data: UnsafeRawBufferPointer, path: String, options: DecodeOptions)
        throws(DecodeError) -> JXLFacts
    {
        guard let dec = fz_JxlDecoderCreate(nil) else {
            throw .readFailed(path: path, reason: "libjxl could not make a decoder")
        }
        defer { fz_JxlDecoderDestroy(dec) }
        let events =
            JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
            | JXL_DEC_BOX.rawValue
        guard ok(fz_JxlDecoderSubscribeEvents(dec, Int32(events))), ok(fz_JxlDecoderSetKeepOrientation(dec, 1)),
            ok(fz_JxlDecoderSetDecompressBoxes(dec, 1)),
            ok(fz_JxlDecoderSetInput(dec, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count))
        else { throw .readFailed(path: path, reason: "libjxl refused the decoder's settings") }
        fz_JxlDecoderCloseInput(dec)
        var facts = JXLFacts()
        var haveInfo = false
        var boxes = BoxCollector(limit: options.chunkLimit, path: path)
        defer { boxes.release() }
        while true {
            let status = JXLStderr.quiet { fz_JxlDecoderProcessInput(dec) }
            switch status {
            case JXL_DEC_BASIC_INFO:
                var info = JxlBasicInfo()
                guard ok(fz_JxlDecoderGetBasicInfo(dec, &info)) else {
                    throw .corruptHeader(path: path, detail: "libjxl could not read the basic info")
                }
                // Boxes before the codestream (exiftool puts its XMP there) were read already:
                // the basic info's facts keep them.
                let (xmp, exif) = (facts.xmp, facts.exif)
                facts = try Self.facts(info, path: path, options: options)
                (facts.xmp, facts.exif) = (xmp, exif)
                haveInfo = true
            case JXL_DEC_COLOR_ENCODING:
                try readColor(dec, into: &facts, limit: options.chunkLimit, path: path)
            case JXL_DEC_FRAME:
                facts.frames += 1
            case JXL_DEC_BOX:
                try boxes.finish(dec, into: &facts)
                try boxes.start(dec)
            case JXL_DEC_BOX_NEED_MORE_OUTPUT:
                try boxes.more(dec)
            case JXL_DEC_SUCCESS:
                try boxes.finish(dec, into: &facts)
                guard haveInfo, facts.frames > 0 else {
                    throw .corruptHeader(path: path, detail: "the JPEG XL file holds no image")
                }
                return facts
            case JXL_DEC_NEED_MORE_INPUT:
                if !haveInfo {
                    throw .truncatedHeader(path: path, detail: "the JPEG XL headers end after \(data.count) bytes")
                }
                // The pixels of the frames there are may still decode (--lenient keeps them).
                if facts.frames > 0 && options.lenient { return facts }
                throw .truncated(path: path, detail: "the JPEG XL data ends after \(data.count) bytes")
            case JXL_DEC_ERROR:
                if !haveInfo { throw .corruptHeader(path: path, detail: "libjxl cannot read the JPEG XL header") }
                throw .corrupt(path: path, detail: "libjxl cannot read the JPEG XL frames or boxes")
            default:
                continue
            }
        }
    }

    /// The basic info as facts, its sizes checked against the pixel limit and the memory the
    /// decode needs (the output rows and libjxl's own float planes, 4 bytes a sample).
    private static func facts(_ info: JxlBasicInfo, path: String, options: DecodeOptions) throws(DecodeError)
        -> JXLFacts
    {
        var f = JXLFacts()
        f.size = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
        f.bitsPerSample = Int(info.bits_per_sample)
        f.floatSamples = info.exponent_bits_per_sample > 0
        f.colorChannels = info.num_color_channels == 1 ? 1 : 3
        f.alphaBits = Int(info.alpha_bits)
        f.orientation = Int(info.orientation.rawValue)
        f.animated = info.have_animation != 0
        f.ticksPerSecond = (Int(info.animation.tps_numerator), max(1, Int(info.animation.tps_denominator)))
        f.loops = Int(info.animation.num_loops)
        f.container = info.have_container != 0
        f.xyb = info.uses_original_profile == 0
        try options.checkPixels(f.size, path: path)
        let area = Int64(f.size.width) * Int64(f.size.height)
        let sampleBytes: Int64 = f.bitsPerSample > 8 ? 2 : 1
        f.planes = f.colorChannels + Int(info.num_extra_channels)
        try options.checkMemory(area * Int64(f.channels) * sampleBytes + f.ownBytes(deep: false), path: path)
        return f
    }

    /// The colours of the decoded samples: sRGB when the encoded description says so,
    /// else the ICC profile libjxl gives for them (the file's own, or one it makes from
    /// the encoded description: Display P3, Rec. 2020, linear...).
    private static func readColor(_ dec: OpaquePointer, into f: inout JXLFacts, limit: Int, path: String)
        throws(DecodeError)
    {
        var encoding = JxlColorEncoding()
        if ok(fz_JxlDecoderGetColorAsEncodedProfile(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding)) {
            let rgbSRGB =
                encoding.color_space == JXL_COLOR_SPACE_RGB && encoding.primaries == JXL_PRIMARIES_SRGB
            let graySRGB = encoding.color_space == JXL_COLOR_SPACE_GRAY
            if (rgbSRGB || graySRGB) && encoding.white_point == JXL_WHITE_POINT_D65
                && encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
            {
                f.sRGB = true
                return
            }
        }
        var size = 0
        guard ok(fz_JxlDecoderGetICCProfileSize(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size)), size > 0 else {
            return
        }
        guard size <= limit else {
            throw .corruptHeader(path: path, detail: "the ICC profile is \(size) bytes, over the \(limit)-byte limit")
        }
        var icc = [UInt8](repeating: 0, count: size)
        let got = icc.withUnsafeMutableBufferPointer {
            fz_JxlDecoderGetColorAsICCProfile(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, $0.baseAddress, size)
        }
        if ok(got) { f.icc = icc }
    }

    /// Collects the Exif and XMP boxes (decompressed from "brob" by libjxl) through one
    /// 64 KiB buffer; other boxes are passed over (no buffer: libjxl skips them).
    private struct BoxCollector {
        let limit: Int
        let path: String
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        var kind: String?
        var bytes: [UInt8] = []

        init(limit: Int, path: String) {
            self.limit = limit
            self.path = path
        }

        func release() { chunk.deallocate() }

        mutating func start(_ dec: OpaquePointer) throws(DecodeError) {
            var type: JxlBoxType = (0, 0, 0, 0)
            guard ok(fz_JxlDecoderGetBoxType(dec, &type, 1)) else { return }
            let name = String(decoding: [type.0, type.1, type.2, type.3].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard name == "Exif" || name == "xml " else { return }
            kind = name
            bytes = []
            _ = fz_JxlDecoderSetBoxBuffer(dec, chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count)
        }

        /// Keeps what the buffer holds and hands it back empty.
        mutating func more(_ dec: OpaquePointer) throws(DecodeError) {
            take(dec)
            if bytes.count > limit {
                throw .corrupt(path: path, detail: "the \(kind ?? "") box holds more than \(limit) bytes")
            }
            _ = fz_JxlDecoderSetBoxBuffer(dec, chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count)
        }

        private mutating func take(_ dec: OpaquePointer) {
            let left = fz_JxlDecoderReleaseBoxBuffer(dec)
            let used = max(0, chunk.count - left)
            bytes += UnsafeRawBufferPointer(rebasing: chunk[0..<used])
        }

        /// Ends the box being collected: the Exif box's TIFF bytes (after its 4-byte offset),
        /// the XMP packet. The first of each kind is kept.
        mutating func finish(_ dec: OpaquePointer, into f: inout JXLFacts) throws(DecodeError) {
            guard let kind else { return }
            take(dec)
            self.kind = nil
            if kind == "xml " {
                if f.xmp == nil { f.xmp = bytes }
                return
            }
            guard bytes.count >= 4 else { return }
            let offset = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
            if offset <= bytes.count - 4, f.exif == nil { f.exif = Array(bytes[(4 + offset)...]) }
        }
    }

    /// Decodes displayed frame `frame` (from 1) into `out`: `channels` interleaved samples
    /// a pixel, 8 bits, or 16 big-endian when `deep`, stored orientation, straight alpha.
    /// - Returns: a warning when `lenient` kept a partly decoded image.
    static func decode(
        _ data: UnsafeRawBufferPointer, frame: Int, channels: Int, deep: Bool, threads: Int,
        into out: UnsafeMutableRawBufferPointer, path: String, lenient: Bool
    ) throws(DecodeError) -> String? {
        guard let dec = fz_JxlDecoderCreate(nil) else {
            throw .readFailed(path: path, reason: "libjxl could not make a decoder")
        }
        defer { fz_JxlDecoderDestroy(dec) }
        let runner = Runner(threads: threads)
        if let r = runner.pointer, !ok(fz_JxlDecoderSetParallelRunner(dec, fz_JxlThreadParallelRunner, r)) {
            throw .readFailed(path: path, reason: "libjxl refused its thread runner")
        }
        guard ok(fz_JxlDecoderSubscribeEvents(dec, Int32(JXL_DEC_FULL_IMAGE.rawValue))),
            ok(fz_JxlDecoderSetKeepOrientation(dec, 1)), ok(fz_JxlDecoderSetUnpremultiplyAlpha(dec, 1)),
            ok(fz_JxlDecoderSetInput(dec, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count))
        else { throw .readFailed(path: path, reason: "libjxl refused the decoder's settings") }
        // The input is left open: a frame cut short then asks for more input (a truncation,
        // which --lenient may flush) rather than failing as corrupt.
        if frame > 1 { fz_JxlDecoderSkipFrames(dec, frame - 1) }
        var format = JxlPixelFormat(
            num_channels: UInt32(channels), data_type: deep ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
            endianness: JXL_BIG_ENDIAN, align: 0)
        while true {
            switch JXLStderr.quiet({ fz_JxlDecoderProcessInput(dec) }) {
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                guard ok(fz_JxlDecoderImageOutBufferSize(dec, &format, &size)), size == out.count else {
                    throw .corrupt(path: path, detail: "libjxl wants a \(size)-byte frame, not \(out.count)")
                }
                guard ok(fz_JxlDecoderSetImageOutBuffer(dec, &format, out.baseAddress, out.count)) else {
                    throw .readFailed(path: path, reason: "libjxl refused the output buffer")
                }
            case JXL_DEC_FULL_IMAGE:
                return nil
            case JXL_DEC_SUCCESS:
                throw .corrupt(path: path, detail: "frame \(frame) is not in the file")
            case JXL_DEC_NEED_MORE_INPUT:
                let problem = DecodeError.truncated(path: path, detail: "the JPEG XL frame data ends early")
                guard lenient, ok(fz_JxlDecoderFlushImage(dec)) else { throw problem }
                return problem.keptReason
            case JXL_DEC_ERROR:
                throw .corrupt(path: path, detail: "libjxl could not decode frame \(frame)")
            default:
                continue
            }
        }
    }
}

/// JPEG XL encoding through libjxl.
extension JXLCodec {
    /// What one encode writes.
    struct EncodeJob {
        var size: PixelSize
        var format: PixelFormat
        /// 16-bit big-endian samples (else 8-bit).
        var deep: Bool
        /// Butteraugli distance (lossy); ignored when `lossless`.
        var distance: Float
        var lossless: Bool
        var icc: [UInt8]?
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var threads: Int
    }

    /// Encodes packed rows (`job.format`, 8 or 16 bits) into a JPEG XL file's bytes: a
    /// container with Exif and XMP boxes when there is metadata, else a bare codestream.
    static func encode(_ pixels: UnsafeRawBufferPointer, _ job: EncodeJob, path: String) throws(OutputError)
        -> [UInt8]
    {
        func failed(_ what: String) -> OutputError { .writeFailed(path: path, reason: "libjxl: \(what)") }
        try FormatLibrary.jxl.require("JPEG XL", output: path)
        guard let enc = fz_JxlEncoderCreate(nil) else { throw failed("could not make an encoder") }
        defer { fz_JxlEncoderDestroy(enc) }
        let runner = Runner(threads: job.threads)
        if let r = runner.pointer, fz_JxlEncoderSetParallelRunner(enc, fz_JxlThreadParallelRunner, r) != JXL_ENC_SUCCESS
        {
            throw failed("refused its thread runner")
        }
        let alpha = job.format.hasAlpha
        let bits: UInt32 = job.deep ? 16 : 8
        var info = JxlBasicInfo()
        fz_JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(job.size.width)
        info.ysize = UInt32(job.size.height)
        info.bits_per_sample = bits
        info.num_color_channels = job.format.isGray ? 1 : 3
        info.num_extra_channels = alpha ? 1 : 0
        info.alpha_bits = alpha ? bits : 0
        // Lossless keeps the samples in their own colour space; lossy goes through XYB.
        info.uses_original_profile = job.lossless ? 1 : 0
        let metadata = job.exif != nil || job.xmp != nil
        if metadata && fz_JxlEncoderUseContainer(enc, 1) != JXL_ENC_SUCCESS { throw failed("no container") }
        guard fz_JxlEncoderSetBasicInfo(enc, &info) == JXL_ENC_SUCCESS else { throw failed("refused the image size") }
        try setColor(enc, job, failed)
        if metadata && fz_JxlEncoderUseBoxes(enc) != JXL_ENC_SUCCESS { throw failed("no boxes") }
        guard let settings = fz_JxlEncoderFrameSettingsCreate(enc, nil) else { throw failed("no frame settings") }
        let set =
            job.lossless
            ? fz_JxlEncoderSetFrameLossless(settings, 1) : fz_JxlEncoderSetFrameDistance(settings, job.distance)
        guard set == JXL_ENC_SUCCESS else { throw failed("refused the quality") }
        // Lossless means every sample, the colour under alpha 0 too (libjxl drops it otherwise).
        if job.lossless
            && fz_JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_KEEP_INVISIBLE, 1)
                != JXL_ENC_SUCCESS
        {
            throw failed("refused to keep invisible pixels")
        }
        var format = JxlPixelFormat(
            num_channels: UInt32(job.format.channels), data_type: job.deep ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
            endianness: JXL_BIG_ENDIAN, align: 0)
        let added = JXLStderr.quiet { fz_JxlEncoderAddImageFrame(settings, &format, pixels.baseAddress, pixels.count) }
        guard added == JXL_ENC_SUCCESS else {
            throw failed("refused the \(job.size) image (error \(fz_JxlEncoderGetError(enc).rawValue))")
        }
        // Boxes added after the frame follow one whole `jxlc` codestream box (before it,
        // libjxl splits the codestream into `jxlp` parts, whose size exiftool 12 does not read).
        if metadata {
            // The Exif box: a 4-byte offset to the TIFF header (0), then the TIFF bytes.
            if let exif = job.exif { try addBox(enc, "Exif", [0, 0, 0, 0] + exif, failed) }
            if let xmp = job.xmp { try addBox(enc, "xml ", xmp, failed) }
        }
        fz_JxlEncoderCloseInput(enc)
        return try drain(enc, failed)
    }

    /// The output colour: the carried ICC profile, else sRGB (what untagged pixels are).
    private static func setColor(_ enc: OpaquePointer, _ job: EncodeJob, _ failed: (String) -> OutputError)
        throws(OutputError)
    {
        if let icc = job.icc, !icc.isEmpty {
            let status = icc.withUnsafeBufferPointer { fz_JxlEncoderSetICCProfile(enc, $0.baseAddress, $0.count) }
            if status == JXL_ENC_SUCCESS { return }
        }
        var color = JxlColorEncoding()
        fz_JxlColorEncodingSetToSRGB(&color, job.format.isGray ? 1 : 0)
        guard fz_JxlEncoderSetColorEncoding(enc, &color) == JXL_ENC_SUCCESS else { throw failed("refused sRGB") }
    }

    private static func addBox(
        _ enc: OpaquePointer, _ type: String, _ contents: [UInt8], _ failed: (String) -> OutputError
    ) throws(OutputError) {
        let status = type.withCString { name in
            contents.withUnsafeBufferPointer { fz_JxlEncoderAddBox(enc, name, $0.baseAddress, $0.count, 0) }
        }
        guard status == JXL_ENC_SUCCESS else { throw failed("refused the \(type) box") }
    }

    /// Runs the encoder, collecting its output in growing pieces.
    private static func drain(_ enc: OpaquePointer, _ failed: (String) -> OutputError) throws(OutputError)
        -> [UInt8]
    {
        var out = [UInt8](repeating: 0, count: 1 << 16)
        var used = 0
        while true {
            let (status, written): (JxlEncoderStatus, Int) = out.withUnsafeMutableBufferPointer { b in
                var next: UnsafeMutablePointer<UInt8>? = b.baseAddress! + used
                var avail = b.count - used
                let s = JXLStderr.quiet { fz_JxlEncoderProcessOutput(enc, &next, &avail) }
                return (s, b.count - used - avail)
            }
            used += written
            switch status {
            case JXL_ENC_SUCCESS:
                return Array(out[0..<used])
            case JXL_ENC_NEED_MORE_OUTPUT:
                out += [UInt8](repeating: 0, count: out.count)
            default:
                throw failed("encoding failed (error \(fz_JxlEncoderGetError(enc).rawValue))")
            }
        }
    }
}
