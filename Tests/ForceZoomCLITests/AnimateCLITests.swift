import ForceZoomCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// animate through the binary: files, a real APNG decoder, constant pin size.
@Suite(.serialized)
struct AnimateCLITests {
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    @Test func sequenceAPNGAndContactSheet() {
        let dir = CLI.scratch()
        let r = CLI.run(["animate", Self.photo, "--screen", "120x260", "--from", "10,20,40,30", "--frames", "6",
                         "--orientation", "landscape-left", "-o", FileSystem.join(dir, "seq/%03d.png"),
                         "--apng", FileSystem.join(dir, "zoom.png"), "--contact-sheet", FileSystem.join(dir, "sheet.png"), "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 6)
        #expect(r.stdout.hasPrefix(#"{"frame":1,"time":0,"progress":0,"rect":{"x":10,"y":20,"width":40,"height":30},"rotation":0"#))
        #expect(r.stdout.contains(#"{"frame":6,"#) && r.stdout.contains(#""rotation":90"#))
        #expect(((try? FileSystem.list(FileSystem.join(dir, "seq"))) ?? []) == (1...6).map { "00\($0).png" })
        // A real APNG decoder (Pillow) reads every frame at the right size.
        let check = CLI.run(["info", FileSystem.join(dir, "sheet.png")])
        #expect(check.status == 0)
        let pillow = "/usr/bin/python3 -c \"from PIL import Image; im = Image.open('\(FileSystem.join(dir, "zoom.png"))'); "
            + "assert im.is_animated and im.n_frames == 6 and im.size == (120, 260), (im.n_frames, im.size); "
            + "[im.seek(k) or im.load() for k in range(6)]\""
        #expect(CLI.shell(pillow) == 0, "Pillow (python3-pil, `make deps`) must decode the APNG")
    }

    @Test func pinsKeepTheirSizeThroughTheZoom() {
        // A white image and a pin: its ink area must be the same in the first and last frame
        // although the image is magnified many times between them.
        let dir = CLI.scratch()
        let white = FileSystem.join(dir, "white.png")
        #expect(CLI.run(["fixture", "solid", "--size", "400x300", "--fill", "white", "-o", white]).status == 0)
        let r = CLI.run(["animate", white, "--screen", "200x300", "--from", "10,10,40,30", "--frames", "5", "--marker", "200,150",
                         "-o", FileSystem.join(dir, "f%d.png")])
        #expect(r.status == 0, "\(r.stderr)")
        var inks: [Double] = []
        for k in [1, 5] {
            let reader = try? ImageReader(path: FileSystem.join(dir, "f\(k).png"))
            guard let image = try? reader?.readImage() else { Issue.record("frame \(k) unreadable"); return }
            var ink = 0.0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let c = image.rgba(x: x, y: y)
                    if c.r > 150 && c.g < 120 { ink += 1 }  // the red body of the pin
                }
            }
            inks.append(ink)
        }
        #expect(inks[0] > 20)
        #expect(abs(inks[0] - inks[1]) / inks[0] < 0.1, "red pin pixels \(inks)")
    }

    @Test func usageErrors() {
        #expect(CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3"]).status == 2)
        #expect(CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4"]).status == 2)  // no output named
        #expect(CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4", "--easing", "bouncy", "--json"]).status == 2)
        #expect(CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4", "-o", "x.png"]).status == 2)
    }
}
