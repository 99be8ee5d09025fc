import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// Crops of HEIF grid images decode only the tiles they touch (`HEIFTileDecoder`); their
/// pixels must equal heif-convert's decode of the whole image exactly, at tile boundaries
/// and corners, under every irot/imir combination, clap, colour on the grid only, alpha,
/// AV1 and 10 bits. Files: Tools/heicgrid/make-grids.sh (`make heicgrids`, run by `make test`).
struct HEIFGridTests {
    static func path(_ name: String) -> String { TestSupport.path(".cache/heicgrid/\(name)") }

    static let orientations = [0, 90, 180, 270].flatMap { r in ["n", "1"].map { "orient-\(r)-\($0).heic" } }
    static let variants = ["clap-90.heic", "clap-270.heic", "p3.heic", "alpha.heic", "grid.avif", "alpha-av1.avif"]

    /// Rectangles of a displayed image of `size` that cross 64-pixel tile edges and touch
    /// every corner, in displayed coordinates (the coded edges move with the orientation,
    /// so every 64th displayed line and its neighbours are crossed too).
    static func rects(_ size: PixelSize) -> [PixelRect] {
        let w = size.width
        let h = size.height
        var out = [
            PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: w - 1, y: 0, width: 1, height: 1),
            PixelRect(x: 0, y: h - 1, width: 1, height: 1), PixelRect(x: w - 1, y: h - 1, width: 1, height: 1),
            PixelRect(x: 0, y: 0, width: 40, height: 40), PixelRect(x: w - 40, y: h - 40, width: 40, height: 40),
            PixelRect(x: w - 33, y: 0, width: 33, height: 17), PixelRect(x: 0, y: h - 21, width: 45, height: 21),
        ]
        for e in stride(from: 60, to: min(w, h) - 10, by: 61) {
            out.append(PixelRect(x: e - 3, y: e - 5, width: 9, height: 11))
        }
        return out
    }

    static func reference(_ name: String, format: PixelFormat) throws -> Image {
        var o = DecodeOptions()
        o.autoOrient = false
        let stem = name.split(separator: ".")[0]
        return try ImageReader(path: path("\(stem).ref.png"), options: o).readImage().converted(to: format)
    }

    /// Each rectangle read alone (a reader per crop: rectangles read together that touch
    /// every tile take the whole decode), then two far apart read together (tiles shared).
    @Test(arguments: orientations + variants)
    func cropsEqualTheWholeDecode(_ name: String) throws {
        let header = try ImageReader(path: Self.path(name)).header
        let whole = try Self.reference(name, format: header.pixelFormat)
        #expect(whole.size == header.storedSize)
        for rect in Self.rects(header.storedSize) {
            let crop = try ImageReader(path: Self.path(name)).readStored([rect])[0]
            #expect(TestSupport.maxDifference(crop, whole.cropped(to: rect)) == 0, "\(name) \(rect)")
        }
        let size = header.storedSize
        let pair = [
            PixelRect(x: 0, y: 0, width: 20, height: 20),
            PixelRect(x: size.width - 20, y: size.height - 20, width: 20, height: 20),
        ]
        for (rect, crop) in zip(pair, try ImageReader(path: Self.path(name)).readStored(pair)) {
            #expect(TestSupport.maxDifference(crop, whole.cropped(to: rect)) == 0, "\(name) \(rect) of two")
        }
    }

    /// A whole decode streams the grid a band of tiles at a time (`HEIFTileStream`): every
    /// row equals heif-convert's, turned or not; a column window delivers at least its columns.
    @Test(arguments: orientations + variants)
    func streamedWholeDecodeEqualsHeifConvert(_ name: String) throws {
        let reader = try ImageReader(path: Self.path(name))
        let image = try reader.readImage()
        let whole = try Self.reference(name, format: reader.header.pixelFormat)
        #expect(TestSupport.maxDifference(image, whole) == 0, "\(name)")
        // Rows and columns in the middle, through the decoder's stream (skip, then read).
        let decoder = try ImageReader(path: Self.path(name)).decoder
        let layout = try decoder.begin(denominator: 1, columns: 17..<60)
        #expect(layout.firstColumn <= 17 && layout.firstColumn + layout.width >= 60)
        try decoder.skip(rows: 70)
        var rows = [UInt8](repeating: 0, count: layout.width * 5 * reader.header.pixelFormat.channels)
        let got = try rows.withUnsafeMutableBytes { buffer throws(DecodeError) in
            try decoder.read(into: buffer, rows: 5)
        }
        #expect(got == 5)
        let band = Image(width: layout.width, height: 5, format: reader.header.pixelFormat, pixels: rows)
        #expect(
            TestSupport.maxDifference(
                band, whole.cropped(to: PixelRect(x: layout.firstColumn, y: 70, width: layout.width, height: 5))) == 0)
    }

    /// The stream's look-ahead (`HEIFBandPrefetch`) changes when tiles are decoded, never which
    /// rows come out: every look-ahead and thread count, reading from the top or after skipping
    /// into a later band, gives heif-convert's rows; a spoilt tile fails the band that needs it
    /// and not the bands before it.
    @Test(arguments: [0, 1, 2, 3])
    func streamLookAheadKeepsTheRows(_ ahead: Int) throws {
        let name = "orient-90-1.heic"
        let source = try ImageSource(path: Self.path(name))
        let file = try #require(try HEIFFileBytes.load(source, limit: 1 << 26, path: name))
        let bytes = [UInt8](file.buffer)
        let grid = try #require(try HEIFGrid.read(bytes))
        let whole = try Self.reference(name, format: .rgb)
        let size = grid.canvas.displayedSize
        for threads in [1, 2, 3] {
            for skip in [0, size.height / 2 + 3] {
                var stream = HEIFTileStream<Image>(
                    tiles: HEIFTileDecoder(grid: grid, file: file, path: name), columns: 0..<size.width,
                    threads: threads, ahead: ahead)
                #expect(stream.ahead == (threads > 1 ? ahead : 0))
                stream.skip(rows: skip)
                var rows = [UInt8](repeating: 0, count: size.width * 3 * (size.height - skip))
                let got = try rows.withUnsafeMutableBytes { b throws(DecodeError) in
                    try stream.read(into: b, rows: size.height - skip)
                }
                #expect(got == size.height - skip)
                let image = Image(width: size.width, height: got, format: .rgb, pixels: rows)
                let want = whole.cropped(to: PixelRect(x: 0, y: skip, width: size.width, height: got))
                #expect(TestSupport.maxDifference(image, want) == 0, "threads \(threads), skip \(skip)")
            }
        }
        // A tile of the last band spoilt: the first band's rows still come, then the read fails.
        let canvas = grid.canvas
        let lastRow = PixelRect(x: 0, y: size.height - 1, width: size.width, height: 1)
        let firstRow = PixelRect(x: 0, y: 0, width: size.width, height: 1)
        let late = Set(canvas.tiles(touching: canvas.codedRect(forDisplayed: lastRow)))
            .subtracting(canvas.tiles(touching: canvas.codedRect(forDisplayed: firstRow)))
        var spoilt = bytes
        for i in grid.tiles[try #require(late.min())].extents[0] { spoilt[i] = 0xFF }
        let bad = try #require(
            try HEIFFileBytes.load(try ImageSource(bytes: spoilt, name: "s.heic"), limit: 1 << 26, path: "s.heic"))
        var stream = HEIFTileStream<Image>(
            tiles: HEIFTileDecoder(grid: grid, file: bad, path: "s.heic"), columns: 0..<size.width, threads: 2,
            ahead: ahead)
        let first = stream.bands[0].count
        var rows = [UInt8](repeating: 0, count: size.width * 3 * size.height)
        let got = try rows.withUnsafeMutableBytes { b throws(DecodeError) in try stream.read(into: b, rows: first) }
        #expect(got == first)
        #expect(throws: DecodeError.self) {
            try rows.withUnsafeMutableBytes { b throws(DecodeError) in try stream.read(into: b, rows: size.height) }
        }
    }

    /// The tile path is the one taken: a crop of one tile never asks for the rest (a tile
    /// whose NAL lengths are made to overrun its data fails the whole decode but not a crop
    /// elsewhere).
    @Test func aCropDecodesOnlyItsTiles() throws {
        var bytes = try FileSystem.readBytes(Self.path("orient-0-n.heic"), limit: 1 << 24)
        let grid = try #require(try HEIFGrid.read(bytes))
        let last = grid.tiles[11].extents[0]
        for i in last { bytes[i] = 0xFF }
        let crop = try ImageReader(bytes: bytes, name: "t.heic").readStored([
            PixelRect(x: 0, y: 0, width: 30, height: 30)
        ])[0]
        let whole = try Self.reference("orient-0-n.heic", format: .rgb)
        #expect(TestSupport.maxDifference(crop, whole.cropped(to: PixelRect(x: 0, y: 0, width: 30, height: 30))) == 0)
        #expect(throws: DecodeError.self) { try ImageReader(bytes: bytes, name: "t.heic").readImage() }
        // The spoilt tile fails the crop that needs it: no silent grey.
        #expect(throws: DecodeError.self) {
            try ImageReader(bytes: bytes, name: "t.heic").readStored([PixelRect(x: 240, y: 170, width: 10, height: 10)])
        }
    }

    /// 10-bit tiles are rounded to 8 bits by libheif: within a level of heif-convert's 16-bit
    /// PNG rounded to 8 (the two roundings differ), and the same in crops as in the whole decode.
    @Test func tenBitTilesEqualTheWholeDecode() throws {
        let whole = try ImageReader(path: Self.path("deep.heic")).readImage()
        #expect(TestSupport.maxDifference(whole, try Self.reference("deep.heic", format: .rgb)) <= 1)
        let header = try ImageReader(path: Self.path("deep.heic")).header
        #expect(header.bitDepth == 10)
        for rect in Self.rects(header.storedSize) {
            let crop = try ImageReader(path: Self.path("deep.heic")).readStored([rect])[0]
            #expect(TestSupport.maxDifference(crop, whole.cropped(to: rect)) == 0, "\(rect)")
        }
    }

    @Test func gridFacts() throws {
        let reader = try ImageReader(path: Self.path("clap-90.heic"))
        let details = try #require(reader.header.details as? HEIFDetails)
        #expect(details.gridTiles == 12)
        #expect(details.gridColumns == 4 && details.gridRows == 3)
        #expect(details.tileSize == PixelSize(width: 64, height: 64))
        #expect(details.summary.contains("HEVC grid of 4x3 tiles of 64x64"))
    }

    /// Broken grids: one line naming what is wrong, on decoding (`info` still shows the header).
    @Test(arguments: [
        ("bad-cover.heic", "do not cover"), ("bad-count.heic", "has 11 tiles but its descriptor says 4x3"),
        ("bad-size.heic", "tile 11 is 128x64"),
        // libheif checks every iloc extent against the file's end when it opens it.
        ("bad-outside.heic", "outside of file"), ("bad-truncated.heic", "outside of file"),
    ])
    func brokenGridsAreRefused(_ name: String, _ words: String) throws {
        do {
            _ = try ImageReader(path: Self.path(name)).readStored([PixelRect(x: 0, y: 0, width: 4, height: 4)])
            Issue.record("\(name) was read")
        } catch {
            #expect(error.description.contains(words), "\(name): \(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    /// The phones' own grids (../shared/heic-phone, when present): crops across tile edges
    /// equal heif-convert's whole decode.
    static let phones = FileSystem.join(FileSystem.directory(of: TestSupport.root), "shared/heic-phone")

    @Test(.enabled(if: FileSystem.kind(of: phones) == .directory), arguments: ["xiaomi.heic", "spatial_photo.heic"])
    func phoneGrids(_ name: String) throws {
        let file = FileSystem.join(Self.phones, name)
        let scratch = TestSupport.scratch()
        #expect(TestSupport.shell("heif-convert '\(file)' '\(scratch)/ref.png' >/dev/null") == 0)
        var o = DecodeOptions()
        o.autoOrient = false
        let refName = FileSystem.kind(of: "\(scratch)/ref.png") == .regular ? "ref.png" : "ref-1.png"
        let whole = try ImageReader(path: "\(scratch)/\(refName)", options: o).readImage()
        let rects =
            [PixelRect(x: 300, y: 300, width: 400, height: 400), PixelRect(x: 500, y: 1000, width: 30, height: 30)]
            + [PixelRect(x: whole.width - 400, y: whole.height - 400, width: 400, height: 400)]
        for rect in rects {
            let crop = try ImageReader(path: file).readStored([rect])[0]
            #expect(TestSupport.maxDifference(crop, whole.cropped(to: rect)) == 0, "\(name) \(rect)")
        }
        TestSupport.shell("rm -rf '\(scratch)'")
    }
}
