// Length: over 300 lines: one writer for every fixture format (PNG at any depth, JPEG's variants, WebP,
// HEIC/AVIF with irot/imir) so a pattern is encoded the same way whatever the container.

import FZFormat
import FZHEIF
import FZImage
import FZJPEG
import FZPNG
import FZSystem
import FZWebP
import Geometry

/// Why a fixture cannot be made as asked.
public enum FixtureError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// PNG forbids this bit depth for this colour type.
    case invalidDepth(color: String, depth: Int)
    /// A palette holds at most 2^depth (and 256) colours.
    case tooManyColors(count: Int, limit: Int)
    /// The option only applies to the other format.
    case notForFormat(option: String, format: String)
    /// The output could not be written.
    case output(OutputError)

    public var description: String {
        switch self {
        case .invalidDepth(let color, let depth):
            return
                "PNG \(color) cannot have bit depth \(depth) (gray: 1, 2, 4, 8, 16; palette: 1, 2, 4, 8; others: 8, 16)"
        case .tooManyColors(let count, let limit):
            return
                "the picture has \(count)+ colours but the palette holds \(limit); use --color rgb or a larger --depth"
        case .notForFormat(let option, let format):
            return "\(option) does not apply to \(format) output"
        case .output(let e): return e.description
        }
    }
}

/// How a fixture file is encoded.
public struct FixtureEncoding: Hashable, Sendable {
    public enum PNGColor: String, CaseIterable, Sendable {
        case gray
        case grayAlpha = "gray-alpha"
        case rgb, rgba, palette
    }

    public var jpeg = false
    /// WebP (libwebp): lossy at `quality`, or `lossless`; `color` rgba keeps alpha.
    public var webp = false
    public var lossless = false
    /// HEIC (HEVC, x265) or AVIF (AV1, aom) through libheif, lossy at `quality`.
    public var heic = false
    public var avif = false
    /// HEIF: stored turned clockwise by this many degrees and an `irot` of the same angle
    /// written, so the upright image is the pattern. `exifOrientation` is then only a tag:
    /// HEIF readers must not apply it (the pixels are not turned for it).
    public var heifRotation = 0
    /// HEIF: an `imir` axis (0 top-bottom, 1 left-right, as libheif reads it) after the irot;
    /// the pixels are stored so that the upright image is still the pattern.
    public var heifMirror: Int?
    /// Write `exifOrientation` as a tag only, the pixels left upright (a "wrongly tagged"
    /// file, as `exiftool -Orientation=6 -n` makes one).
    public var exifTagOnly = false
    /// JPEG: also an XMP packet (APP1) whose tiff:Orientation says this, whatever EXIF says.
    public var xmpOrientation: Int?
    public var color: PNGColor = .rgb
    public var depth = 8
    public var interlaced = false
    /// PNG tRNS: this colour becomes transparent (gray and RGB).
    public var transparent: Color?
    public var quality = 92
    public var subsampling = 444
    public var progressive = false
    public var grayscale = false
    /// JPEG: store as Adobe CMYK (inverted, as Photoshop writes it); with `ycck`, as YCCK.
    public var cmyk = false
    public var ycck = false
    public var arithmetic = false
    /// JPEG: keep RGB without the YCbCr transform.
    public var rgbCoded = false
    /// JPEG: a restart marker every N MCU rows.
    public var restartRows = 0
    /// Written as EXIF (JPEG APP1, PNG eXIf); the stored pixels are turned so that the
    /// upright image is the pattern, as a camera does.
    public var exifOrientation: Orientation?
    public var png = PNGSettings.default
    /// An ICC profile embedded as it is (PNG iCCP, JPEG APP2, WebP ICCP, HEIF colr, JPEG XL's
    /// codestream): the pixels are the pattern's samples, described by it.
    public var icc: [UInt8]?
    /// A format with no writer of its own here (JPEG XL): 8-bit RGB(A) written by its
    /// registered encoder (`ImageEncoders`), with `quality`, `lossless`, `icc` and the EXIF.
    public var registered: OutputFormat?

    public init() {}
}

/// Renders patterns into PNG, JPEG or WebP files, byte-for-byte reproducibly, and HEIC/AVIF
/// (x265 and aom: compare decoded pixels, not bytes).
public enum FixtureWriter {
    /// Writes `pattern` to `path`.
    /// - Parameters:
    ///   - pattern: the upright picture.
    ///   - encoding: format and options.
    ///   - path: output path ("-" for stdout).
    /// - Throws: `FixtureError`.
    public static func write(_ pattern: Pattern, encoding: FixtureEncoding, to path: String) throws(FixtureError) {
        let out: OutputFile
        do { out = try OutputFile(path: path) } catch { throw .output(error) }
        try write(pattern, encoding: encoding, into: out)
    }

