import CFZDe265
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

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

    /// The constructor's extensions (`fz_de265_early.c`): HEIF's registration's, less
    /// AVIF, whose tiles are no HEVC (`HEIFDecoder.warmUp(forExtension:)`).
    @Test func earlyExtensionsAreTheRegistrysHEVCOnes() {
        var early: [String] = []
        while let name = fz_de265_early_extension(Int32(early.count)) { early.append(String(cString: name)) }
        #expect(early == HEIFDecoder.registration.extensions.filter { $0 != "avif" })
    }

    /// The constructor decides as `FormatRegistry.warmUp` does: the same names start
    /// libde265's set-up (with threads to spare), and FORCEZOOM_THREADS or else the CPUs
    /// say whether there are (`Threads.perImage`).
    @Test(.enabled(if: Threads.perImage > 1)) func earlyRuleIsTheRegistrysRule() {
        let lines: [[String]] = [
            ["crop", "IMG_0001.HEIC", "--at", "1,1"], ["crop", "a.heif"], ["thumb", "x.hif", "y.jpg"],
            ["crop", "a.avif", "--at", "1,1"], ["crop", "a.jpg", "-o", "b.png"], ["crop", "--x.heic"],
            ["crop", "a.heic."],
            ["crop", ".heic"], (0..<32).map { "f\($0).png" } + ["late.heic"],
            (0..<31).map { "f\($0).png" } + ["in.heic"],
        ]
        for line in lines {
            let registry = FormatRegistry.warmUp(forArguments: line).contains {
                $0 != "avif" && $0 != "png" && $0 != "jpg"
            }
            #expect((Self.early(["forcezoom"] + line, threads: "2", cpus: 2) != 0) == registry, "\(line)")
        }
        let cases: [(String?, Int, Bool)] = [
            ("1", 8, false), ("2", 1, true), ("0", 2, true), ("0", 1, false), ("x", 1, false), (nil, 2, true),
            (nil, 1, false),
            ("+3", 1, true), ("-4", 1, false), ("", 2, true), ("99999999999999999999", 1, false), (" 2", 1, false),
        ]
        for (threads, cpus, wanted) in cases {
            let early = Self.early(["forcezoom", "a.heic"], threads: threads, cpus: cpus)
            #expect((early != 0) == wanted, "FORCEZOOM_THREADS=\(threads ?? "unset"), \(cpus) CPUs")
        }
    }

    /// `fz_de265_early_warm_up_wanted` of `arguments` as a C argv.
    static func early(_ arguments: [String], threads: String?, cpus: Int) -> Int32 {
        let argv = arguments.map { strdup($0) }
        defer { for a in argv { free(a) } }
        return argv.withUnsafeBufferPointer { p in
            guard let threads else { return fz_de265_early_warm_up_wanted(Int32(p.count), p.baseAddress, nil, cpus) }
            return threads.withCString { fz_de265_early_warm_up_wanted(Int32(p.count), p.baseAddress, $0, cpus) }
        }
    }
}
