import CFZTIFF
import FZFormat
import FZImage
import FZSystem
import Geometry

/// How one directory's samples become forcezoom's pixels (the shim's `fz_tiff_plan` mode).
struct TIFFLayout {
    let mode: Int
    let pixelFormat: PixelFormat
    /// Bits per stored sample as `ImageDecoder.bitDepth` reports them (8 when the samples
    /// are converted: CMYK, palette, the RGBA fallback).
    let bitDepth: Int
    /// 16-bit gray or RGB(A): `beginDeep` keeps them.
    let deepSamples: Bool
    let unpremultiply: Bool

    /// Chooses the conversion for the current directory (`info`).
    /// - Throws: `.unsupportedVariant` for samples neither the shim nor TIFFRGBAImage reads.
    init(_ info: fz_tiff_info, tiff: TIFFFile, path: String) throws(DecodeError) {
        let bits = Int(info.bits)
        let spp = Int(info.spp)
        let photometric = Int(info.photometric)
        let alpha = info.extra_count > 0 && (info.extra_type == 1 || info.extra_type == 2)
        unpremultiply = alpha && info.extra_type == 1
        let integer = info.sample_format == 1 || info.sample_format == 0
        let plainBits = [1, 2, 4, 8, 16].contains(bits) && integer
        switch photometric {
        case 0...1 where plainBits && spp >= 1:  // MinIsWhite, MinIsBlack
            mode = FZ_TIFF_GRAY
            pixelFormat = alpha && spp >= 2 ? .grayAlpha : .gray
        case 2 where plainBits && bits >= 8 && spp >= 3:  // RGB
            mode = FZ_TIFF_RGB
            pixelFormat = alpha && spp >= 4 ? .rgba : .rgb
        case 3 where plainBits && bits <= 8 && spp == 1 && info.has_colormap != 0:  // palette
            mode = FZ_TIFF_PALETTE
            pixelFormat = .rgb
        case 5 where plainBits && bits >= 8 && spp >= 4 && info.inkset == 1:  // CMYK
            mode = FZ_TIFF_CMYK
            pixelFormat = alpha && spp >= 5 ? .rgba : .rgb
        case 6 where info.compression == 7 && bits == 8 && spp == 3:  // YCbCr in JPEG: libjpeg's RGB
            tiff.jpegToRGB()
            mode = FZ_TIFF_RGB
            pixelFormat = .rgb
        default:
            // Anything else TIFFRGBAImage reads (YCbCr without JPEG, CIELab, LogLuv, old JPEG),
            // decoded whole to 8-bit RGB(A).
            if let problem = tiff.rgbaProblem {
                throw .unsupportedVariant(
                    path: path, what: "TIFF (\(bits)-bit, \(spp) samples, photometric \(photometric)): \(problem)")
            }
            mode = FZ_TIFF_RGBA_IMAGE
            pixelFormat = info.extra_count > 0 ? .rgba : .rgb
        }
        deepSamples = bits == 16 && (mode == FZ_TIFF_GRAY || mode == FZ_TIFF_RGB) && info.compression != 7
        bitDepth = deepSamples || (bits < 8 && mode == FZ_TIFF_GRAY) ? bits : 8
    }

    /// The shim's plan for `columns`, at 8 or (`deep`) 16 bits.
    func plan(columns: Range<Int>, deep: Bool) -> fz_tiff_plan {
        var p = fz_tiff_plan()
        p.mode = Int32(mode)
        p.out_channels = Int32(pixelFormat.channels)
        p.deep = deep && deepSamples ? 1 : 0
        p.unpremultiply = unpremultiply ? 1 : 0
        p.x0 = UInt32(columns.lowerBound)
        p.x1 = UInt32(columns.upperBound)
        return p
    }
}

/// A reduced-resolution copy of a page: a later directory (`index`) or a SubIFD (`subIFD`).
struct TIFFLevel: Hashable, Sendable {
    var index: Int
    var subIFD: UInt64
    var size: PixelSize
    /// The reduction it stands for: the page's width over its own, rounded.
    var denominator: Int
}

/// One page: a directory that is not a reduced copy, with the copies that follow it.
struct TIFFPage {
    var index: Int
    var size: PixelSize
    var info: fz_tiff_info
    var levels: [TIFFLevel] = []

    /// The pages of the first `limit` directories of the file; directories marked
    /// reduced-resolution (NewSubfileType bit 0) after a page are its levels. `capped` when
    /// the file has more directories than that (one more is looked at to know).
    static func scan(_ tiff: TIFFFile, limit: Int) throws(DecodeError) -> (pages: [TIFFPage], capped: Bool) {
        var pages: [TIFFPage] = []
        let infos = try tiff.scan(limit: limit + 1)
        for (index, info) in infos.prefix(limit).enumerated() {
            let size = PixelSize(width: Int(info.width), height: Int(info.height))
            if info.subfile_type & 1 != 0, let last = pages.indices.last {
                pages[last].addLevel(index: index, subIFD: 0, info: info)
            } else {
                pages.append(TIFFPage(index: index, size: size, info: info))
            }
        }
        return (pages, infos.count > limit)
    }

    /// `page` with its SubIFDs (as `vips tiffsave --subifd` writes a pyramid) as levels too.
    static func withSubIFDLevels(_ page: TIFFPage, _ tiff: TIFFFile) throws(DecodeError) -> TIFFPage {
        guard page.info.subifd_count > 0 else { return page }
        var page = page
        _ = try tiff.select(page.index)
        for offset in tiff.subIFDs {
            guard let info = try? tiff.select(0, subIFD: offset) else { continue }
            page.addLevel(index: 0, subIFD: offset, info: info)
        }
        return page
    }

    /// Keeps a copy as a level when it has the page's samples and shape and is at least
    /// half as small, one level per reduction.
    mutating func addLevel(index: Int, subIFD: UInt64, info: fz_tiff_info) {
        let w = Int(info.width)
        let h = Int(info.height)
        guard w > 0, h > 0, w < size.width, info.photometric == self.info.photometric,
            info.spp == self.info.spp, info.bits == self.info.bits
        else { return }
        // Writers round a level's size up or down (278/16 is stored as 18): the nearest
        // power of two whose level size is within one pixel of it, else the rounded ratio.
        let ratio = Double(size.width) / Double(w)
        var power = 1
        while Double(power * 2) <= ratio * 2.0.squareRoot() { power *= 2 }
        let (pw, ph) = (size.width, size.height)
        let fits = { (d: Int) in abs(w * d - pw) <= d && abs(h * d - ph) <= d }
        let d = fits(power) ? power : Int(ratio.rounded())
        guard d >= 2, fits(d),
            !levels.contains(where: { $0.denominator == d })
        else { return }
        levels.append(TIFFLevel(index: index, subIFD: subIFD, size: PixelSize(width: w, height: h), denominator: d))
        levels.sort { $0.denominator < $1.denominator }
    }
}
