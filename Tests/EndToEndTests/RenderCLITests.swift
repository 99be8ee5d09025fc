import TestSupport
import Testing

@testable import FZSystem

/// fit, frame and transform through the built binary.
@Suite(.serialized)
struct RenderCLITests {
    static let dir = CLI.scratch()
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    @Test func fitOnADeviceWithJSON() {
        let out = FileSystem.join(Self.dir, "fit.png")
        let r = CLI.run(["fit", Self.photo, "--screen", "iphone-15", "--orientation", "auto", "-o", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        // peek.jpg is 1600x900 upright: auto picks landscape-left on a portrait phone.
        #expect(r.stdout.contains(#""orientation":"landscape-left""#))
        #expect(r.stdout.contains(#""screen":{"width":1179,"height":2556}"#))
        #expect(r.stdout.contains(#""contentBounds":{"width":2556,"height":1179}"#))
        let info = CLI.run(["info", "--json", out])
        #expect(info.stdout.contains(#""width":1179,"height":2556"#))
    }

    @Test(arguments: [
        ["--screen", "nokia-3310"], ["--screen", "iphone-15", "--orientation", "sideways"],
        ["--screen", "iphone-15", "--mode", "stretch"], ["--screen", "0x10"],
    ])
    func fitUsageErrors(_ extra: [String]) {
        let r = CLI.run(["fit", Self.photo] + extra)
        #expect(r.status == 2, "\(extra): \(r.stderr)")
    }

    @Test func markerFileErrorsNameTheLine() {
        let bad = FileSystem.join(Self.dir, "pins.csv")
        CLI.write(bad, Array("x,y,label\n10,20,ok\n30;40\n".utf8))
        let r = CLI.run([
            "fit", Self.photo, "--screen", "iphone-se", "--markers", bad, "-o", FileSystem.join(Self.dir, "x.png"),
        ])
        #expect(r.status == 1)
        #expect(r.stderr == "forcezoom: error: \(bad): line 3: expected x,y[,label], got '30;40'\n")
        let json = FileSystem.join(Self.dir, "pins.json")
        CLI.write(json, Array(#"[{"x": 100, "y": 200, "label": "A"}, [300, 400]]"#.utf8))
        let ok = CLI.run([
            "fit", Self.photo, "--screen", "iphone-se", "--markers", json, "-o", FileSystem.join(Self.dir, "pins.png"),
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test func transformStepsComposeInCommandLineOrder() {
        let a = CLI.run([
            "transform", Self.photo, "--scale", "2,1", "--rotate", "90", "-o", FileSystem.join(Self.dir, "a.png"),
            "--json",
        ])
        let b = CLI.run([
            "transform", Self.photo, "--rotate", "90", "--scale", "2,1", "-o", FileSystem.join(Self.dir, "b.png"),
            "--json",
        ])
        #expect(a.status == 0 && b.status == 0)
        // 1600x900: scale x2 then turn -> 900 x 3200; turn then scale x2 -> 1800 x 1600.
        #expect(a.stdout.contains(#""canvas":{"width":900,"height":3200}"#), "\(a.stdout)")
        #expect(b.stdout.contains(#""canvas":{"width":1800,"height":1600}"#), "\(b.stdout)")
    }

    @Test func frameJSONBoxIsTheCropWindowInViewPoints() {
        let r = CLI.run([
            "frame", Self.photo, "--view", "390x844", "--at", "195,422", "--size", "300",
            "-o", FileSystem.join(Self.dir, "frame.png"), "--json",
        ])
        #expect(r.status == 0)
        let crop = CLI.run([
            "crop", Self.photo, "--view", "390x844", "--at", "195,422", "--size", "300", "--geometry-only",
        ])
        #expect(r.stdout.contains(#""cropRect":{"x":650,"y":300,"width":300,"height":300}"#))
        #expect(crop.stdout.contains(#""cropRect":{"x":650,"y":300,"width":300,"height":300}"#))
        #expect(r.stdout.contains(#""box":{"x":158.4375,"y":385.4375,"width":73.125,"height":73.125}"#))
        #expect(crop.stdout.contains(#""previewBox":{"x":158.4375,"y":385.4375,"width":73.125,"height":73.125}"#))
    }
}
