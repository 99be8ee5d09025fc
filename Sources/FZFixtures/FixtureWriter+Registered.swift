import FZCodecs
import FZFormat
import FZImage
import FZSystem
import Geometry

extension FixtureWriter {
    /// A format without a writer here, through its registered encoder: the same 8-bit
    /// pixels, settings, profile and EXIF block as any other output of that format.
    package static func writeRegistered(
        _ format: OutputFormat, stored: PixelSize, encoding e: FixtureEncoding, exif: [UInt8]?,
        sample: (Int, Int) -> Sample16, into out: OutputFile
    ) throws {
        let image = eightBit(stored: stored, alpha: e.color == .rgba || e.color == .grayAlpha, sample: sample)
        var color = ColorDescription()
        color.icc = e.icc
        color.hasICC = e.icc != nil
        // No EXIF: the command line refuses --exif-orientation for these formats (JPEG XL's
        // orientation lives in its codestream, which readers follow instead of EXIF).
        try ImageWriter.encode(
            image, into: out,
            encoding: OutputEncoding(format, EncodeSettings(quality: e.quality, lossless: e.lossless)),
            threads: 1, color: e.icc == nil ? nil : color)
    }

    /// The stored pixels at 8 bits, RGB or RGBA.
    package static func eightBit(stored: PixelSize, alpha: Bool, sample: (Int, Int) -> Sample16) -> Image {
        var image = Image(width: stored.width, height: stored.height, format: alpha ? .rgba : .rgb)
        let c = image.format.channels
        image.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            for y in 0..<stored.height {
                for x in 0..<stored.width {
                    let s = sample(x, y)
                    p[i] = to8(s.r)
                    p[i + 1] = to8(s.g)
                    p[i + 2] = to8(s.b)
                    if alpha { p[i + 3] = to8(s.a) }
                    i += c
                }
            }
        }
        return image
    }
}
