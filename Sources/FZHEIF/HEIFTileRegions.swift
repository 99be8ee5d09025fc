import FZFormat
import FZImage
import FZSystem
import Geometry

extension HEIFTileDecoder {
    /// Displayed rectangles of the grid image, each decoded from the tiles it touches: every
    /// tile at most once (shared between rectangles), several at a time on `threads`
    /// threads, assembled in coded orientation and turned as the grid's transformations say.
    /// - Parameter rects: non-empty rectangles inside the displayed image.
    /// - Parameter type: `Image` for 8 bits a sample, `Image16` for 16.
    package func read<P: HEIFTilePixels>(_ rects: [PixelRect], threads: Int, as type: P.Type) throws(DecodeError) -> [P]
    {
        let list = tiles(for: rects)
        let decoded = try decode(tiles: list, rows: rows(of: list, for: rects), threads: threads, as: P.self)
        return rects.map { assemble($0, from: decoded.images, firstRows: decoded.firstRows) }
    }

    /// Tiles `list`, each decoded once (only its rows `rows[k]` converted, all without an
    /// entry), several at a time on `threads` threads, the largest (in coded bytes, a
    /// stand-in for their decoding time) first. A lone tile gets the threads instead, and the
    /// few tiles of a crop (at most two a thread) two more each: libde265 runs a picture's
    /// in-loop filters on its worker threads beside the decode, so a core left idle while
    /// the last, largest tile decodes is put to work. A 400 px crop of the iPhone photo
    /// (four tiles of 16-80 KB on 2 cores) went from 38.6 to 32.0 ms median in the decode.
    /// - Returns: each tile's image and the tile row its first row is (0 for a whole tile).
    package func decode<P: HEIFTilePixels>(
        tiles list: [Int], rows: [Int: Range<Int>] = [:], threads: Int, as type: P.Type
    ) throws(DecodeError) -> (images: [Int: P], firstRows: [Int: Int]) {
        var decoded: [Int: P] = [:]
        var firstRows: [Int: Int] = [:]
        var failure: DecodeError?
        if threads <= 1 || list.count == 1 {
            let workers = list.count == 1 && threads > 1 ? min(threads, 4) : 0
            for t in list {
                (decoded[t], firstRows[t]) = try decode(tile: t, rows: rows[t], workers: workers, as: P.self)
            }
            return (decoded, firstRows)
        }
        let job = self
        let order = list.indices.sorted { job.codedBytes(ofTile: list[$0]) > job.codedBytes(ofTile: list[$1]) }
        let workers = list.count <= 2 * threads ? 2 : 0
        WorkerPool<Result<(P, Int), DecodeError>>.run(
            count: list.count, threads: threads,
            work: { k in
                let i = order[k]
                return Result { () throws(DecodeError) in
                    try job.decode(tile: list[i], rows: rows[list[i]], workers: workers, as: P.self)
                }
            },
            onResult: { k, r in
                let i = order[k]
                switch r {
                case .success(let (image, first)): (decoded[list[i]], firstRows[list[i]]) = (image, first)
                case .failure(let e): if failure == nil { failure = e }
                }
            },
            onTick: { failure == nil })
        if let failure { throw failure }
        return (decoded, firstRows)
    }

    /// Tile `k`'s coded bytes.
    func codedBytes(ofTile k: Int) -> Int { grid.tiles[k].extents.reduce(0) { $0 + $1.count } }

    /// The rows of each tile of `list` that `rects` show (coded): the conversion reads 4:2:0
    /// chroma by the picture's row, so any first row gives the whole tile's pixels.
    package func rows(of list: [Int], for rects: [PixelRect]) -> [Int: Range<Int>] {
        let canvas = grid.canvas
        let coded = rects.map { canvas.codedRect(forDisplayed: $0) }
        var rows: [Int: Range<Int>] = [:]
        for t in list {
            let place = canvas.rect(ofTile: t)
            var low = Int.max
            var high = Int.min
            for r in coded {
                let part = place.intersection(r)
                guard part.width > 0, part.height > 0 else { continue }
                low = min(low, part.y - place.y)
                high = max(high, part.maxY - place.y)
            }
            guard low < high else { continue }
            rows[t] = low..<high
        }
        return rows
    }

    /// The displayed rectangle `rect` from its decoded tiles (all the tiles it touches must be
    /// in `decoded`): copied in coded orientation, then turned as the grid's transformations say.
    package func assemble<P: HEIFTilePixels>(_ rect: PixelRect, from decoded: [Int: P], firstRows: [Int: Int] = [:])
        -> P
    {
        let canvas = grid.canvas
        let r = canvas.codedRect(forDisplayed: rect)
        let c = format.channels * P.sampleBytes
        var out = [UInt8](repeating: 0, count: r.width * r.height * c)
        out.withUnsafeMutableBytes { dst in
            for t in canvas.tiles(touching: r) {
                guard let image = decoded[t] else { continue }
                let place = canvas.rect(ofTile: t)
                let part = place.intersection(r)
                let top = place.y + (firstRows[t] ?? 0)  // the canvas row of the image's first row
                image.samples.withUnsafeBytes { src in
                    for y in part.y..<part.maxY {
                        let s = ((y - top) * image.width + (part.x - place.x)) * c
                        let d = ((y - r.y) * r.width + (part.x - r.x)) * c
                        dst.baseAddress!.advanced(by: d).copyMemory(
                            from: src.baseAddress!.advanced(by: s), byteCount: part.width * c)
                    }
                }
            }
        }
        return P(width: r.width, height: r.height, format: format, samples: out).oriented(canvas.orientation)
    }

    /// The tiles `rects` touch, each once, in the order the rectangles first touch them.
    package func tiles(for rects: [PixelRect]) -> [Int] {
        let canvas = grid.canvas
        var needed: [Int] = []
        var seen: Set<Int> = []
        for r in rects {
            for t in canvas.tiles(touching: canvas.codedRect(forDisplayed: r)) where seen.insert(t).inserted {
                needed.append(t)
            }
        }
        return needed
    }

    /// The decoded tiles' pixel format: RGBA when the grid has an alpha grid.
    package var format: PixelFormat { grid.alphaTiles != nil ? .rgba : .rgb }

    /// Bytes one decoded tile holds at `sampleBytes` bytes a sample.
    package func tileBytes(sampleBytes: Int) -> Int64 {
        Int64(grid.canvas.tile.area) * Int64(format.channels) * Int64(sampleBytes)
    }

    /// Bytes the decoded tiles of `rects` hold at once at `sampleBytes` bytes a sample
    /// (checked against the memory budget).
    package func memory(for rects: [PixelRect], sampleBytes: Int = 1) -> Int64 {
        // Each tile's decoded planes in libde265 or libheif (about as large again) while it decodes.
        let out = rects.reduce(0) { $0 + Int64($1.width * $1.height) * 8 * Int64(sampleBytes) }
        return Int64(tileCount(for: rects)) * tileBytes(sampleBytes: sampleBytes) * 2 + out
    }

    /// How many distinct tiles `rects` touch.
    package func tileCount(for rects: [PixelRect]) -> Int { tiles(for: rects).count }
}
