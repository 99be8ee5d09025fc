import TestSupport
import Testing

@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// 8-bit HEVC tiles decoded straight by libde265 (`HEIFTileDecoder.decodeWithDe265`) equal
/// libheif's decode of the same tile (`decodeThroughLibheif`, today's path and heif-convert's
/// decoder) byte for byte: every tile of the phone files, of the synthetic grids, and of a
/// grid whose `colr` nclx is rewritten to every matrix and range libheif 1.15 converts.
/// (That the libheif tiles equal heif-convert's whole decode is HEIFGridTests' part.)
struct HEIFTileDe265Tests {
    static let phones = HEIFGridTests.phones

    /// The file's grid and tile decoder.
    static func tiles(_ bytes: [UInt8], name: String) throws -> HEIFTileDecoder {
        let file = try #require(
            try HEIFFileBytes.load(try ImageSource(bytes: bytes, name: name), limit: 1 << 28, path: name))
        let grid = try #require(try HEIFGrid.read([UInt8](file.buffer)))
        return HEIFTileDecoder(grid: grid, file: file, path: name)
    }

    /// Every tile through both paths; the libde265 path must be taken for each (`taken`
    /// tiles) or for none.
    static func expectEqualTiles(
        _ tiles: HEIFTileDecoder, _ label: String, taken: Bool = true, only: [Int]? = nil
    ) throws {
        #expect(tiles.decodesWithDe265 == taken, "\(label)")
        for k in only ?? Array(tiles.grid.tiles.indices) {
            let direct = tiles.decodeWithDe265(tile: k)
            #expect((direct != nil) == taken, "\(label) tile \(k)")
            guard let direct else { continue }
            let reference = try tiles.decodeThroughLibheif(tile: k, as: Image.self)
            #expect(direct == reference.pixels, "\(label) tile \(k) differs from libheif's")
        }
    }

    @Test(.enabled(if: FileSystem.kind(of: phones) == .directory), arguments: ["xiaomi.heic", "spatial_photo.heic"])
    func phoneTilesEqualLibheif(_ name: String) throws {
        let bytes = try FileSystem.readBytes(FileSystem.join(Self.phones, name), limit: 1 << 28)
        try Self.expectEqualTiles(try Self.tiles(bytes, name: name), name)
    }

    /// The synthetic grids: every orientation (the tiles are the same, the canvas turns),
    /// clean apertures, a P3 nclx, alpha, an odd canvas; the 10- and 12-bit grids and AV1
    /// stay with libheif.
    @Test(arguments: [
        ("orient-0-n.heic", true), ("orient-90-1.heic", true), ("clap-90.heic", true), ("p3.heic", true),
        ("alpha.heic", true), ("wide.heic", true), ("deep.heic", false), ("deep12.heic", false),
        ("deep-alpha.heic", false), ("grid.avif", false),
    ])
    func syntheticTilesEqualLibheif(_ name: String, _ taken: Bool) throws {
        let bytes = try FileSystem.readBytes(HEIFGridTests.path(name), limit: 1 << 26)
        try Self.expectEqualTiles(try Self.tiles(bytes, name: name), name, taken: taken)
    }

    /// A tile's rows alone (a crop converts only what it shows), with and without libde265's
    /// worker threads: the same bytes as those rows of the whole tile on one thread, for odd
    /// and even first rows (4:2:0 chroma pairs by the picture's row), alpha and 4:4:4 included.
    @Test(arguments: ["orient-90-1.heic", "clap-90.heic", "p3.heic", "alpha.heic", "wide.heic"])
    func tileRowsEqualTheWholeTile(_ name: String) throws {
        let bytes = try FileSystem.readBytes(HEIFGridTests.path(name), limit: 1 << 26)
        let tiles = try Self.tiles(bytes, name: name)
        let size = tiles.grid.canvas.tile
        let rowBytes = size.width * tiles.format.channels
        for k in Set([0, tiles.grid.tiles.count - 1]) {
            let whole = try #require(tiles.decodeWithDe265(tile: k))
            let h = size.height
            for rows in [0..<1, 1..<2, 5..<6, 7..<(min(30, h)), (h - 3)..<h, 0..<h] where rows.lowerBound >= 0 {
                for workers in [0, 2] {
                    let part = try #require(tiles.decodeWithDe265(tile: k, rows: rows, workers: workers))
                    #expect(part.count == rows.count * rowBytes, "\(name) tile \(k) rows \(rows)")
                    let expected = Array(whole[(rows.lowerBound * rowBytes)..<(rows.upperBound * rowBytes)])
                    #expect(part == expected, "\(name) tile \(k) rows \(rows) workers \(workers)")
                }
            }
        }
    }

    /// Rectangles read through the tiles they touch (each tile's shown rows only, a lone tile
    /// with worker threads) equal the same rectangles cut from whole tiles.
    @Test(arguments: ["orient-0-n.heic", "orient-90-1.heic", "alpha.heic", "wide.heic"])
    func rowsOfTilesAssembleAsWholeTiles(_ name: String) throws {
        let bytes = try FileSystem.readBytes(HEIFGridTests.path(name), limit: 1 << 26)
        let tiles = try Self.tiles(bytes, name: name)
        let size = tiles.grid.canvas.displayedSize
        let rects = [
            PixelRect(x: 0, y: 0, width: 1, height: 1),
            PixelRect(x: size.width / 2, y: size.height / 3, width: 5, height: 3),
            PixelRect(x: 1, y: 1, width: size.width - 2, height: size.height - 2),
            PixelRect(x: size.width - 7, y: size.height - 9, width: 7, height: 9),
        ]
        for threads in [1, 2] {
            for rect in rects {
                let part = try tiles.read([rect], threads: threads, as: Image.self)[0]
                let all = tiles.tiles(for: [rect])
                let whole = try tiles.decode(tiles: all, threads: 1, as: Image.self).images
                #expect(part == tiles.assemble(rect, from: whole), "\(name) \(rect) on \(threads) threads")
            }
        }
    }

    /// p3.heic's nclx rewritten in place to each matrix (0 GBR, 8 YCgCo, the Kr/Kb table,
    /// unknown ones that fall to BT.601's defaults) in both ranges: the same pixels as
    /// libheif's conversion. Matrices 12 and 13 (derived from the primaries) go to libheif.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 200])
    func everyMatrixAndRangeEqualsLibheif(_ matrix: Int) throws {
        let original = try FileSystem.readBytes(HEIFGridTests.path("p3.heic"), limit: 1 << 26)
        let at = try #require(Self.find(Array("colrnclx".utf8), in: original)) + 8
        for full in [false, true] {
            var bytes = original
            bytes[at + 4] = UInt8(matrix >> 8)
            bytes[at + 5] = UInt8(matrix & 0xFF)
            bytes[at + 6] = full ? 0x80 : 0
            let tiles = try Self.tiles(bytes, name: "p3-m\(matrix).heic")
            #expect(tiles.de265Colour?.matrix == Int32(matrix))
            #expect(tiles.de265Colour?.full_range == (full ? 1 : 0))
            let converts = matrix != 12 && matrix != 13
            for k in [0, tiles.grid.tiles.count - 1] {
                let direct = tiles.decodeWithDe265(tile: k)
                #expect((direct != nil) == converts, "matrix \(matrix) full \(full)")
                guard let direct else { continue }
                let reference = try tiles.decodeThroughLibheif(tile: k, as: Image.self)
                #expect(direct == reference.pixels, "matrix \(matrix) full \(full) tile \(k)")
            }
        }
    }

    /// A spoilt tile: libde265 gives no usable picture, the tile goes to libheif, and the
    /// read fails with libheif's one line naming the file and the tile, as before.
    @Test func aSpoiltTileFailsAsBefore() throws {
        var bytes = try FileSystem.readBytes(HEIFGridTests.path("orient-0-n.heic"), limit: 1 << 24)
        let grid = try #require(try HEIFGrid.read(bytes))
        for i in grid.tiles[11].extents[0] { bytes[i] = 0xFF }
        let tiles = try Self.tiles(bytes, name: "t.heic")
        #expect(tiles.decodeWithDe265(tile: 11) == nil)
        do {
            _ = try tiles.decode(tile: 11, as: Image.self)
            Issue.record("the spoilt tile was decoded")
        } catch {
            #expect(error.description.contains("t.heic") && error.description.contains("tile 11"))
            #expect(!error.description.contains("\n"))
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }
}
