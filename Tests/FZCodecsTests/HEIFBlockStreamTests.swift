import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// A grid averaged over whole blocks in Y'CbCr before its conversion (`HEIFTileBlocks`,
/// `HEIFBlockStream`, issue 38) against the same blocks averaged over RGB that libheif
/// converted (the tile through libheif, or heif-convert's whole decode): the means may differ
/// only by the conversion's rounding of each pixel (half a level) where no pixel clips.
struct HEIFBlockStreamTests {
    /// Sums of channels 0-2 over each fx x fy block of `image` (blocks from the image's top
    /// left, partial at its right and bottom), and whether a block holds a clipped sample.
    static func blockSums(_ image: Image, fx: Int, fy: Int) -> (sums: [Double], clipped: [Bool], size: PixelSize) {
        let size = PixelSize(width: (image.width + fx - 1) / fx, height: (image.height + fy - 1) / fy)
        let c = image.format.channels
        var sums = [Double](repeating: 0, count: size.width * size.height * 3)
        var clipped = [Bool](repeating: false, count: size.width * size.height * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                for k in 0..<3 {
                    let v = image.pixels[(y * image.width + x) * c + k]
                    let i = ((y / fy) * size.width + x / fx) * 3 + k
                    sums[i] += Double(v)
                    if v == 0 || v == 255 { clipped[i] = true }
                }
            }
        }
        return (sums, clipped, size)
    }

    /// Pixels in block (bx, by) of an image of `size`.
    static func count(_ bx: Int, _ by: Int, _ size: PixelSize, _ fx: Int, _ fy: Int) -> Double {
        Double((min((bx + 1) * fx, size.width) - bx * fx) * (min((by + 1) * fy, size.height) - by * fy))
    }

    /// Each tile's block sums (libde265's planes summed, then converted) against the sums of
    /// libheif's RGB for that tile, block by block: means within half a level plus float
    /// rounding where nothing clips, and most blocks compared.
    static func expectTileSums(_ tiles: HEIFTileDecoder, fx: Int, fy: Int, _ label: String, exact: Bool = false)
        throws
    {
        var compared = 0
        var total = 0
        for k in tiles.grid.tiles.indices {
            let ours = try tiles.blockSums(tile: k, fx: fx, fy: fy)
            let rgb = try tiles.decodeThroughLibheif(tile: k, as: Image.self)
            let place = tiles.grid.canvas.rect(ofTile: k).intersection(tiles.grid.canvas.crop)
            let tileX = k % tiles.grid.canvas.columns * tiles.grid.canvas.tile.width
            let tileY = k / tiles.grid.canvas.columns * tiles.grid.canvas.tile.height
            let crop = tiles.grid.canvas.crop
            // The reference: libheif's RGB of the tile's shown pixels, summed per block.
            for r in 0..<ours.rows {
                for c in 0..<ours.columns {
                    let bx = ours.firstColumn + c
                    let by = ours.firstRow + r
                    var sum = [0.0, 0.0, 0.0]
                    var clipped = [false, false, false]
                    var n = 0.0
                    for y in max(place.y, crop.y + by * fy)..<min(place.maxY, crop.y + (by + 1) * fy) {
                        for x in max(place.x, crop.x + bx * fx)..<min(place.maxX, crop.x + (bx + 1) * fx) {
                            n += 1
                            for q in 0..<3 {
                                let v = rgb.pixels[((y - tileY) * rgb.width + (x - tileX)) * 3 + q]
                                sum[q] += Double(v)
                                if v == 0 || v == 255 { clipped[q] = true }
                            }
                        }
                    }
                    for q in 0..<3 {
                        total += 1
                        let mine = Double(ours.sums[(r * ours.columns + c) * 3 + q])
                        if exact {
                            #expect(mine == sum[q], "\(label) tile \(k) block \(bx),\(by) channel \(q)")
                        } else if !clipped[q] {
                            compared += 1
                            #expect(
                                abs(mine / n - sum[q] / n) <= 0.5 + 1e-3,
                                "\(label) tile \(k) block \(bx),\(by) channel \(q): \(mine / n) against \(sum[q] / n)")
                        }
                    }
                }
            }
        }
        if !exact { #expect(compared * 3 >= total, "\(label): \(compared) of \(total) blocks compared") }
    }

    @Test(arguments: [
        ("orient-0-n.heic", 7, 5), ("wide.heic", 3, 4), ("wide.heic", 64, 64), ("p3.heic", 2, 2),
        ("clap-90.heic", 5, 3),
    ])
    func tileSumsAreLibheifsPixelsSummed(_ name: String, _ fx: Int, _ fy: Int) throws {
        let bytes = try FileSystem.readBytes(HEIFGridTests.path(name), limit: 1 << 26)
        try Self.expectTileSums(try HEIFTileDe265Tests.tiles(bytes, name: name), fx: fx, fy: fy, name)
    }

    /// Every kind of conversion: the float matrices in both ranges (within rounding), and
    /// the integer ones, GBR (0) and YCgCo (8), converted first and so summed exactly.
    @Test(arguments: [0, 1, 8, 9])
    func everyMatrixSumsAsLibheifConverts(_ matrix: Int) throws {
        let original = try FileSystem.readBytes(HEIFGridTests.path("p3.heic"), limit: 1 << 26)
        let at = try #require(HEIFTileDe265Tests.find(Array("colrnclx".utf8), in: original)) + 8
        for full in [false, true] {
            var bytes = original
            bytes[at + 4] = UInt8(matrix >> 8)
            bytes[at + 5] = UInt8(matrix & 0xFF)
            bytes[at + 6] = full ? 0x80 : 0
            let tiles = try HEIFTileDe265Tests.tiles(bytes, name: "p3-m\(matrix).heic")
            try Self.expectTileSums(
                tiles, fx: 6, fy: 7, "matrix \(matrix) full \(full)", exact: matrix == 0 || matrix == 8)
        }
    }

    /// The reduced rows the decoder delivers (`ImageReader.beginBlockRows`), on one thread
    /// and with workers summing ahead, against heif-convert's whole decode averaged over the
    /// same blocks: each sample the rounded mean, within one level where nothing clips
    /// (each pixel's rounding moves the mean by at most half a level).
    @Test(arguments: [("orient-0-n.heic", 7, 5), ("wide.heic", 3, 4), ("wide.heic", 9, 64)])
    func reducedRowsAreTheBlockMeans(_ name: String, _ fx: Int, _ fy: Int) throws {
        let reference = try HEIFGridTests.reference(name, format: .rgb)
        let blocks = Self.blockSums(reference, fx: fx, fy: fy)
        for threads in [1, 2] {
            var options = DecodeOptions()
            options.threads = threads
            let reader = try ImageReader(path: HEIFGridTests.path(name), options: options)
            let size = try #require(try reader.beginBlockRows(factorX: fx, factorY: fy))
            #expect(size == blocks.size)
            var row = [UInt8](repeating: 0, count: size.width * 3)
            var compared = 0
            for y in 0..<size.height {
                #expect(try row.withUnsafeMutableBufferPointer { try reader.readNextRow(into: $0.baseAddress!) })
                for x in 0..<size.width {
                    let n = Self.count(x, y, reference.size, fx, fy)
                    for k in 0..<3 where !blocks.clipped[(y * size.width + x) * 3 + k] {
                        let mean = blocks.sums[(y * size.width + x) * 3 + k] / n
                        compared += 1
                        #expect(
                            abs(Double(row[x * 3 + k]) - mean) <= 1, "\(name) \(threads) threads (\(x), \(y)) \(k)")
                    }
                }
            }
            #expect(compared * 2 >= size.width * size.height * 3, "\(name): \(compared) samples compared")
            #expect(try !row.withUnsafeMutableBufferPointer { try reader.readNextRow(into: $0.baseAddress!) })
        }
    }

    /// Grids shown turned or mirrored, with alpha, and formats that do not average while
    /// decoding say nil and leave the reader to decode its rows as before.
    @Test(arguments: ["orient-90-1.heic", "orient-0-1.heic", "alpha.heic", "orient-0-n.ref.png"])
    func othersDecline(_ name: String) throws {
        let reader = try ImageReader(path: HEIFGridTests.path(name))
        #expect(try reader.beginBlockRows(factorX: 4, factorY: 4) == nil)
        #expect(try reader.beginRows(denominator: 1) == reader.header.storedSize)
    }
}
