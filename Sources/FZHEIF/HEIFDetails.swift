import FZFormat
import FZSystem
import Geometry

/// What an HEIF/HEIC/AVIF file says about its primary image.
public struct HEIFDetails: Hashable, Sendable {
    /// The `ftyp` major brand ("heic", "mif1", "avif"...) and the compatible ones.
    public var brand: String
    public var compatibleBrands: [String]
    /// "HEVC", "AV1"...; for a grid, the tiles' codec.
    public var codec: String
    /// Tiles of a grid image (0: not a grid).
    public var gridTiles: Int
    /// A grid's columns and rows of tiles and the coded size of one tile (0 and nil: not a
    /// grid, or one only libheif composes).
    public var gridColumns = 0
    public var gridRows = 0
    public var tileSize: PixelSize?
    /// Bits per luma sample as stored (8, 10, 12).
    public var bitDepth: Int
    public var hasAlpha: Bool
    /// The primary image's transformations ("irot 90", "imir top-bottom", "clap"), applied by libheif.
    public var transformations: [String]
    /// The size before the transformations (`ispe`).
    public var codedSize: PixelSize
    /// How the coded image is shown (its transformations as one crop and one orientation),
    /// when they could be read and give the size libheif decodes: what maps an upright
    /// rectangle back to coded pixels (`crop --json`'s `storedRect`).
    public var display: TiledCanvas?
    /// The embedded thumbnails' sizes.
    public var thumbnails: [PixelSize]
    /// "nclx" (with `nclx`), "prof"/"rICC" (an ICC profile) or "" when the file says nothing.
    public var colorType: String
    /// The nclx values: colour primaries, transfer characteristics, matrix coefficients, full range.
    public var nclx: [Int]?
}

extension ImageFormat {
    public static let heif = ImageFormat(rawValue: "HEIF")
}

extension HEIFDetails: CodecDetails {
    public var summary: [String] {
        var grid = "\(codec) grid of \(gridTiles) tiles"
        if let tileSize { grid = "\(codec) grid of \(gridColumns)x\(gridRows) tiles of \(tileSize)" }
        var parts = ["brand \(brand)", gridTiles > 0 ? grid : codec, "\(bitDepth)-bit"]
        if hasAlpha { parts.append("alpha") }
        if !transformations.isEmpty {
            // Said like a JPEG's EXIF orientation: the line leads with the coded (stored)
            // size, and the transformations give the upright one.
            let upright = display.map { ", upright \($0.displayedSize)" } ?? ""
            parts.append(transformations.joined(separator: " + ") + " (applied)" + upright)
        }
        if !thumbnails.isEmpty {
            parts.append(
                "thumbnail\(thumbnails.count == 1 ? "" : "s") " + thumbnails.map(\.description).joined(separator: ", "))
        }
        if let nclx { parts.append("nclx \(nclx[0])/\(nclx[1])/\(nclx[2]) \(nclx[3] == 1 ? "full" : "limited") range") }
        if colorType == "prof" || colorType == "rICC" { parts.append("ICC profile (not applied)") }
        return parts
    }

    /// AVIF for AV1-coded files, HEIC for the rest (HEVC).
    public var formatName: String? { codec == "AV1" ? "AVIF" : "HEIC" }
    public var codedDimensions: PixelSize? { codedSize }
    public func codedRect(forDisplayed rect: PixelRect) -> PixelRect? { display?.codedRect(forDisplayed: rect) }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(bitDepth)), ("brand", .string(brand)),
            ("compatibleBrands", .array(compatibleBrands.map { .string($0) })),
            ("codec", .string(codec)), ("gridTiles", .int(gridTiles)),
            ("gridColumns", .int(gridColumns)), ("gridRows", .int(gridRows)),
            ("tileWidth", tileSize.map { .int($0.width) } ?? .null),
            ("tileHeight", tileSize.map { .int($0.height) } ?? .null),
            ("alpha", .bool(hasAlpha)),
            ("transformations", .array(transformations.map { .string($0) })),
            ("thumbnails", .array(thumbnails.map { .array([.int($0.width), .int($0.height)]) })),
            ("colorBox", colorType.isEmpty ? .null : .string(colorType)),
            ("nclx", nclx.map { .array($0.map { .int($0) }) } ?? .null),
        ]
    }
}
