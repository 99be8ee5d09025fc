// The one Swift file that calls libde265's shim (CFZDe265): it holds no pointer past a call.

import CFZDe265
import FZImage

/// HEVC tiles decoded straight by libde265 (issue 38), without libheif: the tile's `hvcC`
/// parameter sets and data go to a decoder of its own and its picture is converted to RGB as
/// libheif 1.15 converts it (the shim, fz_de265.c, says how), so the pixels are today's bit
/// for bit. A tile costs its decode (about 10 ms for 512x512) instead of that plus a one-tile
/// HEIF file, a libheif context and decoder, and loading libheif with its codecs (x265, aom,
/// dav1d).
///
/// Only what it checks comes here: 8-bit `hvc1` tiles (4:2:0, 4:2:2 or 4:4:4, an 8-bit alpha
/// grid) with 4-byte NAL lengths, a `colr` that is nclx (other than matrices 12 and 13), an
/// ICC profile or absent, read at 8 bits. Everything else, and every tile libde265 gives no
/// usable picture for (corrupt data, another size), goes through libheif as before
/// (`HEIFTileDecoder.decodeThroughLibheif`), which gives today's pixels or today's error.
extension HEIFTileDecoder {
    /// Starts building libde265's tables on a thread of their own (`fz_de265_warm_up`).
    static func warmUpDe265() { fz_de265_warm_up() }

    /// The colour the conversion takes from the grid's `colr`: nil when this path does not
    /// read it (libheif then decodes the tile).
    var de265Colour: fz_de265_colour? {
        // No nclx: the picture's VUI says (the shim reads it).
        let vui = fz_de265_colour(has_nclx: 0, matrix: 2, primaries: 2, full_range: 0)
        guard let colr = grid.colour else { return vui }
        guard colr.count >= 12 else { return nil }
        switch String(decoding: colr[8..<12], as: UTF8.self) {
        case "prof", "rICC": return vui
        case "nclx":
            // libheif reads 7 bytes: primaries, transfer, matrix (16 bits each), the range bit.
            guard colr.count >= 19 else { return nil }
            let primaries = Int32(colr[12]) << 8 | Int32(colr[13])
            let matrix = Int32(colr[16]) << 8 | Int32(colr[17])
            return fz_de265_colour(
                has_nclx: 1, matrix: matrix, primaries: primaries, full_range: colr[18] & 0x80 != 0 ? 1 : 0)
        default: return nil
        }
    }

    /// Whether tiles of this grid go to libde265 at all (a grid of another codec or depth
    /// does not, with no tile tried).
    var decodesWithDe265: Bool {
        guard grid.itemType == "hvc1", de265Colour != nil else { return false }
        func eightBit(_ t: HEIFGrid.Tile?, alpha: Bool) -> Bool {
            guard let t, let hvcC = t.properties.first, hvcC.count > 8,
                String(decoding: hvcC[4..<8], as: UTF8.self) == "hvcC"
            else { return false }
            var chroma: Int32 = 0
            var luma: Int32 = 0
            var chromaBits: Int32 = 0
            var length: Int32 = 0
            let ok = hvcC.withUnsafeBufferPointer {
                fz_de265_hvcc_info($0.baseAddress! + 8, $0.count - 8, &chroma, &luma, &chromaBits, &length) == 0
            }
            return ok && luma == 8 && chromaBits == 8 && length == 4 && (alpha || chroma != 0)
        }
        return eightBit(grid.tiles.first, alpha: false)
            && (grid.alphaTiles == nil || eightBit(grid.alphaTiles?.first, alpha: true))
    }

    /// Tile `k` as interleaved 8-bit RGB (RGBA with an alpha grid) of the tile's coded width,
    /// its rows `rows` only (all by default: a crop converts just the rows it shows), decoded by
    /// libde265 with `workers` worker threads of its own (0: on this thread alone); nil when
    /// this path does not decode it (libheif then does).
    func decodeWithDe265(tile k: Int, rows: Range<Int>? = nil, workers: Int = 0) -> [UInt8]? {
        guard decodesWithDe265, let colour = de265Colour else { return nil }
        let size = grid.canvas.tile
        let rows = rows ?? 0..<size.height
        precondition(rows.lowerBound >= 0 && rows.upperBound <= size.height && !rows.isEmpty)
        let channels = format.channels
        var parts = [(grid.tiles[k], false)]
        if let alpha = grid.alphaTiles { parts.append((alpha[k], true)) }
        // Not cleared first: the colour tile writes every R, G and B sample, the alpha tile
        // (there is one whenever there are 4 channels) every alpha, and a tile that fails
        // gives nil, never these bytes.
        var ok = true
        let count = size.width * rows.count * channels
        let out = [UInt8](unsafeUninitializedCapacity: count) { o, initialized in
            for (tile, isAlpha) in parts where ok {
                let status = withTileData(tile) { data in
                    tile.properties[0].withUnsafeBufferPointer { hvcC in
                        withUnsafePointer(to: colour) { c in
                            fz_de265_decode_tile(
                                hvcC.baseAddress! + 8, hvcC.count - 8, data.baseAddress, data.count,
                                Int32(size.width), Int32(size.height), Int32(rows.lowerBound), Int32(rows.count),
                                c, isAlpha ? 1 : 0, o.baseAddress!, size.width * channels, Int32(channels),
                                Int32(workers), nil)
                        }
                    }
                }
                ok = status == Int32(FZ_DE265_OK)
            }
            if !ok { o.initialize(repeating: 0) }
            initialized = count
        }
        return ok ? out : nil
    }

    /// Calls `body` with a tile's data in one piece: in place when it has one extent (the
    /// usual case), else copied together. The pages are given back afterwards, as
    /// `file(forTile:)` does.
    func withTileData<R>(_ tile: HEIFGrid.Tile, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        defer { for e in tile.extents { file.release(e) } }
        if tile.extents.count == 1 {
            let raw = file.bytes(tile.extents[0])  // fetched first from a URL
            return body(raw.assumingMemoryBound(to: UInt8.self))
        }
        var joined: [UInt8] = []
        joined.reserveCapacity(tile.extents.reduce(0) { $0 + $1.count })
        for e in tile.extents { joined += file.bytes(e) }
        return joined.withUnsafeBufferPointer(body)
    }
}
