import TestSupport
import Testing

@testable import FZSystem
@testable import FZThumbnails

#if canImport(Glibc)
import Glibc
#endif

/// Input walking, --from lists, the worker pool and the progress text.
struct BatchSupportTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]

    static func write(_ path: String, _ bytes: [UInt8]) {
        let f = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
        fclose(f)
    }

    /// root/{a.jpg, b.txt (a PNG by content), notes.txt, .hidden.png, sub/c.png, sub/deep/d.jpg, thumbs/t.png}
    static func tree() -> String {
        let root = TestSupport.scratch()
        TestSupport.shell("mkdir -p '\(root)/sub/deep' '\(root)/thumbs'")
        write(root + "/a.jpg", jpeg)
        write(root + "/b.txt", png)
        write(root + "/notes.txt", Array("not an image\n".utf8))
        write(root + "/.hidden.png", png)
        write(root + "/sub/c.png", png)
        write(root + "/sub/deep/d.jpg", jpeg)
        write(root + "/thumbs/t.png", png)
        return root
    }

    @Test func foldersAreSearchedByContentNotName() {
        let root = Self.tree()
        let (flat, failures) = InputWalker().collect([root])
        #expect(failures.isEmpty)
        #expect(flat.map(\.path) == [root + "/a.jpg", root + "/b.txt"])
        #expect(flat.map(\.folder) == ["", ""])
        // The subfolders left unsearched without -r are counted for the summary's hint,
        // the output folder not among them; with -r none is left.
        #expect(InputWalker().collectAll([root]).unsearchedFolders == 2)
        #expect(InputWalker(excluding: [root + "/thumbs"]).collectAll([root]).unsearchedFolders == 1)
        #expect(InputWalker(recursive: true).collectAll([root]).unsearchedFolders == 0)
    }

    /// A file named like a photo (.heic, .webp, .avif...) is attempted even when its bytes are
    /// not recognised, so the batch reports it; other names are still taken by content only.
    @Test func imageNamesAreAttemptedWhateverTheirBytes() {
        let root = TestSupport.scratch()
        for name in ["x.HEIC", "y.heif", "z.hif", "w.avif", "v.webp", "u.txt"] {
            Self.write(root + "/" + name, Array("not an image\n".utf8))
        }
        let (found, failures) = InputWalker().collect([root])
        #expect(failures.isEmpty)
        #expect(
            found.map { FileSystem.basename($0.path) }.sorted() == ["v.webp", "w.avif", "x.HEIC", "y.heif", "z.hif"])
    }

    @Test func recursiveWalkKeepsRelativeFoldersAndSkipsTheOutputFolder() {
        let root = Self.tree()
        let (found, _) = InputWalker(recursive: true, excluding: [root + "/thumbs"]).collect([root])
        #expect(found.map(\.path) == [root + "/a.jpg", root + "/b.txt", root + "/sub/c.png", root + "/sub/deep/d.jpg"])
        #expect(found.map(\.folder) == ["", "", "sub", "sub/deep"])
        // Without the exclusion the old thumbnails would be found too.
        let (all, _) = InputWalker(recursive: true).collect([root])
        #expect(all.contains { $0.path == root + "/thumbs/t.png" })
    }

    @Test func filesAreTakenAsNamedOnceEach() {
        let root = Self.tree()
        let (found, _) = InputWalker().collect([
            root + "/notes.txt", root, root + "/a.jpg", root + "/missing.jpg", root + "/missing.jpg",
        ])
        // A named file is attempted whatever it holds (it fails later, with a reason); one
        // found twice (named, then in its folder) is taken once; a missing one once.
        #expect(found.map(\.path) == [root + "/notes.txt", root + "/a.jpg", root + "/b.txt", root + "/missing.jpg"])
        // %d of a named file is its folder as written, without a leading slash or "./".
        #expect(InputWalker.folderAsWritten("/x/y/z.jpg") == "x/y")
        #expect(InputWalker.folderAsWritten("./y/z.jpg") == "y")
        #expect(InputWalker.folderAsWritten("z.jpg") == "")
    }

    @Test(.enabled(if: getuid() != 0, "root can list any folder"))
    func anUnlistableFolderIsReported() {
        let root = Self.tree()
        TestSupport.shell("chmod 000 '\(root)/sub'")
        defer { TestSupport.shell("chmod 755 '\(root)/sub'") }
        let (_, failures) = InputWalker(recursive: true).collect([root])
        #expect(failures.count == 1)
        #expect(failures.first?.path == root + "/sub")
    }

    @Test func listsSplitOnNewlinesOrNULs() throws {
        #expect(
            InputWalker.split(Array("a.jpg\nb c.png\r\n\n d\n".utf8), nulSeparated: false) == [
                "a.jpg", "b c.png", " d",
            ])
        #expect(
            InputWalker.split(Array("a\nb".utf8) + [0] + Array("c.jpg".utf8) + [0, 0], nulSeparated: true) == [
                "a\nb", "c.jpg",
            ])
        let dir = TestSupport.scratch()
        Self.write(dir + "/list", Array("x.jpg".utf8) + [0] + Array("y.png".utf8) + [0])
        #expect(try InputWalker.readList(dir + "/list", nulSeparated: true) == ["x.jpg", "y.png"])
        #expect(throws: ThumbnailError.cannotReadList(path: dir + "/nope", reason: "no such file or directory")) {
            try InputWalker.readList(dir + "/nope", nulSeparated: false)
        }
    }

    @Test(arguments: [1, 2, 4, 16])
    func workerPoolRunsEveryJobOnceAndReportsOnTheCallingThread(_ threads: Int) {
        let caller = pthread_self()
        var seen = [Int](repeating: 0, count: 100)
        var onCaller = true
        let started = WorkerPool<Int>.run(
            count: 100, threads: threads, work: { $0 * $0 },
            onResult: { i, r in
                seen[i] += 1
                #expect(r == i * i)
                onCaller = onCaller && pthread_equal(pthread_self(), caller) != 0
            }, onTick: { true })
        #expect(started == 100)
        #expect(seen.allSatisfy { $0 == 1 })
        #expect(onCaller)
    }

    @Test func workerPoolStopsHandingOutJobs() {
        var results = 0
        let started = WorkerPool<Int>.run(
            count: 1000, threads: 2, tick: 0.001,
            work: { i in
                usleep(2000)
                return i
            }, onResult: { _, _ in results += 1 }, onTick: { results < 10 })
        // Jobs already running finish and are reported; no new ones start.
        #expect(started < 1000)
        #expect(results == started)
    }

    @Test func progressLineAndSummary() {
        var p = BatchProgress(total: 120)
        #expect(p.line(elapsed: 0) == "0/120 0% ETA --")
        for _ in 0..<36 { p.record(.made) }
        p.record(.failed(.interrupted(path: "x")))
        // 37 done in 3 s: 12.3/s; 83 left: 6.7 s -> 0:07.
        #expect(p.line(elapsed: 3) == "37/120 30% 12.3/s ETA 0:07, 1 failed")
        p.record(.skipped)
        #expect(p.summary(elapsed: 9.84) == "36 thumbnails, 1 already done, 1 failed, 9.8 s")
        #expect(
            p.summary(elapsed: 9.84, interrupted: true)
                == "interrupted: 36 thumbnails, 1 already done, 1 failed, 82 not done, 9.8 s")
        var one = BatchProgress(total: 1)
        one.record(.made)
        #expect(one.summary(elapsed: 0.04) == "1 thumbnail, 0 failed, 0.0 s")
        #expect(BatchProgress.clock(3725) == "1:02:05")
    }
}

@Suite struct BatchThreadsTests {
    /// A batch never asks for more threads than processors: per-image threads only where
    /// there are fewer images than workers.
    @Test func perImageThreadsShareWhatWorkersLeave() {
        let cores = Threads.perImage
        #expect(Thumbnailer.threads(jobs: cores, images: 1000) == 1)
        #expect(Thumbnailer.threads(jobs: cores, images: 1) == cores)
        for jobs in 1...4 {
            for images in 1...6 {
                let busy = min(jobs, images)
                #expect(busy * Thumbnailer.threads(jobs: jobs, images: images) <= max(cores, busy))
            }
        }
    }
}
