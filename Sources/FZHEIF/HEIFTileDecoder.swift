// libheif's types (heif_error) but none of its pointers: the one-tile file built here is
// decoded by HEIFDecoder.decodeSingleItem in HEIFCodec.swift, the file that owns them.

import CFZHeif
import CHeif
import FZFormat
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// Decodes the tiles of an `HEIFGrid` one at a time, so a crop costs the tiles it touches
/// rather than the whole grid. 8-bit HEVC tiles go straight to libde265 (`decodeWithDe265`,
/// HEIFTileDe265.swift); the rest as follows. libheif 1.15 has no call to decode one tile
/// of an image (1.19's `heif_image_handle_decode_image_tile`), so each tile goes to libheif as a small
/// HEIF file of its own built in memory (`file(forTile:)`): `ftyp`, a `meta` whose one item
/// is the tile with its codec configuration, size and the grid's `colr` (and its alpha tile
/// as an `auxl` item), then the tile's data. libheif then converts it to RGB exactly as it
/// converts that part of the whole grid (the same colour property, the same conversion; 4:2:0
/// chroma never straddles a tile edge, tiles being of even size), which the tests check
/// against the whole decode at tile boundaries and corners.
///
/// The other known way, a copy of `meta` with the tiles' hidden flags cleared so that
/// `heif_context_get_image_handle` reaches them, parses `meta` once (768 items for a 200 MP
/// photo) but gives the tiles no colour property unless `ipma` is rewritten as well; the
/// small file is built and parsed in well under the time one tile takes to decode.
struct HEIFTileDecoder: @unchecked Sendable {
    let grid: HEIFGrid
    /// The file's bytes.
    let file: HEIFFileBytes
    let path: String

    /// Tile `k` as a one-item HEIF file (with its alpha tile when the grid has alpha).
    func file(forTile k: Int) -> [UInt8] {
        typealias Items = HEIFGrid.Items
        func be(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - $0))) } }
        func full(_ type: String, _ version: UInt8, _ flags: Int, _ body: [UInt8]) -> [UInt8] {
            Items.box(type, ([version] + be(flags, 3) + body)[...])
        }
        let tile = grid.canvas.tile
        var parts: [(HEIFGrid.Tile, [[UInt8]])] = [(grid.tiles[k], grid.colour.map { [$0] } ?? [])]
        if let alpha = grid.alphaTiles, let aux = grid.alphaProperty { parts.append((alpha[k], [aux])) }
        let ispe = full("ispe", 0, 0, be(tile.width, 4) + be(tile.height, 4))
        var ipco: [[UInt8]] = []
        var ipma: [UInt8] = be(parts.count, 4)
        var infe: [UInt8] = []
        let type = Array(grid.itemType.utf8)
        for (n, (t, extra)) in parts.enumerated() {
            var indices: [UInt8] = []
            for (j, p) in (t.properties + [ispe] + extra).enumerated() {
                ipco.append(p)
                // Essential: the codec configuration and auxC.
                indices.append(UInt8(ipco.count) | (j == 0 || (n == 1 && p == extra.first) ? 0x80 : 0))
            }
            ipma += be(n + 1, 2) + [UInt8(indices.count)] + indices
            infe += full("infe", 2, 0, be(n + 1, 2) + [0, 0] + type + [0])
        }
        let lengths = parts.map { $0.0.extents.reduce(0) { $0 + $1.count } }
        func meta(_ mdat: Int) -> [UInt8] {
            var iloc: [UInt8] = [0x44, 0x00] + be(parts.count, 2)
            var at = mdat
            for (n, length) in lengths.enumerated() {
                iloc += be(n + 1, 2) + [0, 0] + be(1, 2) + be(at, 4) + be(length, 4)
                at += length
            }
            var body = full("hdlr", 0, 0, [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            body += full("pitm", 0, 0, be(1, 2))
            body += full("iinf", 0, 0, be(parts.count, 2) + infe)
            if parts.count == 2 { body += full("iref", 0, 0, Items.box("auxl", (be(2, 2) + be(1, 2) + be(1, 2))[...])) }
            body += full("iloc", 0, 0, iloc)
            body += Items.box("iprp", (Items.box("ipco", Array(ipco.joined())[...]) + full("ipma", 0, 0, ipma))[...])
            return full("meta", 0, 0, body)
        }
        let brand = Array((grid.itemType == "av01" ? "avif" : "heic").utf8)
        let ftyp = Items.box("ftyp", (brand + [0, 0, 0, 0] + Array("mif1".utf8) + brand)[...])
        let head = ftyp.count + meta(0).count + 8
        var out = ftyp + meta(head) + be(lengths.reduce(0, +) + 8, 4) + Array("mdat".utf8)
        out.reserveCapacity(head + lengths.reduce(0, +))
        for (t, _) in parts {
            for e in t.extents {
                out += file.bytes(e)  // fetched first from a URL
                file.release(e)
            }
        }
        return out
    }

    /// Tile `k` decoded to interleaved RGB (RGBA with alpha), the tile's full coded size: 8-bit
    /// (`Image`), or 16-bit (`Image16`, 10 or 12 bits widened as the whole 16-bit decode does).
    /// 8-bit HEVC tiles go straight to libde265 (`decodeWithDe265`), the rest through libheif.
    func decode<P: HEIFTilePixels>(tile k: Int, as type: P.Type) throws(DecodeError) -> P {
        try decode(tile: k, rows: nil, as: P.self).image
    }

    /// The same, only the tile's rows `rows` when libde265 decodes it (libheif gives the whole
    /// tile), with `workers` libde265 worker threads.
    /// - Returns: the image and the tile row its first row is.
    func decode<P: HEIFTilePixels>(tile k: Int, rows: Range<Int>?, workers: Int = 0, as type: P.Type)
        throws(DecodeError) -> (image: P, firstRow: Int)
    {
        let size = grid.canvas.tile
        let rows = rows ?? 0..<size.height
        if P.sampleBytes == 1, let samples = decodeWithDe265(tile: k, rows: rows, workers: workers) {
            return (P(width: size.width, height: rows.count, format: format, samples: samples), rows.lowerBound)
        }
        return (try decodeThroughLibheif(tile: k, as: P.self), 0)
    }

    /// Tile `k` decoded by libheif from a one-tile HEIF file (`file(forTile:)`): the path for
    /// what libde265 is not given, and what the tests compare the libde265 path with.
    func decodeThroughLibheif<P: HEIFTilePixels>(tile k: Int, as type: P.Type) throws(DecodeError) -> P {
        let bytes = file(forTile: k)
        let alpha = grid.alphaTiles != nil
        let size = grid.canvas.tile
        func fail(_ e: heif_error) -> DecodeError {
            let text = e.message.map { String(cString: $0) } ?? "error \(e.code.rawValue)"
            let message = "tile \(k): libheif: " + text.split(whereSeparator: \.isNewline).joined(separator: " ")
            if e.code == heif_error_Memory_allocation_error { return .readFailed(path: path, reason: message) }
            return e.subcode == heif_suberror_End_of_data
                ? .truncated(path: path, detail: message) : .corrupt(path: path, detail: message)
        }
        return try HEIFDecoder.decodeSingleItem(
            bytes, alpha: alpha, size: size, as: P.self, path: path,
            mismatch: "tile \(k) does not decode to its declared \(size)", error: fail)
    }
}