    /// Writes `pattern` into `out` and commits it (discards it on failure).
    public static func write(_ pattern: Pattern, encoding: FixtureEncoding, into out: OutputFile) throws(FixtureError) {
        let path = out.path
        let heif = encoding.heic || encoding.avif
        let o =
            heif
            ? heifOrientation(rotation: encoding.heifRotation, mirror: encoding.heifMirror)
            : encoding.exifTagOnly ? .up : encoding.exifOrientation ?? .up
        let stored = o.swapsAxes ? pattern.size.transposed : pattern.size
        func sample(_ x: Int, _ y: Int) -> Sample16 {
            let u = o.uprightPixel(forStored: PixelPoint(x: x, y: y), stored: stored)
            return pattern.sample(x: u.x, y: u.y)
        }
        let tiff = encoding.exifOrientation.map { exifTIFF(orientation: $0) }
        do {
            do {
                if let format = encoding.registered {
                    try writeRegistered(
                        format, stored: stored, encoding: encoding, exif: tiff, sample: sample, into: out)
                } else if encoding.webp || heif {
                    try writeWebPOrHEIF(stored: stored, encoding: encoding, exif: tiff, sample: sample, into: out)
                } else if encoding.jpeg {
                    try writeJPEG(stored: stored, encoding: encoding, exif: tiff, sample: sample, into: out)
                } else {
                    try writePNG(stored: stored, encoding: encoding, exif: tiff, sample: sample, into: out)
                }
                try out.commit()
            } catch {
                out.discard()
                throw error
            }
        } catch let e as FixtureError {
            throw e
        } catch let e as OutputError {
            throw .output(e)
        } catch {
            throw .output(.writeFailed(path: path, reason: "\(error)"))
        }
    }

    /// Whether libheif can encode HEIC (x265) or AVIF (aom) on this machine.
    public static func heifEncoderAvailable(avif: Bool) -> Bool { HEIFEncoder.available(avif: avif) }

    /// 16 to 8 bits with libpng's rounding (png_set_scale_16), so v * 257 round-trips.
    @inline(__always)
    package static func to8(_ v: UInt16) -> UInt8 { UInt8((UInt32(v) * 255 + 32895) >> 16) }

    /// WebP (libwebp, EXIF in a VP8X container) or HEIC/AVIF (libheif): 8-bit RGB, or RGBA
    /// for `color` rgba/gray-alpha.
    package static func writeWebPOrHEIF(
        stored: PixelSize, encoding e: FixtureEncoding, exif: [UInt8]?,
        sample: (Int, Int) -> Sample16, into out: OutputFile
    ) throws {
        let alpha = e.color == .rgba || e.color == .grayAlpha
        let image = eightBit(stored: stored, alpha: alpha, sample: sample)
        let bytes =
            e.webp
            ? try WebPEncoder.encode(
                image, quality: e.quality, lossless: e.lossless, exif: exif, icc: e.icc, path: out.path)
            : try HEIFEncoder.encode(
                image, avif: e.avif, quality: e.quality, lossless: e.lossless, exif: exif,
                rotation: e.heifRotation, mirror: e.heifMirror,
                tenBit: e.depth == 10 ? tenBit(stored, alpha, sample) : nil,
                path: out.path, icc: e.icc)
        try ImageWriter.writeBytes(bytes, into: out)
    }

    /// JPEG (libjpeg-turbo through `JPEGImageEncoder.writeFixture`): gray, RGB, or RGB
    /// turned into Adobe's inverted CMYK for `cmyk`/`ycck`.
    package static func writeJPEG(
        stored: PixelSize, encoding e: FixtureEncoding, exif: [UInt8]?,
        sample: (Int, Int) -> Sample16, into out: OutputFile
    ) throws {
        let channels = e.grayscale ? 1 : (e.cmyk || e.ycck ? 4 : 3)
        var rows = [UInt8](repeating: 0, count: stored.width * stored.height * channels)
        var i = 0
        for y in 0..<stored.height {
            for x in 0..<stored.width {
                let s = sample(x, y)
                switch channels {
                case 1: rows[i] = to8(s.luma)
                case 3:
                    rows[i] = to8(s.r)
                    rows[i + 1] = to8(s.g)
                    rows[i + 2] = to8(s.b)
                default:
                    // RGB to CMYK with full black generation, stored inverted
                    // (0 = full ink) as Adobe does: R = C'K'/255 gives it back.
                    let r = Int(to8(s.r))
                    let g = Int(to8(s.g))
                    let b = Int(to8(s.b))
                    let kk = max(r, g, b)  // = 255 - K
                    func ink(_ v: Int) -> UInt8 { kk == 0 ? 0 : UInt8((v * 255 + kk / 2) / kk) }
                    rows[i] = ink(r)
                    rows[i + 1] = ink(g)
                    rows[i + 2] = ink(b)
                    rows[i + 3] = UInt8(kk)
                }
                i += channels
            }
        }
        var o = JPEGImageEncoder.FixtureOptions()
        o.quality = e.quality
        o.subsampling = e.subsampling
        o.progressive = e.progressive
        o.arithmetic = e.arithmetic
        o.rgbCoded = e.rgbCoded
        o.ycck = e.ycck
        o.restartRows = e.restartRows
        o.icc = e.icc
        try JPEGImageEncoder.writeFixture(
            rows: rows, size: stored, channels: channels, options: o, exif: exif,
            xmp: e.xmpOrientation.map { xmpPacket(orientation: $0) }, into: out)
    }

