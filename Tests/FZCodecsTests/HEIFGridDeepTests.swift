import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// 16-bit reads of 10- and 12-bit HEIF grids go through the tiles (`HEIFTileDecoder` with
/// `Image16`): crops decode only the tiles they touch, whole reads stream a band of tiles at a
/// time, and both equal libheif's whole 16-bit decode (`HEIFDecoder.decodeWhole16`, the path
/// every 16-bit grid read took before) exactly. That whole decode in turn agrees with
/// heif-convert's 16-bit PNG, which shifts the samples left (v << (16 - bits), low bits zero)
/// where forcezoom scales them, (v * 65535 + max / 2) / max with max = 2^bits - 1: so every
/// forcezoom sample is the widening of the reference's sample shifted back right.
/// Files: Tools/heicgrid/make-grids.sh (deep.heic: 10-bit, 4x3 tiles of 64x64 cut to 250x180;
/// deep12.heic: 12-bit, 16x12 tiles cut to 1000x760, irot 90; deep-alpha.heic: 10-bit RGBA
/// with an alpha grid, irot 270).
struct HEIFGridDeepTests {
    static let files = [("deep.heic", 10), ("deep12.heic", 12), ("deep-alpha.heic", 10)]

    static func decoder(_ name: String, options: DecodeOptions = DecodeOptions()) throws -> HEIFDecoder {
        try #require(try ImageReader(path: HEIFGridTests.path(name), options: options).decoder as? HEIFDecoder)
    }

    /// The rectangle `rect` of `image`.
    static func crop(_ image: Image16, _ rect: PixelRect) -> Image16 {
        let n = image.pixelBytes
        var out: [UInt8] = []
        for y in rect.y..<rect.maxY {
            let s = (y * image.width + rect.x) * n
            out += image.bytes[s..<(s + rect.width * n)]
        }
        return Image16(width: rect.width, height: rect.height, format: image.format, bytes: out)
    }

    /// heif-convert's 16-bit PNG (NAME.ref.png), its samples shifted back to `bits` bits and
    /// widened as forcezoom widens; nil when a sample has low bits set (not a shift).
    static func reference(_ name: String, bits: Int) throws -> Image16? {
        var o = DecodeOptions()
        o.autoOrient = false
        let stem = name.split(separator: ".")[0]
        let reader = try ImageReader(path: HEIFGridTests.path("\(stem).ref.png"), options: o)
        #expect(reader.header.bitDepth == 16)
        var png = try reader.readStored16([PixelRect(size: reader.header.storedSize)])[0]
        let maximum = (1 << bits) - 1
        for i in stride(from: 0, to: png.bytes.count, by: 2) {
            let v = Int(png.bytes[i]) << 8 | Int(png.bytes[i + 1])
            guard v & ((1 << (16 - bits)) - 1) == 0 else { return nil }
            let wide = ((v >> (16 - bits)) * 65535 + maximum / 2) / maximum
            png.bytes[i] = UInt8(wide >> 8)
            png.bytes[i + 1] = UInt8(wide & 0xFF)
        }
        return png
    }

    /// Crops at tile edges and corners, alone and two together, equal the whole 16-bit decode,
    /// which equals heif-convert's PNG widened.
    @Test(arguments: files)
    func sixteenBitCropsEqualTheWholeDecode(_ name: String, _ bits: Int) throws {
        let whole = try Self.decoder(name).decodeWhole16()
        #expect(try Self.decoder(name).bitDepth == bits)
        #expect(try Self.reference(name, bits: bits) == whole, "\(name) against heif-convert")
        for rect in HEIFGridTests.rects(whole.size) {
            let crop = try ImageReader(path: HEIFGridTests.path(name)).readStored16([rect])[0]
            #expect(crop == Self.crop(whole, rect), "\(name) \(rect)")
        }
        let pair = [
            PixelRect(x: 0, y: 0, width: 20, height: 20),
            PixelRect(x: whole.width - 70, y: whole.height - 66, width: 70, height: 66),
        ]
        for (rect, crop) in zip(pair, try ImageReader(path: HEIFGridTests.path(name)).readStored16(pair)) {
            #expect(crop == Self.crop(whole, rect), "\(name) \(rect) of two")
        }
    }

