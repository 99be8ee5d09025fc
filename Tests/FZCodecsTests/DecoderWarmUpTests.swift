import TestSupport
import Testing

@testable import FZCodecs
@testable import FZImage
@testable import FZSystem

/// `FormatRegistry.warmUp`: which decoders a command line's names start early, and that a
/// warm-up racing the first tiles changes no pixel.
struct DecoderWarmUpTests {
    /// (With one thread an image nothing is started, and the list is empty.)
    @Test(.enabled(if: Threads.perImage > 1)) func namesAreJudgedByExtensionOnce() {
        let asked = FormatRegistry.warmUp(forArguments: [
            "crop", "IMG_0001.HEIC", "--at", "1,1", "-o", "out.png", "second.heic", "--name", "noext", ".", "x.",
        ])
        // HEIF once (the second .heic adds nothing), PNG for the output's name; options,
        // names without an extension and "x." ask nobody.
        #expect(asked == ["heic", "png"])
    }

    @Test(.enabled(if: Threads.perImage > 1)) func onlyTheFirst32NamesAreLookedAt() {
        let names = (0..<32).map { "file\($0).txt" } + ["late.heic"]
        #expect(FormatRegistry.warmUp(forArguments: names).isEmpty)
        #expect(FormatRegistry.warmUp(forArguments: Array(names.dropFirst())) == ["heic"])
    }

    /// Tiles decoded on four threads while warm-ups start: the same pixels as libheif's.
    @Test func warmUpRacingTheFirstTilesChangesNothing() throws {
        let bytes = try FileSystem.readBytes(HEIFGridTests.path("p3.heic"), limit: 1 << 26)
        let tiles = try HEIFTileDe265Tests.tiles(bytes, name: "p3.heic")
        let reference = try tiles.decodeThroughLibheif(tile: 0, as: Image.self).pixels
        var results: [[UInt8]?] = []
        // HEIFTileDecoder is a value the four threads each copy; decoding reads it only.
        nonisolated(unsafe) let shared = tiles
        WorkerPool<[UInt8]?>.run(
            count: 4, threads: 4,
            work: { _ in
                FormatRegistry.warmUp(forArguments: ["a.heic"])
                return shared.decodeWithDe265(tile: 0)
            }, onResult: { _, direct in results.append(direct) }, onTick: { true })
        #expect(results.count == 4)
        for direct in results { #expect(direct == reference) }
    }
}
