import TestSupport
import Testing

@testable import FZSystem

/// `crop --animated` through the binary (issue 50), against Pillow: for the animated GIFs,
/// APNGs and WebPs of `AnimatedThumbCLITests` (every disposal, sub-rectangles, blending),
/// written as APNG and lossless WebP, the output's frame count, delays and plays equal the
/// input's as Pillow reads them, and each frame equals Pillow's composited frame of the
/// input cut by Pillow at the record's `cropRect` (1:1, so exactly, within 2 levels of
/// premultiplied RGBA). Also: several points and --zoom, a point at the edge, a still
/// input, and the options an animated crop refuses. Adds about 8 s (debug build).
@Suite("Animated crops")
struct CropAnimatedCLITests {
    typealias Thumbs = AnimatedThumbCLITests

    /// Pillow's composited frames in `frames/`, cut at `rect` into `refs/frame-NNN.thumb.png`
    /// (the names compare-frames.py reads).
    static func pillowCrops(_ frames: String, _ refs: String, _ rect: [Int], count: Int) -> Bool {
        let script = """
            import sys
            from PIL import Image
            x, y, w, h = (int(v) for v in sys.argv[3:7])
            for k in range(int(sys.argv[7])):
                Image.open(f"{sys.argv[1]}/frame-{k:03d}.png").convert("RGBA").crop((x, y, x + w, y + h)).save(f"{sys.argv[2]}/frame-{k:03d}.thumb.png")
            """
        let file = FileSystem.join(CLI.scratch(), "cut.py")
        CLI.write(file, Array(script.utf8))
        let args = [file, frames, refs] + rect.map { "\($0)" } + ["\(count)"]
        return CLI.shell("mkdir -p \(CLI.quote(refs)) && \(CLI.python) \(args.map(CLI.quote).joined(separator: " "))")
            == 0
    }

    static func rect(_ record: [String: JSONValue]?, _ key: String) -> [Int] {
        guard case .object(let r)? = record?[key] else { return [] }
        return ["x", "y", "width", "height"].compactMap { Thumbs.int(r[$0]) }
    }

    @Test(arguments: Thumbs.inputs, ["png", "webp"])
    func framesDelaysPlaysAndPixelsMatchPillow(_ name: String, _ ext: String) {
        let input = FileSystem.join(Thumbs.made, name)
        let dir = CLI.scratch()
        let frames = FileSystem.join(dir, "frames")
        _ = CLI.shell("mkdir -p \(CLI.quote(frames))")
        let before = Thumbs.pillow(input, frames: frames)
        let out = FileSystem.join(dir, "out.\(ext)")
        // 20,12 with a 24-pixel square: near the top-left corner, so the square shifts.
        let lossless = ext == "webp" ? ["--lossless"] : []  // PNG always is
        let r = CLI.run(
            ["crop", "--animated", input, "--at", "20,12", "--size", "24", "--json", "-o", out] + lossless)
        #expect(r.status == 0, "\(r.stderr)")
        let delays = Thumbs.ints(before["durations"]).map { $0 <= 10 ? 100 : $0 }
        let after = Thumbs.pillow(out)
        let record = JSONValue.object(r.stdout.split(separator: "\n").first ?? "")
        guard case .object(let animation)? = record?["animation"] else {
            Issue.record("\(name): no animation object: \(r.stdout)")
            return
        }
        // An APNG keeps every frame; the WebP encoder merges a frame identical to the one
        // before (the crop may not change), adding its delay: the record says how many.
        let written = Thumbs.int(animation["frames"]) ?? -1
        #expect(Thumbs.int(after["frames"]) == written, "\(name) -> \(ext): \(after)")
        #expect(ext == "webp" ? written <= delays.count : written == delays.count, "\(name): \(animation)")
        #expect(Thumbs.int(animation["framesRead"]) == delays.count)
        #expect(Thumbs.ints(after["durations"]).reduce(0, +) == delays.reduce(0, +), "\(after) \(delays)")
        #expect(Thumbs.int(after["loop"]) == Thumbs.plays(name, Thumbs.int(before["loop"])), "\(before) \(after)")
        guard ext == "png" else { return }
        #expect(Thumbs.ints(after["durations"]) == delays)
        let crop = Self.rect(record, "cropRect")
        #expect(crop.count == 4 && crop[0] == 8 && crop[2] == 24, "\(name): \(crop)")
        let refs = FileSystem.join(dir, "refs")
        #expect(Self.pillowCrops(frames, refs, crop, count: delays.count))
        #expect(Thumbs.framesMatch(out, refs), "\(name): a frame differs from Pillow's crop")
    }

    /// Two points make two animations (-o's %d), each at its zoom: 16 px showing 8 image
    /// pixels; with --json one record each.
    @Test func severalPointsAndZoom() {
        let dir = CLI.scratch()
        let input = FileSystem.join(Thumbs.made, "dispose2.gif")
        let r = CLI.run([
            "crop", "--animated", input, "--at", "10,10", "--at", "50%,50%", "--size", "16", "--zoom", "2", "--json",
            "-o", FileSystem.join(dir, "p-%d.png"),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 2)
        let frames = Thumbs.int(Thumbs.pillow(input)["frames"])
        for k in 1...2 {
            let info = Thumbs.pillow(FileSystem.join(dir, "p-\(k).png"))
            #expect(Thumbs.int(info["frames"]) == frames, "\(k): \(info)")
            #expect(Thumbs.ints(info["size"]) == [16, 16], "\(k): \(info)")
        }
    }

    /// A still input is cropped as ever: one frame, no animation record.
    @Test func aStillInputMakesAStillCrop() {
        let dir = CLI.scratch()
        let still = FileSystem.join(dir, "still.png")
        #expect(CLI.run(["fixture", "gradient", "--size", "64x48", "-o", still]).status == 0)
        let out = FileSystem.join(dir, "c.png")
        let r = CLI.run(["crop", "--animated", still, "--at", "10,10", "--size", "16", "--json", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\"animation\""), "\(r.stdout)")
        #expect(Thumbs.int(Thumbs.pillow(out)["frames"]) == 1)
    }

    /// Options an animated crop cannot honour are usage errors naming them, nothing written.
    @Test(arguments: [
        (["-o", "x.jpg"], "holds no animation"), (["--geometry-only"], "--geometry-only"),
        (["--depth", "16"], "--depth 16"), (["--lossless", "-o", "x.jpg"], "--lossless"),
    ])
    func refusedOptions(_ extra: [String], _ said: String) {
        let dir = CLI.scratch()
        let input = FileSystem.join(Thumbs.made, "dispose1.gif")
        let r = CLI.run(["crop", "--animated", input, "--at", "5,5"] + extra, in: dir)
        #expect(r.status == 2, "\(extra): \(r.stderr)")
        #expect(r.stderr.contains(said), "\(extra): \(r.stderr)")
        #expect(CLI.shell("test -z \"$(ls -A \(CLI.quote(dir)))\"") == 0, "\(extra): something was written")
    }
}
