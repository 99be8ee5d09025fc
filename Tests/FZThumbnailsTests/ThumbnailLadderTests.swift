import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZRender
@testable import FZSystem
@testable import FZThumbnails
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// `--size 320,640,1280` (issue 38): the list, its names, its plan, its journal, and the
/// outputs of one decode.
struct ThumbnailLadderTests {
    @Test func aListParsesInTheOrderTyped() throws {
        let ladder = try ThumbnailLadder(parsing: "320,640x480,1280!,x100")
        #expect(ladder.sizes.map(\.asTyped) == ["320", "640x480", "1280!", "x100"])
        #expect(ladder.sizes[1] == ThumbnailSize(width: 640, height: 480))
        #expect(ladder.sizes[2].mode == .exact && ladder.sizes[3].width == nil)
        #expect(ladder.isLadder)
        // One size is today's --size, not a ladder.
        let one = try ThumbnailLadder(parsing: "256x192")
        #expect(one.sizes == [ThumbnailSize(width: 256, height: 192)] && !one.isLadder)
        let sixteen = (1...16).map { String($0 * 10) }.joined(separator: ",")
        #expect(try ThumbnailLadder(parsing: sixteen).sizes.count == 16)
    }

    @Test(arguments: [
        ("320,,640", "entry 2 is empty"), (",320", "entry 1 is empty"), ("320,", "entry 2 is empty"),
        ("320,640,320", "320 and 320 are the same size"), ("256,256x256>", "are the same size"),
        ("320,0", "positive"), ("320,abc", "not a whole number"),
        ((1...17).map(String.init).joined(separator: ","), "17 sizes, more than the 16"),
    ])
    func badListsAreUsageErrors(_ text: String, _ reason: String) {
        #expect {
            try ThumbnailLadder(parsing: text)
        } throws: { error in
            guard let e = error as? ThumbnailError else { return false }
            return e.exitCode == 2 && e.path.hasPrefix("--size") && e.description.contains(reason)
                && !e.description.contains("\n")
        }
    }

    @Test(arguments: [
        ("%s-%z.jpg", "640x480", "IMG-640x480.jpg"), ("%s-%z.jpg", "320", "IMG-320.jpg"),
        ("%s_%wx%h.png", "640x480", "IMG_640x480.png"), ("%s_%w.png", "320", "IMG_320.png"),
        ("%s_%w_%h.png", "x200", "IMG__200.png"), ("%z/%s.webp", "1280!", "1280!/IMG.webp"),
    ])
    func sizePlaceholdersExpand(_ pattern: String, _ size: String, _ expected: String) throws {
        let name = try ThumbnailName(pattern)
        #expect(
            name.expand(input: "a/IMG.JPG", folder: "", index: 1, size: try ThumbnailSize(parsing: size)) == expected)
        // Without a size (one size and no ladder), the placeholders are empty.
        #expect(!name.expand(input: "a/IMG.JPG", folder: "", index: 1).contains("%"))
    }

    @Test func aNameMustTellTheSizesApart() throws {
        let ladder = try ThumbnailLadder(parsing: "320,640x480,640")
        #expect(try ThumbnailName("%s-%z.jpg").distinguishes(ladder))
        #expect(try !ThumbnailName("%s.jpg").distinguishes(ladder))
        // %w alone: 640x480 and 640 share a width.
        #expect(try !ThumbnailName("%s-%w.jpg").distinguishes(ladder))
        #expect(try ThumbnailName("%s-%wx%h.jpg").distinguishes(ladder))
    }

    @Test func thePlanHasOneJobPerInputAndSizeInOrder() throws {
        let ladder = try ThumbnailLadder(parsing: "1280,320")
        let plan = try ThumbnailPlan(
            inputs: [.init(path: "a.jpg"), .init(path: "b.png")], folder: "out", name: ThumbnailName("%s-%z.%i.jpg"),
            identity: { _ in nil }, ladder: ladder)
        #expect(
            plan.jobs.map(\.output) == ["out/a-1280.1.jpg", "out/a-320.1.jpg", "out/b-1280.2.jpg", "out/b-320.2.jpg"])
        #expect(plan.jobs.map { $0.size?.asTyped } == ["1280", "320", "1280", "320"])
        #expect(ThumbnailBatch.groups(of: plan.jobs) == [0..<2, 2..<4])
        // One size: one job per input, no size, one group each (today's plan).
        let one = try ThumbnailPlan(
            inputs: [.init(path: "a.jpg"), .init(path: "b.png")], folder: "out", name: .standard,
            identity: { _ in nil }, ladder: ThumbnailLadder(parsing: "256"))
        #expect(
            one.jobs.map(\.output) == ["out/a.thumb.png", "out/b.thumb.png"] && one.jobs.allSatisfy { $0.size == nil })
        #expect(ThumbnailBatch.groups(of: one.jobs) == [0..<1, 1..<2])
        // Its one size still names: %w of 256 is 256.
        let named = try ThumbnailPlan(
            inputs: [.init(path: "a.jpg")], folder: "out", name: ThumbnailName("%s-%w-%z.png"),
            identity: { _ in nil }, ladder: ThumbnailLadder(parsing: "256"))
        #expect(named.jobs.map(\.output) == ["out/a-256-256.png"])
    }

    @Test func twoSizesOnOneNameIsACollision() throws {
        #expect(throws: ThumbnailError.self) {
            try ThumbnailPlan(
                inputs: [.init(path: "a.jpg")], folder: "out", name: ThumbnailName("%s-%w.jpg"),
                identity: { _ in nil }, ladder: ThumbnailLadder(parsing: "640,640x480"))
        }
    }

    @Test func theJournalFilesEachOutputOfAnInput() throws {
        let path = TestSupport.scratch() + "/j.jsonl"
        func line(_ output: String, _ status: JournalRecord.Status) -> String {
            JournalRecord(
                input: "a.jpg", output: output, status: status, bytes: status == .ok ? 1 : nil,
                sha256: status == .ok ? "00" : nil, shard: "1/1"
            ).json.description + "\n"
        }
        let f = fopen(path, "w")!
        fputs(line("a-320.png", .ok) + line("a-640.png", .ok) + line("a-1280.png", .failed), f)
        fclose(f)
        let done = try Journal.read(path, key: Journal.outputKey)
        #expect(
            done.keys.sorted() == [Journal.outputKey("a.jpg", "a-320.png"), Journal.outputKey("a.jpg", "a-640.png")])
        // By input (the default), the last record decides: the failed 1280 takes a.jpg out.
        #expect(try Journal.read(path).isEmpty)
    }

    /// A larger result is a source only when it holds the window twice as densely.
    @Test func aLargerResultIsUsedFromTwiceTheDensity() {
        let source = PixelSize(width: 2000, height: 1000)
        let full = Rect(x: 0, y: 0, width: 2000, height: 1000)
        func g(_ w: Int, _ h: Int, _ window: Rect = full) -> ThumbnailGeometry {
            ThumbnailGeometry(source: source, output: PixelSize(width: w, height: h), window: window)
        }
        #expect(Thumbnailer.covers(g(1280, 640), g(640, 320)))
        #expect(!Thumbnailer.covers(g(1280, 640), g(1024, 512)))
        #expect(Thumbnailer.covers(g(1280, 640), g(641, 321)))  // whole pixels' rounding
        #expect(!Thumbnailer.covers(g(1280, 640), g(660, 330)))
        // A window outside the larger one's (a crop elsewhere) is made from the decode.
        #expect(!Thumbnailer.covers(g(1000, 1000, Rect(x: 500, y: 0, width: 1000, height: 1000)), g(100, 100)))
    }

    /// One decode: every output is the decode resampled, or a larger output resampled,
    /// pixel for pixel, and the densest is what making it alone gives. peek.jpg (900x1600,
    /// EXIF 6) keeps three sizes within 4x of the decode, so its rows are fanned out to three
    /// resamplers on three threads; each must equal that size fed alone on one thread.
    /// With 2 threads, the sizes after the largest are resampled and written on a thread of
    /// their own, beside the largest one's encoding.
    @Test func everySizeComesFromTheOneDecode() throws {
        let photo = TestSupport.path("Fixtures/photos/peek.jpg")
        let dir = TestSupport.scratch()
        let ladder = try ThumbnailLadder(parsing: "1280,320,500x500,640")
        let plan = try ThumbnailPlan(
            inputs: [.init(path: photo)], folder: dir, name: ThumbnailName("%s-%z.png"), ladder: ladder)
        var maker = Thumbnailer(size: ladder.sizes[0])
        maker.encodeThreads = 2  // the smaller sizes written beside the largest
        let results = maker.make(ladder: plan.jobs)
        #expect(results.allSatisfy { $0.outcome == .made && $0.decodes == 1 })
        #expect(results.filter { $0.madeFrom == "decode" }.count == 3)
        let upright = try ImageReader(path: photo).header.uprightSize
        let geometries = try ladder.sizes.map { try ThumbnailGeometry(source: upright, size: $0) }
        // The size `n` alone from a decode reduced for all of them (the same denominator).
        func fedAlone(_ n: Int) throws -> Image {
            let fanOut = ReductionFanOut(
                targets: geometries.map { .init(size: $0.output, window: $0.window) }, filter: .lanczos,
                headroom: Thumbnailer.headroom, threads: 1)
            return try fanOut.run(ImageReader(path: photo)) { _, _ in geometries.indices.map { $0 == n } }.images[n]!
        }
        var outputs: [String: (ThumbnailGeometry, Image)] = [:]
        for (job, g) in zip(plan.jobs, geometries) {
            outputs[job.size!.asTyped] = (g, try ImageReader(path: job.output).readImage())
        }
        for (n, (result, g)) in zip(results, geometries).enumerated() {
            let made = outputs[result.size!]!.1
            #expect(made.size == g.output)
            let expected: Image
            if result.madeFrom == "decode" {
                expected = try fedAlone(n)
            } else {
                let (lg, larger) = outputs[result.madeFrom!]!
                #expect(Thumbnailer.covers(lg, g))
                expected = LadderSource.resample(
                    larger, kx: lg.scaleX, ky: lg.scaleY, originX: lg.window.x, originY: lg.window.y, to: g,
                    filter: .lanczos)
            }
            #expect(made.pixels == expected.pixels, "\(result.size!) from \(result.madeFrom!)")
        }
        // The densest size alone is the same image, byte for byte: the same denominator,
        // box and Lanczos passes, run in stored orientation before turning upright.
        let alone = FileSystem.join(dir, "alone.png")
        let job = ThumbnailPlan.Job(input: .init(path: photo), output: alone, name: alone, index: 1, format: .png)
        #expect(Thumbnailer(size: ladder.sizes[0]).make(job).outcome == .made)
        let a = try ImageReader(path: alone).readImage()
        #expect(a == outputs["1280"]!.1)
    }
}
