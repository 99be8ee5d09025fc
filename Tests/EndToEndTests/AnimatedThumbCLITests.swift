import TestSupport
import Testing

@testable import FZSystem

/// `thumb --animated` through the binary (issue 50), against Pillow: for animated GIFs
/// (disposal 1, 2, 3, sub-rectangle frames, transparency), APNGs (Pillow's sub-rectangles,
/// blending over and each disposal) and WebPs (gif2webp's, Pillow's,
/// webpmux's sub-frames that blend and dispose), written as animated WebP and APNG, the
/// output's frame count, delays and plays equal the input's as Pillow reads them, and each
/// frame is within 2 levels of Pillow's composited frame of the input made into a still
/// thumbnail the same way (`Tools/animations/compare-frames.py`). Also: 0 ms delays shown
/// as 100 ms, --max-frames and --max-duration, a ladder, stills and formats without
/// animation, the 65,535-frame GIF and WebP frames outside the canvas (one line, exit 1,
/// the batch goes on), bounded time and memory. Adds about 20 s (debug build).
@Suite("Animated thumbnails")
struct AnimatedThumbCLITests {
    static let tools = FileSystem.join(CLI.root, "Tools/animations")

    /// Whether every frame of the animation `out` is within 2 levels of the same-numbered
    /// PNG in `refs` (`compare-frames.py`, which reads both with Pillow).
    static func framesMatch(_ out: String, _ refs: String) -> Bool {
        let check = [FileSystem.join(tools, "compare-frames.py"), out, refs, "2"].map(CLI.quote)
        return CLI.shell("\(CLI.python) \(check.joined(separator: " ")) > /dev/null") == 0
    }

    /// The test animations (`Tools/animations/make-animations.py`), made once.
    static let made: String = {
        let dir = CLI.scratch()
        let script = FileSystem.join(tools, "make-animations.py")
        precondition(CLI.shell("\(CLI.python) \(CLI.quote(script)) \(CLI.quote(dir))") == 0)
        return dir
    }()

    /// What Pillow reads of `path` (`frames.py`), composited frames into `frames` if given.
    static func pillow(_ path: String, frames: String? = nil) -> [String: JSONValue] {
        let script = FileSystem.join(tools, "frames.py")
        let dir = CLI.scratch()
        let out = FileSystem.join(dir, "pillow.json")
        let args = [script, path] + (frames.map { [$0] } ?? [])
        _ = CLI.shell("\(CLI.python) \(args.map(CLI.quote).joined(separator: " ")) > \(CLI.quote(out))")
        return JSONValue.object(CLI.read(out)) ?? [:]
    }

    static func ints(_ v: JSONValue?) -> [Int] {
        guard case .array(let a)? = v else { return [] }
        return a.compactMap { if case .number(let n) = $0 { return Int(n) } else { return nil } }
    }

    static func int(_ v: JSONValue?) -> Int? { if case .number(let n)? = v { return Int(n) } else { return nil } }

    /// Plays, as the output stores them, for what Pillow reads of the input: a GIF's loop
    /// N > 0 repeats N times after the first play (N + 1 plays), none plays once; WebP's and
    /// APNG's are plays already.
    static func plays(_ input: String, _ loop: Int?) -> Int {
        guard let loop else { return 1 }
        return input.hasSuffix(".gif") && loop > 0 ? loop + 1 : loop
    }

    static let inputs = [
        "dispose1.gif", "dispose2.gif", "dispose3.gif", "subrect.gif", "once.gif", "gif2webp.webp", "pillow.webp",
        "subframes.webp", "apng-over.png", "apng-dispose.png",
    ]

