import FZFormat
import Geometry

/// The rows of a grid image, as shown, decoded a band at a time: a band is the displayed rows
/// that come from one row of coded tiles (one column, when the grid is shown turned a
/// quarter). With more than one thread, worker threads decode the tiles of the next `ahead`
/// bands while a band is read (`HEIFBandPrefetch`); with one, each band is decoded when it is
/// reached (`HEIFTileDecoder.read`). So a whole decode holds a few bands of tiles, not the
/// canvas: a 200 MP grid of 512x512 tiles streams in under 80 MB where libheif's whole decode
/// wants 1.5 GB. `P` is `Image` for
/// rows of 8-bit samples, `Image16` for 16-bit ones (2 bytes a sample, big-endian).
struct HEIFTileStream<P: HEIFTilePixels> {
    let tiles: HEIFTileDecoder
    /// The displayed columns delivered.
    let columns: Range<Int>
    let threads: Int
    /// Displayed row ranges, top to bottom, each from one row (or column) of tiles.
    let bands: [Range<Int>]
    /// Bands of tiles decoded ahead of the one read (0: none, one band at a time).
    let ahead: Int
    private var band: P?
    private var bandIndex = -1
    private var next = 0
    /// The workers decoding ahead, started on the first read.
    private var prefetch: HEIFBandPrefetch<P>.Owner?

    init(tiles: HEIFTileDecoder, columns: Range<Int>, threads: Int, ahead: Int = 2) {
        self.tiles = tiles
        self.columns = columns
        self.threads = threads
        let canvas = tiles.grid.canvas
        let turned = canvas.orientation.swapsAxes
        var bands: [Range<Int>] = []
        var start = 0
        var key = -1
        for y in 0..<canvas.displayedSize.height {
            let coded = canvas.codedRect(forDisplayed: PixelRect(x: 0, y: y, width: 1, height: 1))
            let k = turned ? coded.x / canvas.tile.width : coded.y / canvas.tile.height
            if k != key && y > 0 {
                bands.append(start..<y)
                start = y
            }
            key = k
        }
        bands.append(start..<canvas.displayedSize.height)
        self.bands = bands
        self.ahead = threads > 1 && bands.count > 1 ? ahead : 0
    }

    /// Bytes the stream holds at once: the largest band and its tiles, and the tiles of the
    /// bands decoded ahead.
    var memory: Int64 {
        let tallest = bands.map(\.count).max() ?? 0
        let rect = PixelRect(x: columns.lowerBound, y: 0, width: columns.count, height: tallest)
        return tiles.memory(for: [rect], sampleBytes: P.sampleBytes)
            + Int64(ahead * tiles.tileCount(for: [rect])) * tiles.tileBytes(sampleBytes: P.sampleBytes)
    }

    /// The displayed rectangle of band `i`.
    private func rect(ofBand i: Int) -> PixelRect {
        PixelRect(x: columns.lowerBound, y: bands[i].lowerBound, width: columns.count, height: bands[i].count)
    }

    /// Band `i`, decoded here or taken from the workers decoding ahead.
    private mutating func decode(band i: Int) throws(DecodeError) -> P {
        guard ahead > 0 else { return try tiles.read([rect(ofBand: i)], threads: threads, as: P.self)[0] }
        if prefetch == nil {
            let lists = bands.indices.map { tiles.tiles(for: [rect(ofBand: $0)]) }
            prefetch = HEIFBandPrefetch.Owner(
                HEIFBandPrefetch(tiles: tiles, bands: lists, threads: threads, ahead: ahead))
        }
        return tiles.assemble(rect(ofBand: i), from: try prefetch!.prefetch.band(i))
    }

    mutating func skip(rows: Int) { next = min(bands.last?.upperBound ?? 0, next + max(0, rows)) }

    /// Reads up to `rows` rows of `columns.count` pixels.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        let end = bands.last?.upperBound ?? 0
        let c = tiles.format.channels * P.sampleBytes
        let rowBytes = columns.count * c
        var done = 0
        while done < rows && next < end {
            if bandIndex < 0 || !bands[bandIndex].contains(next) {
                band = nil  // the last band's memory goes before the next is decoded
                guard let i = bands.firstIndex(where: { $0.contains(next) }) else { break }
                band = try decode(band: i)
                bandIndex = i
            }
            let r = bands[bandIndex]
            let n = min(rows - done, r.upperBound - next)
            band!.samples.withUnsafeBytes { src in
                buffer.baseAddress!.advanced(by: done * rowBytes)
                    .copyMemory(
                        from: src.baseAddress!.advanced(by: (next - r.lowerBound) * rowBytes), byteCount: n * rowBytes)
            }
            next += n
            done += n
        }
        return done
    }
}

/// A tile stream held by reference, so that an absent one costs its owner nothing to
/// destroy (`HEIFDecoder.stream`).
final class TileStreamBox<P: HEIFTilePixels> {
    var value: HEIFTileStream<P>

    init(_ value: HEIFTileStream<P>) { self.value = value }
}
