import TestSupport
import Testing

@testable import FZSystem

/// Animated JPEG XL inputs (issue 50) through the binary: `cjxl -d 0` makes lossless
/// animations from the test GIFs and APNG, `djxl` turns each back into an APNG that Pillow
/// composites (the independent reading), and `crop --animated` of the JPEG XL has that
/// APNG's frame count, delays and plays, each frame within 2 levels of Pillow's frame cut at
/// the record's `cropRect`; `thumb --animated` keeps every frame; without `--animated` the
/// first frame is used with its note. Adds about 4 s (debug build).
@Suite("Animated JPEG XL")
struct JXLAnimatedCLITests {
    typealias Thumbs = AnimatedThumbCLITests

    static let haveTools = CLI.shell("command -v cjxl > /dev/null && command -v djxl > /dev/null") == 0
    /// Not zero-delay.gif: JPEG XL frames of no duration are layers of the next one, which
    /// libjxl (and djxl) show as one frame.
    static let inputs = ["dispose1.gif", "dispose2.gif", "subrect.gif", "once.gif", "apng-over.png"]

    /// `name` as a lossless JPEG XL, and djxl's APNG of it, in a fresh folder.
    static func made(_ name: String) -> (jxl: String, reference: String, dir: String) {
        let dir = CLI.scratch()
        let jxl = FileSystem.join(dir, "in.jxl")
        let reference = FileSystem.join(dir, "reference.apng")
        let source = CLI.quote(FileSystem.join(Thumbs.made, name))
        let status = CLI.shell(
            "cjxl -d 0 \(source) \(CLI.quote(jxl)) > /dev/null 2>&1 && djxl \(CLI.quote(jxl)) \(CLI.quote(reference)) > /dev/null 2>&1"
        )
        #expect(status == 0, "\(name): cjxl or djxl failed")
        return (jxl, reference, dir)
    }

    @Test(.enabled(if: haveTools, "cjxl and djxl (libjxl-tools)"), arguments: inputs)
    func cropMatchesDjxlThroughPillow(_ name: String) {
        let (jxl, reference, dir) = Self.made(name)
        let frames = FileSystem.join(dir, "frames")
        _ = CLI.shell("mkdir -p \(CLI.quote(frames))")
        let before = Thumbs.pillow(reference, frames: frames)
        let out = FileSystem.join(dir, "out.png")
        let r = CLI.run(["crop", "--animated", jxl, "--at", "20,12", "--size", "24", "--json", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let delays = Thumbs.ints(before["durations"]).map { $0 <= 10 ? 100 : $0 }
        #expect(delays.count > 1, "\(name): \(before)")
        let after = Thumbs.pillow(out)
        #expect(Thumbs.int(after["frames"]) == delays.count, "\(name): \(after) \(before)")
        #expect(Thumbs.ints(after["durations"]) == delays, "\(name): \(after) \(delays)")
        #expect(Thumbs.int(after["loop"]) == Thumbs.int(before["loop"]) ?? 0, "\(before) \(after)")
        let record = JSONValue.object(r.stdout.split(separator: "\n").first ?? "")
        let crop = CropAnimatedCLITests.rect(record, "cropRect")
        let refs = FileSystem.join(dir, "refs")
        #expect(CropAnimatedCLITests.pillowCrops(frames, refs, crop, count: delays.count))
        #expect(Thumbs.framesMatch(out, refs), "\(name): a frame differs from djxl's")
    }

    /// thumb --animated keeps every frame; a still thumbnail takes the first and says so.
    @Test(.enabled(if: haveTools, "cjxl and djxl (libjxl-tools)"))
    func thumbAnimatedAndStill() {
        let (jxl, reference, dir) = Self.made("dispose3.gif")
        let frames = Thumbs.int(Thumbs.pillow(reference)["frames"])
        let moving = FileSystem.join(dir, "t.webp")
        let a = CLI.run(["thumb", "--animated", "--size", "32", jxl, "-o", moving])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(Thumbs.int(Thumbs.pillow(moving)["frames"]) == frames)
        let still = CLI.run(["thumb", "--size", "32", jxl, "-o", FileSystem.join(dir, "s.png")])
        #expect(still.status == 0 && still.stderr.contains("the first frame is used"), "\(still.stderr)")
    }
}
