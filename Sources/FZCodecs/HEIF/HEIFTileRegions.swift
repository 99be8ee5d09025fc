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
        let decoded = try decode(tiles: tiles(for: rects), threads: threads, as: P.self)
        return rects.map { assemble($0, from: decoded) }
    }

    /// Tiles `list`, each decoded once, several at a time on `threads` threads.
    package func decode<P: HEIFTilePixels>(tiles list: [Int], threads: Int, as type: P.Type) throws(DecodeError)
        -> [Int: P]
    {
        var decoded: [Int: P] = [:]
        var failure: DecodeError?
        if threads <= 1 || list.count == 1 {
            for t in list { decoded[t] = try decode(tile: t, as: P.self) }
            return decoded
        }
        let job = self
        WorkerPool<Result<P, DecodeError>>.run(
            count: list.count, threads: threads,
            work: { i in Result { () throws(DecodeError) in try job.decode(tile: list[i], as: P.self) } },
            onResult: { i, r in
                switch r {
                case .success(let image): decoded[list[i]] = image
                case .failure(let e): if failure == nil { failure = e }
                }
            },
            onTick: { failure == nil })
        if let failure { throw failure }
        return decoded
    }

    /// The displayed rectangle `rect` from its decoded tiles (all the tiles it touches must be
    /// in `decoded`): copied in coded orientation, then turned as the grid's transformations say.
    package func assemble<P: HEIFTilePixels>(_ rect: PixelRect, from decoded: [Int: P]) -> P {
        let canvas = grid.canvas
        let r = canvas.codedRect(forDisplayed: rect)
        let c = format.channels * P.sampleBytes
        var out = [UInt8](repeating: 0, count: r.width * r.height * c)
        out.withUnsafeMutableBytes { dst in
            for t in canvas.tiles(touching: r) {
                guard let image = decoded[t] else { continue }
                let place = canvas.rect(ofTile: t)
                let part = place.intersection(r)
                image.samples.withUnsafeBytes { src in
                    for y in part.y..<part.maxY {
                        let s = ((y - place.y) * image.width + (part.x - place.x)) * c
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
