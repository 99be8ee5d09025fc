import FZFormat
import FZImage
import FZSystem
import Geometry

/// What a JPEG XL file's headers say, for `info`.
public struct JXLDetails: Hashable, Sendable {
    public var bitDepth: Int
    /// Floating-point samples (read as integers scaled to 8 or 16 bits).
    public var floatSamples: Bool
    /// "codestream" (bare, FF 0A) or "isobmff" (the box container).
    public var container: String
    public var hasAlpha: Bool
    public var animated: Bool
    public var frameCount: Int
    /// Coded in XYB (lossy, as cjxl writes by default) rather than its own colour space.
    public var xyb: Bool
    public var hasICC: Bool
    public var hasEXIF: Bool
    public var hasXMP: Bool
}

/// JPEG XL through libjxl 0.7 (`JXLCodec` owns its pointers): 8- and 16-bit (deeper samples
/// kept through `beginDeep`), grey and colour, alpha (straight), the first displayed frame
/// of an animation or `DecodeOptions.frame`, composited by libjxl, on libjxl's own thread
/// runner with `DecodeOptions.threads` workers.
///
/// Orientation: libjxl is asked to keep the stored orientation, and the codestream's
/// (`orientationValue`) is applied by `ImageReader` as a JPEG's EXIF orientation is, so
/// `storedSize` is the coded size and `info` reports stored and upright sizes as for JPEG.
/// Colour: the samples as libjxl decodes them (XYB images to their original colour space),
/// described by sRGB or by the ICC profile libjxl gives for them.
///
/// The whole file is read into memory (its size counts against the memory limit): libjxl
/// needs the header pass (sizes, colour, frames, Exif and XMP boxes anywhere in the file)
/// before pixels, and decodes a frame whole.
package final class JXLDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .jxl, names: ["JPEG XL"], extensions: ["jxl"],
        capabilities: [.alpha, .deepSamples, .frames, .exif, .icc], library: .jxl)
    /// The bare codestream (FF 0A) or the container's signature box.
    package static func sniff(_ head: [UInt8]) -> Bool {
        head.starts(with: [0xFF, 0x0A])
            || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    }

    private let facts: JXLFacts
    private let jxl: JXLDetails
    private let path: String
    private let options: DecodeOptions
    /// The file's bytes.
    private let data: [UInt8]
    private var output: ZeroedBuffer?
    private var rowBytes = 0
    private var next = 0
    package private(set) var warnings: [String] = []

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        path = source.name
        self.options = options
        try Self.registration.requireLibrary(path: path)
        let cap = options.maxMemory > 0 ? Int(min(options.maxMemory, Int64(Int.max / 2))) : Int.max / 2
        guard let bytes = source.file.readAll(limit: cap) else {
            throw .overMemoryLimit(path: path, needed: Int64(cap) + 1, limit: options.maxMemory)
        }
        try options.checkMemory(Int64(bytes.count), path: path)
        data = bytes
        facts = try bytes.withBytes { b throws(DecodeError) in
            try JXLCodec.readFacts(b, path: source.name, options: options)
        }
        jxl = JXLDetails(
            bitDepth: facts.bitsPerSample, floatSamples: facts.floatSamples,
            container: facts.container ? "isobmff" : "codestream", hasAlpha: facts.hasAlpha,
            animated: facts.animated, frameCount: max(1, facts.frames), xyb: facts.xyb, hasICC: facts.icc != nil,
            hasEXIF: facts.exif != nil, hasXMP: facts.xmp != nil)
        if options.frame > jxl.frameCount {
            throw .noSuchFrame(path: path, frame: options.frame, frames: jxl.frameCount, option: options.frameOption)
        }
    }

    package var storedSize: PixelSize { facts.size }
    package var pixelFormat: PixelFormat {
        switch (facts.colorChannels == 1, facts.hasAlpha) {
        case (true, false): return .gray
        case (true, true): return .grayAlpha
        case (false, false): return .rgb
        case (false, true): return .rgba
        }
    }
    package var bitDepth: Int { facts.bitsPerSample }
    package var exif: [UInt8]? { facts.exif }
    package var xmp: [UInt8]? { facts.xmp }
    /// The codestream orientation (JPEG XL's own field; an Exif box's tag does not count).
    package var orientationValue: Int? { facts.orientation == 1 ? nil : facts.orientation }
    package var details: any CodecDetails { jxl }
    package var color: ColorDescription {
        var c = ColorDescription()
        c.sRGB = facts.sRGB
        c.hasICC = facts.icc != nil
        c.icc = facts.icc
        return c
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        try decode(deep: false)
    }

    /// Samples deeper than 8 bits as libjxl's 16-bit output (scaled to 0...65535).
    package func beginDeep(columns: Range<Int>?) throws(DecodeError) -> RowLayout? {
        guard bitDepth > 8 else { return nil }
        return try decode(deep: true)
    }

    /// Decodes the frame whole into `output` (libjxl renders a frame in groups, not rows).
    private func decode(deep: Bool) throws(DecodeError) -> RowLayout {
        let size = storedSize
        rowBytes = size.width * pixelFormat.channels * (deep ? 2 : 1)
        let (bytes, overflow) = rowBytes.multipliedReportingOverflow(by: size.height)
        if overflow { throw .overMemoryLimit(path: path, needed: .max, limit: options.maxMemory) }
        // The path really taken: our rows at its depth, the file, and libjxl's own planes.
        try options.checkMemory(Int64(bytes) + Int64(data.count) + facts.ownBytes(deep: deep), path: path)
        guard let out = ZeroedBuffer(count: bytes) else {
            throw .readFailed(
                path: path, reason: "out of memory for the \(DecodeError.mebibytes(Int64(bytes))) MiB image")
        }
        let warning = try data.withBytes { b throws(DecodeError) in
            try JXLCodec.decode(
                b, frame: options.frame, channels: pixelFormat.channels, deep: deep, threads: options.threads,
                into: out.bytes, path: path, lenient: options.lenient)
        }
        if let warning { warnings.append(warning) }
        if jxl.frameCount > 1 {
            warnings.append(
                options.frame == 1
                    ? "animated JPEG XL with \(jxl.frameCount) frames: the first frame is used (--frame N picks another)"
                    : "animated JPEG XL: frame \(options.frame) of \(jxl.frameCount) is used")
        }
        output = out
        return RowLayout(firstColumn: 0, width: size.width, height: size.height)
    }

    package func skip(rows: Int) throws(DecodeError) { next = min(storedSize.height, next + max(0, rows)) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        let n = min(rows, storedSize.height - next)
        guard n > 0, let output else { return 0 }
        buffer.baseAddress!.copyMemory(
            from: output.bytes.baseAddress!.advanced(by: next * rowBytes), byteCount: n * rowBytes)
        next += n
        return n
    }
}

