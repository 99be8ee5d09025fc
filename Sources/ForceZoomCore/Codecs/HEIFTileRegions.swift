import Geometry

extension HEIFTileDecoder {
    /// Displayed rectangles of the grid image, each decoded from the tiles it touches: every
    /// tile at most once (shared between rectangles), several at a time on `threads`
    /// threads, assembled in coded orientation and turned as the grid's transformations say.
    /// - Parameter rects: non-empty rectangles inside the displayed image.
    func read(_ rects: [PixelRect], threads: Int) throws(DecodeError) -> [Image] {
        let canvas = grid.canvas
        var needed: [Int] = []
        var seen: Set<Int> = []
        for r in rects {
            for t in canvas.tiles(touching: canvas.codedRect(forDisplayed: r)) where seen.insert(t).inserted {
                needed.append(t)
            }
        }
        let decoded = try decode(tiles: needed, threads: threads)
        return rects.map { assemble($0, from: decoded) }
    }

    /// Tiles `list`, each decoded once, several at a time on `threads` threads.
    func decode(tiles list: [Int], threads: Int) throws(DecodeError) -> [Int: Image] {
        var decoded: [Int: Image] = [:]
        var failure: DecodeError?
        if threads <= 1 || list.count == 1 {
            for t in list { decoded[t] = try decode(tile: t) }
            return decoded
        }
        let job = self
        WorkerPool<Result<Image, DecodeError>>.run(
            count: list.count, threads: threads,
            work: { i in Result { () throws(DecodeError) in try job.decode(tile: list[i]) } },
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
    func assemble(_ rect: PixelRect, from decoded: [Int: Image]) -> Image {
        let canvas = grid.canvas
        let r = canvas.codedRect(forDisplayed: rect)
        let format: PixelFormat = grid.alphaTiles != nil ? .rgba : .rgb
        let c = format.channels
        var out = Image(width: r.width, height: r.height, format: format)
        out.pixels.withUnsafeMutableBytes { dst in
            for t in canvas.tiles(touching: r) {
                guard let image = decoded[t] else { continue }
                let place = canvas.rect(ofTile: t)
                let part = place.intersection(r)
                image.pixels.withUnsafeBytes { src in
                    for y in part.y..<part.maxY {
                        let s = ((y - place.y) * image.width + (part.x - place.x)) * c
                        let d = ((y - r.y) * r.width + (part.x - r.x)) * c
                        dst.baseAddress!.advanced(by: d).copyMemory(
                            from: src.baseAddress!.advanced(by: s), byteCount: part.width * c)
                    }
                }
            }
        }
        return out.oriented(canvas.orientation)
    }

    /// Bytes the decoded tiles of `rects` hold at once (checked against the memory budget).
    func memory(for rects: [PixelRect]) -> Int64 {
        let canvas = grid.canvas
        var tiles: Set<Int> = []
        for r in rects { tiles.formUnion(canvas.tiles(touching: canvas.codedRect(forDisplayed: r))) }
        let perTile = Int64(canvas.tile.area) * Int64(grid.alphaTiles != nil ? 4 : 3)
        // Each tile's decoded planes in libheif (about as large again) while it decodes.
        return Int64(tiles.count) * perTile * 2 + rects.reduce(0) { $0 + Int64($1.width * $1.height) * 8 }
    }

    /// How many distinct tiles `rects` touch.
    func tileCount(for rects: [PixelRect]) -> Int {
        let canvas = grid.canvas
        var tiles: Set<Int> = []
        for r in rects { tiles.formUnion(canvas.tiles(touching: canvas.codedRect(forDisplayed: r))) }
        return tiles.count
    }
}
