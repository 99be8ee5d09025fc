import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// thumb's refusals and stops: outputs it leaves or never overwrites, usage errors, the pixel
/// limit, progress into a file, Ctrl-C, and --help.
extension ThumbCLITests {
    @Test func skipExistingLeavesNewerOutputs() throws {
        let dir = Self.library()
        let args = [
            "thumb", "photos/o6.jpg", "photos/peek.jpg", "--size", "32", "--out", "t", "--skip-existing", "--json",
        ]
        #expect(CLI.run(args, in: dir).status == 0)
        let o6 = FileSystem.join(dir, "t/o6.thumb.png")
        let before = FileSystem.modificationTime(of: o6)
        // The input becomes newer than its output: only that one is made again.
        #expect(CLI.shell("touch -d '+1 minute' \(CLI.quote(FileSystem.join(dir, "photos/peek.jpg")))") == 0)
        let again = CLI.run(args, in: dir)
        #expect(again.status == 0)
        let records = again.stdout.split(separator: "\n")
        #expect(records.count == 2)
        #expect(
            records[0].contains(#""input":"photos/o6.jpg","output":"t/o6.thumb.png""#)
                && records[0].contains(#""status":"kept""#) && records[0].contains(#""skipped":true"#))
        #expect(records[1].contains(#""input":"photos/peek.jpg""#) && records[1].contains(#""skipped":false"#))
        #expect(again.stderr.hasPrefix("forcezoom: 1 thumbnail, 1 already done, 0 failed, "))
        #expect(FileSystem.modificationTime(of: o6) == before)
    }

    @Test func neverOverwritesAnInput() throws {
        let dir = Self.library()
        let r = CLI.run(["thumb", "photos/o6.jpg", "--out", "photos", "--name", "%s.%e"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "forcezoom: error: photos/o6.jpg: would overwrite the input photos/o6.jpg; forcezoom never overwrites an input (choose another --out or --name)\n"
        )
        try Self.expectUpright(FileSystem.join(dir, "photos/o6.jpg"), size: PixelSize(width: 600, height: 400))
    }

    @Test(arguments: [
        ["--size", "0"], ["--size", "12x12x12"], ["--size", "100x"], ["--size", "100!", "--crop"],
        ["--size", "x100", "--crop"], ["--name", "%q.png"], ["--jobs", "0"], ["--quality", "101"],
        ["--quiet", "--progress"], ["-0"], ["--crop-at", "nowhere"],
    ])
    func usageErrorsExitTwo(_ extra: [String]) {
        var args = ["thumb", Self.photo] + extra
        if extra == ["--size", "100x"] { args += ["--crop"] }
        let r = CLI.run(args)
        #expect(r.status == 2, "\(extra): \(r.stderr)")
        #expect(r.stderr.contains("rror"))
    }

    @Test func anEnlargementOverThePixelLimitFailsThatInput() {
        let dir = Self.library()
        // Enlarged to fit 3000x3000: upright 600x400 -> 3000x2000 = 6,000,000 pixels, over
        // the limit of 5,500,000; 300x500 -> 1800x3000 = 5,400,000, under it.
        let r = CLI.run(
            ["thumb", "photos/o6.jpg", "photos/o8.png", "--size", "3000<", "--max-pixels", "5500000", "--out", "t"],
            in: dir)
        #expect(r.status == 1)
        #expect(
            r.stderr.hasPrefix(
                "forcezoom: error: photos/o6.jpg: the thumbnail (--size 3000x3000<) would be 3000x2000 = 6000000 pixels, over --max-pixels 5500000"
            ))
        #expect(r.stderr.contains("forcezoom: 1 thumbnail, 1 failed, "))
        #expect(FileSystem.kind(of: FileSystem.join(dir, "t/o6.thumb.png")) == .missing)
    }

    @Test func unsupportedOutputNameAndNoInputs() {
        let r = CLI.run(["thumb", Self.photo, "--name", "%s.gif", "--out", CLI.scratch()])
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "output name must end in PNG (.png), JPEG (.jpg, .jpeg), WebP (.webp), HEIC (.heic, .heif, .hif), AVIF (.avif) or JPEG XL (.jxl)"
            ))
        let none = CLI.run(["thumb"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("--from"))
    }

    @Test func progressForcedIntoAFileIsPlainLines() {
        let dir = Self.library()
        let r = CLI.run(
            ["thumb", "photos/o6.jpg", "photos/o8.png", "--size", "20", "--out", "t", "--progress", "-j", "1"], in: dir)
        #expect(r.status == 0)
        // Not a terminal: plain lines a log can keep, no carriage return or erase-line.
        // (Two small inputs may both be done before the first tick draws anything: the line
        // itself is checked on 30 inputs in ThumbBulkCLITests.)
        for line in r.stderr.split(separator: "\n") { #expect(line.hasPrefix("forcezoom: "), "\(r.stderr)") }
        #expect(!r.stderr.contains("\r") && !r.stderr.contains("\u{1B}"))
        #expect(r.stderr.contains("forcezoom: 2 thumbnails, 0 failed, "))
    }

    /// Ctrl-C mid-batch on a real process: running jobs leave no temp file, finished
    /// thumbnails are whole, a summary says what was done, and the process ends by SIGINT.
    @Test func ctrlCStopsCleanlyWithASummary() throws {
        let dir = CLI.scratch()
        let lib = FileSystem.join(dir, "in")
        #expect(
            CLI.shell(
                "mkdir \(CLI.quote(lib)) && for i in $(seq 1 150); do cp \(CLI.quote(Self.photo)) \(CLI.quote(lib))/p$i.jpg; done"
            ) == 0)
        // A non-interactive shell starts a background job with SIGINT ignored, and
        // forcezoom keeps a signal ignored at start ignored (nohup); `env
        // --default-signal` gives it SIGINT as a terminal's foreground job has it.
        let script = """
            cd \(CLI.quote(dir)) || exit 99
            env --default-signal=INT \(CLI.quote(CLI.binary)) thumb in --out out -j 2 --json > json 2> err &
            pid=$!
            n=0
            while [ "$(ls out 2>/dev/null | grep -c thumb)" -lt 4 ]; do
              sleep 0.02; n=$((n+1)); [ $n -gt 1500 ] && break
            done
            kill -INT $pid
            wait $pid
            echo $? > status
            """
        #expect(CLI.shell(script) == 0)
        // 130 = 128 + SIGINT: the shell saw the process end by the signal.
        #expect(CLI.read(FileSystem.join(dir, "status")) == "130\n")
        let err = CLI.read(FileSystem.join(dir, "err"))
        #expect(err.hasPrefix("forcezoom: interrupted: "), "\(err)")
        #expect(err.contains(" not done, "))
        #expect(Self.leftovers(dir).isEmpty, "temp files left: \(Self.leftovers(dir))")
        let outputs = CLI.read(FileSystem.join(dir, "json")).split(separator: "\n").filter {
            $0.contains(#""error":null"#)
        }
        let files = (try? FileSystem.list(FileSystem.join(dir, "out"))) ?? []
        #expect(files.count >= 4 && files.count < 150)
        #expect(files.count == outputs.count, "every finished thumbnail has its record")
        let made = err.split(separator: " ").dropFirst(2).first.flatMap { Int($0) }
        #expect(made == files.count, "\(err)")
        for f in files {
            let image = try ImageReader(path: FileSystem.join(dir, "out/" + f)).readImage()
            #expect(image.size == PixelSize(width: 256, height: 144))
        }
    }

    @Test func helpHasExamples() {
        let h = CLI.run(["thumb", "--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("find photos -name '*.jpg' -print0 | forcezoom thumb --from - -0"))
        #expect(h.stdout.contains("--skip-existing"))
    }
}
