import CZlib
import FZFormat
import FZImage
import FZSystem
import Geometry

/// Assembles an animated PNG (APNG: acTL, fcTL, fdAT) from frames libpng compressed.
///
/// The system libpng has no APNG support, so each frame is encoded as an ordinary PNG in
/// memory and its IDAT payload (zlib data of filtered rows) is re-wrapped: the first frame
/// keeps IDAT (so viewers without APNG show it), the others become fdAT chunks with a
/// sequence number. Chunk CRCs are computed here.
public struct APNGWriter {
    public let size: PixelSize
    public let format: PixelFormat
    /// Frame delay as a fraction of a second.
    public let delayNumerator: UInt16
    public let delayDenominator: UInt16
    /// 0 = loop forever.
    public let plays: UInt32
    private var frames: [[UInt8]] = []

    public init(size: PixelSize, format: PixelFormat, fps: Double, plays: UInt32 = 0) {
        self.size = size
        self.format = format
        // Delays as whole 1/1000ths keep 60 fps exact enough (16.667 ms -> 17/1000 is off):
        // use 1/fps directly when fps is whole.
        if fps == fps.rounded() && fps >= 1 && fps <= 65535 {
            delayNumerator = 1
            delayDenominator = UInt16(fps)
        } else {
            delayNumerator = UInt16(min(65535, max(1, (1000 / fps).rounded())))
            delayDenominator = 1000
        }
        self.plays = plays
    }

    /// A frame's compressed data (its IDAT payload), made where the frame is rendered so
    /// frames can be compressed in parallel and only the small result kept.
    public static func framePayload(_ image: Image, settings: PNGSettings) throws(OutputError) -> [UInt8] {
        idatPayload(try PNGWriter.encode(image, settings: settings))
    }

    /// Adds a frame already compressed (its IDAT payload).
    public mutating func add(payload: [UInt8]) { frames.append(payload) }

    /// The IDAT payload of a PNG frame, concatenated.
    public static func idatPayload(_ png: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 8
        while i + 12 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            if type == "IDAT" { out += png[(i + 8)..<(i + 8 + length)] }
            i += 12 + length
        }
        return out
    }

    /// The whole file.
    public func bytes() -> [UInt8] {
        var out = header(frameCount: frames.count)
        for (k, payload) in frames.enumerated() { out += frame(k, payload: payload) }
        return out + trailer
    }

    /// Signature, IHDR, the colour chunks (`color` as it fits the frames: iCCP, or sRGB,
    /// gAMA and cHRM, as libpng writes them for still outputs) and acTL for `frameCount`
    /// frames: what comes before the first frame.
    public func header(frameCount: Int, color: ColorDescription? = nil) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let colorType: UInt8 = [0, 0, 4, 2, 6][format.channels]
        var ihdr = be32(UInt32(size.width)) + be32(UInt32(size.height))
        ihdr += [8, colorType, 0, 0, 0]
        chunk("IHDR", ihdr, into: &out)
        if let c = color?.carried(into: format) {
            if let icc = c.icc, let compressed = ParallelPNGEncoder.zlibStream(icc) {
                chunk("iCCP", Array("ICC profile".utf8) + [0, 0] + compressed, into: &out)
            } else if c.sRGB || c.sRGBIntent != nil {
                chunk("sRGB", [UInt8(clamping: c.sRGBIntent ?? 0)], into: &out)
            }
            if c.icc == nil {
                if let g = c.gamma { chunk("gAMA", be32(UInt32(clamping: Int((g * 100_000).rounded()))), into: &out) }
                if let xy = c.chromaticities, xy.count == 8 {
                    chunk("cHRM", xy.flatMap { be32(UInt32(clamping: Int(($0 * 100_000).rounded()))) }, into: &out)
                }
            }
        }
        chunk("acTL", be32(UInt32(frameCount)) + be32(plays), into: &out)
        return out
    }

    /// Frame `index`'s chunks: fcTL, then IDAT (the first frame, so viewers without APNG
    /// show it) or fdAT. Sequence numbers: frame 0 takes 0, frame k > 0 takes 2k-1 and 2k.
    public func frame(_ index: Int, payload: [UInt8]) -> [UInt8] {
        frame(index, payload: payload, delay: (delayNumerator, delayDenominator))
    }

    /// The same with a delay of its own, in milliseconds (`thumb --animated` keeps each
    /// frame's): 1/1000ths, or 1/100ths past 65.535 s (up to 655 s, as a GIF's delay).
    public func frame(_ index: Int, payload: [UInt8], milliseconds: Int) -> [UInt8] {
        let delay =
            milliseconds <= 65535
            ? (UInt16(max(0, milliseconds)), UInt16(1000)) : (UInt16(min(65535, milliseconds / 10)), UInt16(100))
        return frame(index, payload: payload, delay: delay)
    }

    private func frame(_ index: Int, payload: [UInt8], delay: (UInt16, UInt16)) -> [UInt8] {
        var out: [UInt8] = []
        let sequence = UInt32(index == 0 ? 0 : 2 * index - 1)
        var fctl = be32(sequence) + be32(UInt32(size.width)) + be32(UInt32(size.height)) + be32(0) + be32(0)
        fctl += be16(delay.0) + be16(delay.1) + [0, 0]  // dispose none, blend source
        chunk("fcTL", fctl, into: &out)
        if index == 0 {
            chunk("IDAT", payload, into: &out)
        } else {
            chunk("fdAT", be32(sequence + 1) + payload, into: &out)
        }
        return out
    }

    /// IEND.
    public var trailer: [UInt8] {
        var out: [UInt8] = []
        chunk("IEND", [], into: &out)
        return out
    }

    private func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
    }
    private func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 255)] }

    private func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        out += be32(UInt32(data.count))
        let body = Array(type.utf8) + data
        out += body
        out += be32(CRC32.checksum(body))
    }
}

/// CRC-32 (ISO 3309, as PNG uses it), computed by zlib.
public enum CRC32 {
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
    }
}

extension ImageWriter {
    /// Writes raw bytes (an APNG) safely: temp file and rename.
    public static func write(bytes: [UInt8], to path: String, protecting inputs: [String] = []) throws(OutputError) {
        let out = try OutputFile(path: path, protecting: inputs)
        let written = out.file.withStream { stream in
            bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, stream) }
        }
        if written != bytes.count {
            out.discard()
            throw .writeFailed(path: path, reason: "short write")
        }
        try out.commit()
    }
}

#if canImport(Glibc)
import Glibc
#endif