    /// A whole 16-bit read streams the grid a band of tiles at a time, with and without
    /// look-ahead; a column window read after a skip gives the whole decode's rows.
    @Test(arguments: files)
    func streamedSixteenBitDecodeEqualsTheWholeDecode(_ name: String, _ bits: Int) throws {
        let whole = try Self.decoder(name).decodeWhole16()
        for threads in [1, 2] {
            var o = DecodeOptions()
            o.threads = threads
            let image = try ImageReader(path: HEIFGridTests.path(name), options: o).readStored16([
                PixelRect(size: whole.size)
            ])[0]
            #expect(image == whole, "\(name), \(threads) threads")
        }
        let decoder = try Self.decoder(name)
        let layout = try #require(try decoder.beginDeep(columns: 17..<60))
        #expect(layout.firstColumn <= 17 && layout.firstColumn + layout.width >= 60)
        #expect(layout.width < whole.width)
        try decoder.skip(rows: 70)
        var rows = [UInt8](repeating: 0, count: layout.width * 5 * whole.pixelBytes)
        let got = try rows.withUnsafeMutableBytes { b throws(DecodeError) in try decoder.read(into: b, rows: 5) }
        #expect(got == 5)
        let band = Image16(width: layout.width, height: 5, format: whole.format, bytes: rows)
        #expect(band == Self.crop(whole, PixelRect(x: layout.firstColumn, y: 70, width: layout.width, height: 5)))
    }

    /// 16-bit crops decode only their tiles: with the data of the second tile of the top row
    /// spoilt, crops of the first and the last tile of that row, read together, still equal the
    /// whole decode of the good file (rows streamed over their columns' union would need the
    /// spoilt tile), while the whole 16-bit read, and a crop that needs the tile, fail.
    @Test func aSixteenBitCropDecodesOnlyItsTiles() throws {
        let name = "deep.heic"
        var bytes = try FileSystem.readBytes(HEIFGridTests.path(name), limit: 1 << 24)
        let grid = try #require(try HEIFGrid.read(bytes))
        #expect(grid.canvas.columns == 4 && grid.canvas.tile.width == 64)
        for i in grid.tiles[1].extents[0] { bytes[i] = 0xFF }
        let rects = [PixelRect(x: 0, y: 0, width: 30, height: 30), PixelRect(x: 220, y: 0, width: 30, height: 30)]
        let crops = try ImageReader(bytes: bytes, name: "t.heic").readStored16(rects)
        let whole = try Self.decoder(name).decodeWhole16()
        for (rect, crop) in zip(rects, crops) { #expect(crop == Self.crop(whole, rect), "\(rect)") }
        #expect(throws: DecodeError.self) {
            try ImageReader(bytes: bytes, name: "t.heic").readStored16([PixelRect(x: 0, y: 0, width: 250, height: 180)])
        }
        #expect(throws: DecodeError.self) {
            try ImageReader(bytes: bytes, name: "t.heic").readStored16([PixelRect(x: 100, y: 10, width: 10, height: 10)]
            )
        }
    }

    /// The budget judges what a 16-bit read holds, not the canvas: where the whole 16-bit
    /// decode of the 1000x760 grid (about 6 MB) is refused, a crop across tile edges works
    /// under 1 MiB and a whole read streamed a band of tiles at a time under 2 MiB.
    @Test func sixteenBitReadsFitABudgetTheWholeDecodeDoesNot() throws {
        let name = "deep12.heic"
        let whole = try Self.decoder(name).decodeWhole16()
        var o = DecodeOptions()
        o.maxMemory = 2 << 20
        #expect(throws: DecodeError.self) { try Self.decoder(name, options: o).decodeWhole16() }
        let all = try ImageReader(path: HEIFGridTests.path(name), options: o).readStored16([PixelRect(size: whole.size)]
        )
        #expect(all[0] == whole)
        o.maxMemory = 1 << 20
        let rect = PixelRect(x: 330, y: 450, width: 100, height: 100)
        let crop = try ImageReader(path: HEIFGridTests.path(name), options: o).readStored16([rect])[0]
        #expect(crop == Self.crop(whole, rect))
    }
}