    @Test(arguments: inputs, ["webp", "png"])
    func framesDelaysPlaysAndPixelsMatchPillow(_ name: String, _ ext: String) {
        let input = FileSystem.join(Self.made, name)
        let dir = CLI.scratch()
        let frames = FileSystem.join(dir, "frames")
        _ = CLI.shell("mkdir -p \(CLI.quote(frames))")
        let before = Self.pillow(input, frames: frames)
        let out = FileSystem.join(dir, "out.\(ext)")
        let r = CLI.run(["thumb", "--animated", "--lossless", "--size", "32", "--json", input, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let after = Self.pillow(out)
        let delays = Self.ints(before["durations"]).map { $0 <= 10 ? 100 : $0 }
        #expect(Self.int(after["frames"]) == delays.count, "\(name) -> \(ext): \(after)")
        let got = Self.ints(after["durations"])
        #expect(got.count == delays.count && zip(got, delays).allSatisfy { abs($0 - $1) <= 10 }, "\(got) \(delays)")
        #expect(Self.int(after["loop"]) == Self.plays(name, Self.int(before["loop"])), "\(before) \(after)")
        let record = JSONValue.object(r.stdout.split(separator: "\n").first ?? "")
        guard case .object(let animation)? = record?["animation"] else {
            Issue.record("no animation object: \(r.stdout)")
            return
        }
        #expect(Self.int(animation["frames"]) == delays.count && Self.int(animation["framesRead"]) == delays.count)
        #expect(Self.int(animation["milliseconds"]) == delays.reduce(0, +))
        // Pillow's frames, each a still thumbnail made the same way, against the output's.
        let refs = FileSystem.join(dir, "refs")
        let still = CLI.run(
            ["thumb", "-q", "--size", "32", "--out", refs]
                + (0..<delays.count).map {
                    FileSystem.join(frames, "frame-" + String("00\($0)".suffix(3)) + ".png")
                })
        #expect(still.status == 0, "\(still.stderr)")
        #expect(Self.framesMatch(out, refs), "\(name) -> \(ext): a frame differs from Pillow's")
    }

    /// Delays of 10 ms or less (a GIF's 0) are shown as 100 ms by browsers: written so.
    @Test func zeroDelaysBecome100Milliseconds() {
        let dir = CLI.scratch()
        let out = FileSystem.join(dir, "z.png")
        let r = CLI.run(["thumb", "--animated", FileSystem.join(Self.made, "zero-delay.gif"), "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.pillow(FileSystem.join(Self.made, "zero-delay.gif"))["durations"].map(Self.ints) == [0, 0, 0, 0])
        #expect(Self.ints(Self.pillow(out)["durations"]) == [100, 100, 100, 100])
    }

    /// --max-frames keeps the first N; --max-duration the frames that start before it
    /// (delays 50, 120, 80, 200: starts 0, 50, 170, 250 < 300 ms); each says so once.
    @Test func maxFramesAndMaxDurationCut() {
        let input = FileSystem.join(Self.made, "dispose1.gif")
        let dir = CLI.scratch()
        let a = CLI.run(["thumb", "--animated", "--max-frames", "3", input, "-o", FileSystem.join(dir, "a.png")])
        #expect(a.status == 0 && a.stderr.contains("the first 3 are kept (--max-frames 3)"), "\(a.stderr)")
        #expect(Self.int(Self.pillow(FileSystem.join(dir, "a.png"))["frames"]) == 3)
        let b = CLI.run(["thumb", "--animated", "--max-duration", "0.3", input, "-o", FileSystem.join(dir, "b.png")])
        #expect(b.status == 0 && b.stderr.contains("(--max-duration 0.3)"), "\(b.stderr)")
        #expect(Self.ints(Self.pillow(FileSystem.join(dir, "b.png"))["durations"]) == [50, 120, 80, 200])
        let usage = CLI.run(["thumb", "--max-frames", "3", input, "-o", FileSystem.join(dir, "c.png")])
        #expect(usage.status == 2 && usage.stderr.contains("add --animated"), "\(usage.stderr)")
    }

    /// A ladder makes every size from the one walk over the frames; the default name with
    /// --animated is %s-%z.thumb.webp.
    @Test func aLadderAnimatesEverySize() {
        let dir = CLI.scratch()
        let r = CLI.run(
            ["thumb", "--animated", "--size", "16,48", "--json", FileSystem.join(Self.made, "dispose2.gif")], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        for (typed, side) in [("16", 16), ("48", 48)] {
            let info = Self.pillow(FileSystem.join(dir, "thumbs/dispose2-\(typed).thumb.webp"))
            #expect(Self.int(info["frames"]) == 6 && Self.ints(info["size"]).first == side, "\(typed): \(info)")
        }
        #expect(JSONValue.objects(r.stdout).allSatisfy { $0["animation"] != nil && $0["decodes"] == .number(1) })
    }

    /// A still input is a still thumbnail (no animation record); an output format without
    /// animation keeps the first frame and says so; --format jpeg with --animated is usage.
    @Test func stillsAndFormatsWithoutAnimation() {
        let dir = CLI.scratch()
        let still = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")
        let s = CLI.run(["thumb", "--animated", "--json", still, "-o", FileSystem.join(dir, "s.webp")])
        #expect(s.status == 0 && !s.stdout.contains("\"animation\""), "\(s.stdout) \(s.stderr)")
        let input = FileSystem.join(Self.made, "dispose1.gif")
        let j = CLI.run(["thumb", "--animated", input, "-o", FileSystem.join(dir, "j.jpg")])
        #expect(j.status == 0 && j.stderr.contains("JPEG holds no animation"), "\(j.stderr)")
        let usage = CLI.run(["thumb", "--animated", "--format", "jpeg", input, "--out", dir])
        #expect(usage.status == 2 && usage.stderr.contains("holds no animation"), "\(usage.stderr)")
    }

    /// The hostile animations: 65,535 frames of 0 ms (1000 kept, bounded), WebP frames
    /// outside the canvas (one line naming the frame, exit 1), and the batch goes on.
    @Test func hostileAnimationsEndInBoundedTimeAndOneLine() {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/hostile/hostile_animations.py")
        #expect(CLI.shell("\(CLI.python) \(CLI.quote(script)) --many \(CLI.quote(dir))") == 0)
        let hostile = FileSystem.join(CLI.root, "Fixtures/hostile")
        for name in ["anim-webp-frame-outside.webp", "anim-webp-frame-past-edge.webp"] {
            CLI.write(FileSystem.join(dir, name), CLI.bytes(FileSystem.join(hostile, name)))
        }
        let out = FileSystem.join(dir, "out")
        let r = CLI.measure(
            [
                "thumb", "--animated", "--quiet", "--out", out, "anim-gif-65535-frames.gif",
                "anim-webp-frame-outside.webp", "anim-webp-frame-past-edge.webp",
            ], in: dir)
        #expect(r.exitCode == 1 && r.signal == nil && !r.timedOut, "\(r)")
        #expect(r.cpuSeconds < HostileInputTests.maxCPUSeconds * 4, "CPU-time guard: \(r.cpuSeconds) s")
        #expect(r.maxRSSKiB < HostileInputTests.maxRSSKiB, "\(r.maxRSSKiB / 1024) MiB")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("error") }
        #expect(lines.count == 2, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "anim-webp-frame-outside.webp: corrupt image header (frame 2 (16x16 at 16,16) lies outside"),
            "\(r.stderr)")
        #expect(r.stderr.contains("the first 1000 are kept (--max-frames 1000)"), "\(r.stderr)")
        let info = Self.pillow(FileSystem.join(out, "anim-gif-65535-frames.thumb.webp"))
        // 1000 frames of 100 ms; WebP merges the identical ones once the screen stops changing.
        #expect(Self.ints(info["durations"]).reduce(0, +) == 100_000, "\(info)")
        #expect((try? FileSystem.list(out))?.contains { $0.contains(".fz-") } == false)
    }

    /// Real animated GIFs (../shared/formats/gif, when present) as APNG: exit 0 with the
    /// frame count and delays Pillow reads, or one error line.
    @Test func sharedGIFsKeepTheirFramesAndDelays() throws {
        let folder = FileSystem.join(FileSystem.directory(of: CLI.root), "shared/formats/gif")
        guard let names = try? FileSystem.list(folder) else { return }
        let dir = CLI.scratch()
        for name in names.sorted() where name.hasSuffix(".gif") {
            let input = FileSystem.join(folder, name)
            let before = Self.pillow(input)
            let out = FileSystem.join(dir, name + ".png")
            let r = CLI.run(["thumb", "-q", "--animated", "--size", "64", input, "-o", out])
            guard r.status == 0 else {
                #expect(r.status == 1 && r.stderr.split(separator: "\n").count == 1, "\(name): \(r.stderr)")
                continue
            }
            guard let n = Self.int(before["frames"]), n > 1, n <= 1000 else { continue }
            let after = Self.pillow(out)
            #expect(Self.int(after["frames"]) == n, "\(name): \(before) -> \(after)")
            let want = Self.ints(before["durations"]).map { $0 <= 10 ? 100 : $0 }
            let got = Self.ints(after["durations"])
            #expect(got.count == want.count && zip(got, want).allSatisfy { abs($0 - $1) <= 10 }, "\(name)")
        }
    }
}