    /// PNG at any colour type and depth (`PNGImageEncoder.writeFixture`): the samples
    /// packed here, a palette gathered as the pixels come, tRNS from `transparent`.
    package static func writePNG(
        stored: PixelSize, encoding e: FixtureEncoding, exif: [UInt8]?,
        sample: (Int, Int) -> Sample16, into out: OutputFile
    ) throws {
        let depth = e.depth
        let validDepths: [Int]
        switch e.color {
        case .gray: validDepths = [1, 2, 4, 8, 16]
        case .palette: validDepths = [1, 2, 4, 8]
        default: validDepths = [8, 16]
        }
        guard validDepths.contains(depth) else {
            throw FixtureError.invalidDepth(color: e.color.rawValue, depth: depth)
        }
        let color: PNGImageEncoder.FixtureColor
        switch e.color {
        case .gray: color = .gray
        case .rgb: color = .rgb
        case .palette: color = .palette
        case .grayAlpha: color = .grayAlpha
        case .rgba: color = .rgba
        }
        var image = PNGImageEncoder.FixtureImage(size: stored, depth: depth, color: color)
        image.interlaced = e.interlaced
        image.settings = e.png
        let (rows, stride, palette) = try packPNG(stored: stored, encoding: e, sample: sample)
        image.palette = palette
        if e.color != .palette, let t = e.transparent {
            guard e.color == .gray || e.color == .rgb else {
                throw FixtureError.notForFormat(
                    option: "--transparent", format: "PNG \(e.color.rawValue) (it has an alpha channel)")
            }
            func widen(_ v: UInt8) -> UInt16 { depth == 16 ? UInt16(v) * 257 : UInt16(v) >> (8 - min(depth, 8)) }
            let gray = Sample16(t).luma
            image.transparent = (
                depth == 16 ? gray : UInt16(to8(gray)) >> (8 - depth), widen(t.r), widen(t.g), widen(t.b)
            )
        }
        image.exif = exif
        image.icc = e.icc
        try PNGImageEncoder.writeFixture(image, rows: rows, stride: stride, into: out)
    }

    /// The PNG's rows packed at `encoding.depth` (MSB first below 8 bits), and for a palette
    /// image its colours in the order the pixels first use them.
    /// - Throws: `FixtureError.tooManyColors` when the palette overflows 2^depth (or 256).
    static func packPNG(
        stored: PixelSize, encoding e: FixtureEncoding, sample: (Int, Int) -> Sample16
    ) throws(FixtureError) -> (rows: [UInt8], stride: Int, palette: [Color]) {
        let depth = e.depth
        let channels: Int
        switch e.color {
        case .gray, .palette: channels = 1
        case .grayAlpha: channels = 2
        case .rgb: channels = 3
        case .rgba: channels = 4
        }
        let stride = (stored.width * channels * depth + 7) / 8
        var rows = [UInt8](repeating: 0, count: stride * stored.height)
        var palette: [Color] = []
        var paletteIndex: [Color: Int] = [:]
        let paletteLimit = min(256, 1 << depth)

        for y in 0..<stored.height {
            var bit = 0  // bit position within the row, for depths < 8
            let rowStart = y * stride
            for x in 0..<stored.width {
                let s = sample(x, y)
                var values: [UInt16]
                switch e.color {
                case .gray: values = [s.luma]
                case .grayAlpha: values = [s.luma, s.a]
                case .rgb: values = [s.r, s.g, s.b]
                case .rgba: values = [s.r, s.g, s.b, s.a]
                case .palette:
                    let c = Color(r: to8(s.r), g: to8(s.g), b: to8(s.b), a: to8(s.a))
                    if let i = paletteIndex[c] {
                        values = [UInt16(i)]
                    } else {
                        guard palette.count < paletteLimit else {
                            throw FixtureError.tooManyColors(count: palette.count + 1, limit: paletteLimit)
                        }
                        paletteIndex[c] = palette.count
                        values = [UInt16(palette.count)]
                        palette.append(c)
                    }
                }
                for v in values {
                    switch depth {
                    case 16:
                        rows[rowStart + bit / 8] = UInt8(v >> 8)
                        rows[rowStart + bit / 8 + 1] = UInt8(v & 255)
                    case 8:
                        rows[rowStart + bit / 8] = e.color == .palette ? UInt8(v) : to8(v)
                    default:
                        let q = e.color == .palette ? v : v >> (16 - depth)
                        rows[rowStart + bit / 8] |= UInt8(q) << (8 - depth - bit % 8)
                    }
                    bit += depth
                }
            }
        }
        return (rows, stride, palette)
    }
}
