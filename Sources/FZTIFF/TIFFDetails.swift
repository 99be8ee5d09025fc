import CFZTIFF
import FZFormat
import FZSystem
import Geometry

/// What a TIFF's page says about its storage, for `info`.
public struct TIFFDetails: Hashable, Sendable {
    public var bitDepth: Int
    public var samplesPerPixel: Int
    /// gray, gray (min-is-white), rgb, palette, cmyk, ycbcr, cielab... (PhotometricInterpretation).
    public var photometric: String
    /// none, lzw, deflate, packbits, jpeg, zstd, ccitt-g4... (Compression).
    public var compression: String
    public var tiled: Bool
    /// The tile's size, or nil for strips.
    public var tileSize: PixelSize?
    /// Rows a strip, or nil for tiles.
    public var rowsPerStrip: Int?
    /// Samples stored in separate planes (PlanarConfiguration 2).
    public var planar: Bool
    /// associated, unassociated, or nil (no alpha).
    public var alpha: String?
    public var pages: Int
    /// The file has more directories than forcezoom reads (`TIFFDecoder.directoryLimit`):
    /// `pages` is those among the first ones, not the file's count.
    public var pagesCapped: Bool
    public var page: Int
    /// The page's reduced-resolution copies (a pyramid), largest first.
    public var levels: [PixelSize]

    init(_ info: fz_tiff_info, layout: TIFFLayout, pages: Int, pagesCapped: Bool, page: Int, levels: [TIFFLevel]) {
        bitDepth = Int(info.bits)
        samplesPerPixel = Int(info.spp)
        photometric = Self.photometricName(Int(info.photometric))
        compression = Self.compressionName(Int(info.compression))
        tiled = info.tiled != 0
        tileSize = tiled ? PixelSize(width: Int(info.tile_width), height: Int(info.tile_height)) : nil
        rowsPerStrip = tiled ? nil : Int(min(info.rows_per_strip, info.height))
        planar = info.planar == 2
        alpha = layout.pixelFormat.hasAlpha ? (info.extra_type == 1 ? "associated" : "unassociated") : nil
        self.pages = pages
        self.pagesCapped = pagesCapped
        self.page = page
        self.levels = levels.map(\.size)
    }

    static func photometricName(_ p: Int) -> String {
        let names = [
            0: "min-is-white", 1: "min-is-black", 2: "rgb", 3: "palette", 4: "mask", 5: "cmyk", 6: "ycbcr",
            8: "cielab", 9: "icclab", 10: "itulab", 32844: "logl", 32845: "logluv",
        ]
        return names[p] ?? "photometric \(p)"
    }

    static func compressionName(_ c: Int) -> String {
        let names = [
            1: "none", 2: "ccitt-rle", 3: "ccitt-g3", 4: "ccitt-g4", 5: "lzw", 6: "old-jpeg", 7: "jpeg", 8: "deflate",
            32946: "deflate", 32773: "packbits", 34925: "lzma", 50000: "zstd", 50001: "webp", 34887: "lerc",
            34676: "sgilog", 34677: "sgilog24", 32909: "pixar-log",
        ]
        return names[c] ?? "compression \(c)"
    }
}

extension TIFFDetails: CodecDetails {
    public var summary: [String] {
        var parts = ["\(photometric) \(bitDepth)-bit", compression]
        if let tileSize {
            parts.append("tiled \(tileSize.width)x\(tileSize.height)")
        } else if let rowsPerStrip {
            parts.append("strips of \(rowsPerStrip) rows")
        }
        if planar { parts.append("planar") }
        if let alpha { parts.append("\(alpha) alpha") }
        if pagesCapped {
            parts.append(
                "page \(page) of at least \(pages) (forcezoom reads the first \(TIFFDecoder.directoryLimit) directories)"
            )
        } else if pages > 1 {
            parts.append("page \(page) of \(pages)")
        }
        if !levels.isEmpty {
            parts.append("pyramid " + levels.map { "\($0.width)x\($0.height)" }.joined(separator: ", "))
        }
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(bitDepth)), ("samplesPerPixel", .int(samplesPerPixel)),
            ("photometric", .string(photometric)), ("tiffCompression", .string(compression)),
            ("tiled", .bool(tiled)),
            ("tileWidth", tileSize.map { .int($0.width) } ?? .null),
            ("tileHeight", tileSize.map { .int($0.height) } ?? .null),
            ("rowsPerStrip", rowsPerStrip.map { .int($0) } ?? .null), ("planar", .bool(planar)),
            ("alphaKind", alpha.map { .string($0) } ?? .null), ("pages", .int(pages)),
            ("pagesCapped", .bool(pagesCapped)),
            ("page", .int(page)),
            ("levels", .array(levels.map { .array([.int($0.width), .int($0.height)]) })),
        ]
    }
}
