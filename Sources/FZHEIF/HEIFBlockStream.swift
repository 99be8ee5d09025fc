import FZFormat
import Geometry

/// The rows of a grid image box-reduced by whole blocks of `fx` x `fy` pixels, as
/// `BoxShrink` reduces decoded rows (blocks from the top left, partial at the right and
/// bottom edges, each the rounded mean of what it holds), but with the blocks summed in
/// Y'CbCr inside each tile and only the sums converted (`HEIFTileBlocks`, issue 38): a
/// 256 px thumbnail of a 12 MP iPhone photo converts 576x432 means instead of 12 MP pixels,
/// and neither the RGB tiles nor the full-size rows are ever made. Workers sum the tiles of
/// the rows of tiles ahead (`HEIFBandPrefetch`), as `HEIFTileStream` decodes them.
///
/// Only for a grid shown upright (a clean aperture allowed, no quarter turn or mirror) and
/// without alpha (`BoxShrink` weights colour by alpha); the decoder says nil otherwise and
/// the rows are decoded and averaged as before.
struct HEIFBlockStream {
    let tiles: HEIFTileDecoder
    let fx: Int
    let fy: Int
    /// The shown image (the canvas crop) and the reduced rows delivered.
    let shown: PixelSize
    let output: PixelSize
    let threads: Int
    /// The tiles of each row of tiles touching the crop, and the shown rows each covers.
    let bands: [[Int]]
    let bandRows: [Range<Int>]
    let ahead: Int
    /// Bands whose sums are held, by band index.
    private var held: [Int: [Int: HEIFTileBlocks]] = [:]
    private var next = 0
    private var prefetch: HEIFBandPrefetch<HEIFTileBlocks>.Owner?

    /// nil for a grid this path does not reduce (turned, mirrored, alpha, factors of 1).
    init?(tiles: HEIFTileDecoder, fx: Int, fy: Int, threads: Int, ahead: Int = 2) {
        let canvas = tiles.grid.canvas
        guard canvas.orientation == .up, tiles.grid.alphaTiles == nil, (1...64).contains(fx), (1...64).contains(fy),
            fx * fy > 1
        else { return nil }
        self.tiles = tiles
        self.fx = fx
        self.fy = fy
        self.threads = threads
        let crop = canvas.crop
        shown = crop.size
        output = PixelSize(width: (shown.width + fx - 1) / fx, height: (shown.height + fy - 1) / fy)
        let t = canvas.tile
        var bands: [[Int]] = []
        var rows: [Range<Int>] = []
        for ty in (crop.y / t.height)...((crop.maxY - 1) / t.height) {
            bands.append(((crop.x / t.width)...((crop.maxX - 1) / t.width)).map { ty * canvas.columns + $0 })
            rows.append((max(ty * t.height, crop.y) - crop.y)..<(min((ty + 1) * t.height, crop.maxY) - crop.y))
        }
        self.bands = bands
        bandRows = rows
        self.ahead = threads > 1 && bands.count > 1 ? ahead : 0
    }

    /// Bytes held at once: the sums of the bands held and decoded ahead, and each thread's
    /// tile being decoded (its planes, or libheif's RGB).
    var memory: Int64 {
        let sums = Int64((tiles.grid.canvas.tile.width / fx + 2) * (tiles.grid.canvas.tile.height / fy + 2) * 3 * 4)
        let widest = Int64(bands.map(\.count).max() ?? 0)
        return widest * Int64(ahead + 2) * sums + Int64(max(1, threads)) * tiles.tileBytes(sampleBytes: 1) * 2
            + Int64(output.width) * 3 * 8
    }

    /// Band `i`'s sums, summed here or by the workers ahead.
    private mutating func take(band i: Int) throws(DecodeError) -> [Int: HEIFTileBlocks] {
        let (tiles, fx, fy) = (self.tiles, self.fx, self.fy)
        guard ahead > 0 else {
            var out: [Int: HEIFTileBlocks] = [:]
            for t in bands[i] { out[t] = try tiles.blockSums(tile: t, fx: fx, fy: fy) }
            return out
        }
        if prefetch == nil {
            prefetch = HEIFBandPrefetch.Owner(
                HEIFBandPrefetch(bands: bands, threads: threads, ahead: ahead) { (k: Int) throws(DecodeError) in
                    try tiles.blockSums(tile: k, fx: fx, fy: fy)
                })
        }
        return try prefetch!.prefetch.band(i)
    }

    mutating func skip(rows: Int) { next = min(output.height, next + max(0, rows)) }

    /// Reads up to `rows` reduced rows of `output.width` RGB pixels.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        var done = 0
        var acc = [Double](repeating: 0, count: output.width * 3)
        while done < rows && next < output.height {
            let top = next * fy
            let bottom = min(top + fy, shown.height)
            let needed = bands.indices.filter { bandRows[$0].overlaps(top..<bottom) }
            for i in held.keys where i < needed[0] { held[i] = nil }
            for i in needed where held[i] == nil { held[i] = try take(band: i) }
            for i in acc.indices { acc[i] = 0 }
            for i in needed {
                for blocks in held[i]!.values where (blocks.firstRow..<blocks.firstRow + blocks.rows).contains(next) {
                    let from = (next - blocks.firstRow) * blocks.columns * 3
                    let to = blocks.firstColumn * 3
                    for j in 0..<(blocks.columns * 3) { acc[to + j] += Double(blocks.sums[from + j]) }
                }
            }
            let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + done * output.width * 3
            let ny = bottom - top
            for x in 0..<output.width {
                let n = Double((min((x + 1) * fx, shown.width) - x * fx) * ny)
                for k in 0..<3 {
                    // libheif's rounding, (long)(v + 0.5f) clipped, of the block's mean.
                    let v = acc[x * 3 + k] / n + 0.5
                    out[x * 3 + k] = v <= 0 ? 0 : (v >= 255 ? 255 : UInt8(v))
                }
            }
            next += 1
            done += 1
        }
        return done
    }
}