/// An animated JPEG XL as frames (`--animated`): `JXLAnimation`, libjxl's coalesced canvas.
extension JXLDecoder: AnimatedDecoder {
    package var animationFrameCount: Int { jxl.animated ? jxl.frameCount : 1 }

    package func animation() throws(DecodeError) -> (any AnimationSource)? {
        guard animationFrameCount > 1 else { return nil }
        // The file's bytes a second time (libjxl reads them in place), our RGBA canvas and
        // libjxl's own planes and canvas.
        let canvas = Int64(storedSize.width) * Int64(storedSize.height) * 4
        try options.checkMemory(2 * Int64(data.count) + canvas + facts.ownBytes(deep: false), path: path)
        return try JXLAnimation(
            data: data, facts: facts, threads: options.threads, path: path, lenient: options.lenient)
    }
}

extension ImageFormat {
    public static let jxl = ImageFormat(rawValue: "JPEG XL")
}

extension JXLDetails: CodecDetails {
    public var summary: [String] {
        var parts = ["\(bitDepth)-bit\(floatSamples ? " float" : "")", container]
        parts.append(xyb ? "XYB (lossy)" : "original colour space")
        if hasAlpha { parts.append("alpha") }
        if animated { parts.append("animated, \(frameCount) frame\(frameCount == 1 ? "" : "s")") }
        if hasICC { parts.append("ICC profile (not applied)") }
        if hasEXIF { parts.append("Exif") }
        if hasXMP { parts.append("XMP") }
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(bitDepth)), ("container", .string(container)), ("alpha", .bool(hasAlpha)),
            ("animated", .bool(animated)), ("frames", .int(frameCount)), ("xyb", .bool(xyb)),
            ("icc", .bool(hasICC)),
        ]
    }
}
