import TestSupport
import Testing

@testable import FZSystem

/// `fit --animated` through the binary (issue 50), against Pillow: for the animated GIFs,
/// APNGs and WebPs of `AnimatedThumbCLITests`, an APNG fit (letterboxed, and filled in
/// landscape) has the input's frame count, delays and plays as Pillow reads them, and each
/// frame is within 2 levels of the still fit of Pillow's composited frame (the same
/// geometry and filter: what the animation adds is the compositing, which Pillow checks).
/// Adds about 6 s (debug build).
@Suite("Animated fits")
struct FitAnimatedCLITests {
    typealias Thumbs = AnimatedThumbCLITests

    static let shapes: [[String]] = [
        ["--screen", "48x40"], ["--screen", "30x52", "--orientation", "landscape-left", "--mode", "fill"],
    ]

    @Test(arguments: Thumbs.inputs, shapes)
    func framesDelaysPlaysAndPixelsMatchPillow(_ name: String, _ shape: [String]) {
        let input = FileSystem.join(Thumbs.made, name)
        let dir = CLI.scratch()
        let frames = FileSystem.join(dir, "frames")
        _ = CLI.shell("mkdir -p \(CLI.quote(frames))")
        let before = Thumbs.pillow(input, frames: frames)
        let out = FileSystem.join(dir, "out.png")
        let r = CLI.run(["fit", "--animated", input, "--json", "-o", out] + shape)
        #expect(r.status == 0, "\(r.stderr)")
        let delays = Thumbs.ints(before["durations"]).map { $0 <= 10 ? 100 : $0 }
        let after = Thumbs.pillow(out)
        #expect(Thumbs.int(after["frames"]) == delays.count, "\(name): \(after)")
        #expect(Thumbs.ints(after["durations"]) == delays, "\(name): \(after) \(delays)")
        #expect(Thumbs.int(after["loop"]) == Thumbs.plays(name, Thumbs.int(before["loop"])), "\(before) \(after)")
        #expect(r.stdout.contains("\"animation\":{\"frames\":\(delays.count),"), "\(r.stdout)")
        // The still fit of each of Pillow's frames, named as compare-frames.py reads them.
        let refs = FileSystem.join(dir, "refs")
        _ = CLI.shell("mkdir -p \(CLI.quote(refs))")
        for k in 0..<delays.count {
            let n = String("00\(k)".suffix(3))
            let still = CLI.run(
                ["fit", FileSystem.join(frames, "frame-\(n).png"), "-o", FileSystem.join(refs, "frame-\(n).thumb.png")]
                    + shape)
            #expect(still.status == 0, "\(still.stderr)")
        }
        #expect(Thumbs.framesMatch(out, refs), "\(name) \(shape): a frame differs")
    }

    /// A WebP output and an output format without animation.
    @Test func webpAndRefusedFormats() {
        let dir = CLI.scratch()
        let input = FileSystem.join(Thumbs.made, "dispose1.gif")
        let out = FileSystem.join(dir, "f.webp")
        let r = CLI.run(["fit", "--animated", input, "--screen", "48x40", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Thumbs.ints(Thumbs.pillow(out)["size"]) == [48, 40])
        #expect((Thumbs.int(Thumbs.pillow(out)["frames"]) ?? 0) > 1)
        let jpeg = CLI.run(["fit", "--animated", input, "--screen", "48x40", "-o", FileSystem.join(dir, "f.jpg")])
        #expect(jpeg.status == 2 && jpeg.stderr.contains("holds no animation"), "\(jpeg.stderr)")
        #expect(FileSystem.identity(of: FileSystem.join(dir, "f.jpg")) == nil)
    }
}
