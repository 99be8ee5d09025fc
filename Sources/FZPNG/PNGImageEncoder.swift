import FZFormat
import FZImage
import FZSystem
import Geometry

/// PNG output (libpng, or zlib on several threads for a large image): lossless, alpha
/// kept, 8- or 16-bit, EXIF (eXIf), XMP (iTXt) and ICC (iCCP) without a size limit.
package enum PNGImageEncoder: ImageEncoder {
    package static let registration = OutputFormat(
        format: .png, name: "PNG", extensions: ["png"], keepsAlpha: true, writes16Bit: true,
        metadata: .exifXMPICC, options: [.compression], hdrRendition: .cicp16,
        encoder: PNGImageEncoder.self)

    package static func encode(_ image: Image, _ r: EncodeRequest) throws(OutputError) {
        let settings = r.settings.png
        let writer = try PNGWriter(
            file: r.out.file, path: r.out.path, size: image.size, format: image.format, settings: settings,
            color: r.color)
        try writer.write(exif: r.exif, xmp: r.xmp)
        if ParallelPNGEncoder.worthIt(image, threads: r.threads) {
            try ParallelPNGEncoder.encode(image, settings: settings, threads: r.threads, into: writer)
        } else if ParallelPNGEncoder.faster(settings) {
            try ParallelPNGEncoder.encode(image, settings: settings, threads: 1, into: writer)
        } else {
            try ImageWriter.inBands(image) { rows, count throws(OutputError) in
                try writer.write(rows: rows, count: count)
            }
            try writer.finish()
        }
    }
}

/// The fixture kit's PNGs: any colour type and depth (1/2/4-bit included), a palette with
/// tRNS alpha, a tRNS colour, Adam7 interlacing, eXIf and iCCP, from rows the fixture kit
/// packed itself, without building libpng's description.
extension PNGImageEncoder {
    /// A PNG colour type.
    package enum FixtureColor: Int, Sendable {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6
    }

    /// A whole fixture PNG besides its rows.
    package struct FixtureImage {
        package var size: PixelSize
        /// Bits a sample (1, 2, 4, 8 or 16 as PNG allows for `color`).
        package var depth: Int
        package var color: FixtureColor
        package var interlaced = false
        package var settings = PNGSettings.default
        /// `color` palette: the entries, their alpha written as tRNS up to the last one not opaque.
        package var palette: [Color] = []
        /// gray and RGB: the colour tRNS makes transparent (gray, red, green, blue at `depth`).
        package var transparent: (gray: UInt16, r: UInt16, g: UInt16, b: UInt16)?
        /// A TIFF block written as eXIf.
        package var exif: [UInt8]?
        /// An ICC profile written as iCCP.
        package var icc: [UInt8]?

        package init(size: PixelSize, depth: Int, color: FixtureColor) {
            self.size = size
            self.depth = depth
            self.color = color
        }
    }

    /// Writes `image` from rows packed at its depth, `stride` bytes apart.
    package static func writeFixture(_ image: FixtureImage, rows: [UInt8], stride: Int, into out: OutputFile)
        throws(OutputError)
    {
        var spec = PNGImageSpec(
            width: image.size.width, height: image.size.height, depth: image.depth, interlaced: image.interlaced,
            settings: image.settings)
        spec.colorType = image.color.rawValue
        if image.color == .palette {
            spec.palette = image.palette.flatMap { [$0.r, $0.g, $0.b] }
            if let last = image.palette.lastIndex(where: { $0.a != 255 }) {
                spec.trnsAlpha = image.palette[0...last].map { $0.a }
            }
        } else if let t = image.transparent {
            spec.trnsColor = (t.gray, t.r, t.g, t.b)
        }
        spec.exif = image.exif
        spec.icc = image.icc
        try PNGWriter.writeImage(spec, rows: rows, stride: stride, into: out)
    }
}
