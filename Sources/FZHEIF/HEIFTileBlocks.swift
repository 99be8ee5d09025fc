// Calls libde265's shim (CFZDe265) for the block sums of a tile; holds no pointer past a call.

import CFZDe265
import FZFormat
import FZImage
import Geometry

/// The sums of R, G and B over the whole blocks of a box reduction that one tile covers
/// (`HEIFBlockStream`): a reduced thumbnail's box average taken in Y'CbCr, before the
/// conversion (fz_de265_blocks.c says why that is the same but for rounding and clipping).
struct HEIFTileBlocks: Sendable {
    /// The first block the tile touches, across and down, and how many.
    var firstColumn: Int
    var firstRow: Int
    var columns: Int
    var rows: Int
    /// columns x rows x 3 sums, row-major.
    var sums: [Float]
}

extension HEIFTileDecoder {
    /// Where tile `k` lies on the grid of `fx` x `fy` blocks of the shown image (the canvas
    /// crop; the grid shown upright, no quarter turn or mirror).
    func blockGeometry(tile k: Int, fx: Int, fy: Int) -> fz_de265_blocks? {
        let canvas = grid.canvas
        let place = canvas.rect(ofTile: k).intersection(canvas.crop)
        guard !place.isEmpty else { return nil }
        let tileX = k % canvas.columns * canvas.tile.width
        let tileY = k / canvas.columns * canvas.tile.height
        return fz_de265_blocks(
            origin_x: Int32(tileX - canvas.crop.x), origin_y: Int32(tileY - canvas.crop.y),
            x0: Int32(place.x - tileX), y0: Int32(place.y - tileY),
            x1: Int32(place.maxX - tileX), y1: Int32(place.maxY - tileY), fx: Int32(fx), fy: Int32(fy))
    }

    /// Tile `k`'s block sums: from its Y'CbCr planes when libde265 decodes it, else from the
    /// RGB that libheif gives (today's pixels or today's error).
    func blockSums(tile k: Int, fx: Int, fy: Int) throws(DecodeError) -> HEIFTileBlocks {
        guard var b = blockGeometry(tile: k, fx: fx, fy: fy) else {
            return HEIFTileBlocks(firstColumn: 0, firstRow: 0, columns: 0, rows: 0, sums: [])
        }
        var columns: Int32 = 0
        var rows: Int32 = 0
        fz_blocks_extent(&b, &columns, &rows)
        let count = Int(columns) * Int(rows) * 3
        var sums = [Float](repeating: 0, count: count)
        var done = false
        if decodesWithDe265, let colour = de265Colour {
            let tile = grid.tiles[k]
            let size = grid.canvas.tile
            let status = withTileData(tile) { data in
                tile.properties[0].withUnsafeBufferPointer { hvcC in
                    withUnsafePointer(to: colour) { c in
                        sums.withUnsafeMutableBufferPointer { s in
                            fz_de265_decode_tile_blocks(
                                hvcC.baseAddress! + 8, hvcC.count - 8, data.baseAddress, data.count,
                                Int32(size.width), Int32(size.height), c, &b, s.baseAddress!, nil)
                        }
                    }
                }
            }
            done = status == Int32(FZ_DE265_OK)
        }
        if !done {
            let image = try decodeThroughLibheif(tile: k, as: Image.self)
            image.pixels.withUnsafeBufferPointer { p in
                sums.withUnsafeMutableBufferPointer { s in
                    fz_rgb_block_sums(
                        p.baseAddress!, image.width * image.format.channels, Int32(image.format.channels), &b,
                        s.baseAddress!)
                }
            }
        }
        return HEIFTileBlocks(
            firstColumn: Int(b.origin_x + b.x0) / fx, firstRow: Int(b.origin_y + b.y0) / fy, columns: Int(columns),
            rows: Int(rows), sums: sums)
    }
}
