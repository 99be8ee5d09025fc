import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZGainMap
@testable import FZJPEG

/// `LosslessGainMapCrop` on a made Ultra HDR file (a 200x120 4:2:0 primary, a gray map): the
/// grid is lcm(image block, k x map block), the map's rectangle is the image's divided by k
/// (the far edge clamped to the map), a map that is not 1/k is refused naming both sizes, and
/// the cut pair is read back as Ultra HDR with the map at the crop's size; the primary alone
/// loses its MPF and hdrgm, and Apple's form keeps the map's bytes as they are.
@Suite("Lossless gain-map crop")
struct LosslessGainMapCropTests {
    static func jpeg(_ size: PixelSize, channels: Int, subsampling: Int) throws -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: size.width * size.height * channels)
        for i in rows.indices { rows[i] = UInt8(truncatingIfNeeded: i * 7 / 3) }
        var o = JPEGImageEncoder.FixtureOptions()
        o.subsampling = subsampling
        return try JPEGImageEncoder.fixtureBytes(rows: rows, size: size, channels: channels, options: o, path: "t")
    }

    static let parameters = GainMapParameters.hdrgm(
        min: [0], max: [2], gamma: [1], offsetSDR: 1.0 / 64, offsetHDR: 1.0 / 64, capacityMax: 2)

    /// The Ultra HDR file of a 200x120 primary and a map of `mapSize`, opened for a lossless crop.
    static func made(mapSize: PixelSize) throws -> (LosslessJPEGCrop, GainMap) {
        let file = try UltraHDRContainer.assemble(
            primary: jpeg(PixelSize(width: 200, height: 120), channels: 3, subsampling: 420),
            gainMap: jpeg(mapSize, channels: 1, subsampling: 444), parameters: parameters)
        let path = FileSystem.join(CLI.scratch(), "uhdr.jpg")
        CLI.write(path, file)
        let reader = try ImageReader(path: path)
        guard case .found(let map) = reader.probeGainMap() else { throw Missing() }
        return (try LosslessJPEGCrop(bytes: file, path: path), map)
    }

    struct Missing: Error {}

    @Test func bothGridsMeet() throws {
        var (cropper, map) = try Self.made(mapSize: PixelSize(width: 50, height: 30))
        let cut = try LosslessGainMapCrop(map, primary: &cropper)
        #expect(cropper.block == PixelSize(width: 16, height: 16) && cut.block == PixelSize(width: 8, height: 8))
        #expect(cut.scale == PixelSize(width: 4, height: 4) && cropper.grid == PixelSize(width: 32, height: 32))
        let inside = cropper.delivered(forStored: PixelRect(x: 40, y: 33, width: 30, height: 20))
        #expect(inside == PixelRect(x: 32, y: 32, width: 64, height: 32))
        #expect(cut.rect(forStored: inside) == PixelRect(x: 8, y: 8, width: 16, height: 8))
        let edge = cropper.delivered(forStored: PixelRect(x: 190, y: 100, width: 10, height: 20))
        #expect(edge == PixelRect(x: 160, y: 96, width: 40, height: 24))
        #expect(cut.rect(forStored: edge) == PixelRect(x: 40, y: 24, width: 10, height: 6))
        let primaries = try cropper.crop([inside, edge])
        let maps = try cut.crop(forStored: [inside, edge])
        for (i, want) in [PixelSize(width: 16, height: 8), PixelSize(width: 10, height: 6)].enumerated() {
            let file = try cut.assemble(primary: primaries[i], map: maps[i])
            let path = FileSystem.join(CLI.scratch(), "cut.jpg")
            CLI.write(path, file)
            guard case .found(let g) = try ImageReader(path: path).probeGainMap() else {
                Issue.record("no gain map in crop \(i)")
                continue
            }
            #expect(g.size == want && g.parameters == Self.parameters)
            // Only APP segments were added: the cut primary's coded data is the file's.
            let s = try #require(JPEGSegments(primaries[i]))
            let scan = Array(primaries[i][(s.segments.last!.payload.lowerBound - 4)...])
            #expect(file.count > scan.count && file.firstRange(of: scan) != nil)
        }
    }

    @Test func aMapNotOneKthIsRefused() throws {
        var (cropper, map) = try Self.made(mapSize: PixelSize(width: 60, height: 40))
        #expect {
            try LosslessGainMapCrop(map, primary: &cropper)
        } throws: {
            ($0 as? LosslessGainMapCrop.Refusal)?.reason.contains("(60x40) is not the image (200x120)") == true
        }
        #expect(cropper.grid == cropper.block, "the grid is left as it was")
    }

    @Test func thePrimaryAloneAnnouncesNoMap() throws {
        let file = try UltraHDRContainer.assemble(
            primary: Self.jpeg(PixelSize(width: 64, height: 48), channels: 3, subsampling: 420),
            gainMap: Self.jpeg(PixelSize(width: 16, height: 12), channels: 1, subsampling: 444),
            parameters: Self.parameters)
        // The primary as a lossless crop copies it: its MPF index and hdrgm XMP included.
        let mpf = try #require(JPEGSegments(file)?.payloads(0xE2, signature: Array("MPF\0".utf8), in: file).first)
        let primary = Array(file.prefix(try MPFIndex(parsing: file[mpf]).entries[0].size))
        #expect(String(decoding: primary, as: UTF8.self).contains("hdrgm:Version"))
        let alone = try UltraHDRContainer.withoutGainMap(primary)
        let s = try #require(JPEGSegments(alone))
        #expect(s.payloads(0xE2, signature: Array("MPF\0".utf8), in: alone).isEmpty)
        let xmp = s.xmp(in: alone).map { String(decoding: $0, as: UTF8.self) } ?? ""
        // No property left (the namespace declarations may stay, naming nothing).
        #expect(!xmp.contains("hdrgm:") && !xmp.contains("Container:"), "\(xmp)")
    }

    @Test func applesFormKeepsTheMapAsItIs() throws {
        let primary = try Self.jpeg(PixelSize(width: 64, height: 48), channels: 3, subsampling: 420)
        let map = try Self.jpeg(PixelSize(width: 32, height: 24), channels: 1, subsampling: 444)
        let file = try UltraHDRContainer.assemble(primary: primary, keepingGainMap: map)
        #expect(Array(file.suffix(map.count)) == map)
        let path = FileSystem.join(CLI.scratch(), "apple.jpg")
        CLI.write(path, file)
        let mpf = try #require(JPEGSegments(file)?.payloads(0xE2, signature: Array("MPF\0".utf8), in: file).first)
        let index = try MPFIndex(parsing: file[mpf])
        #expect(index.entries.count == 2)
        #expect(mpf.lowerBound + index.entries[1].offset == file.count - map.count)
        #expect(index.entries[1].size == map.count)
    }
}
