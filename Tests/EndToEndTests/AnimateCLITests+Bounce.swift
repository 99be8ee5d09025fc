import TestSupport
import Testing

@testable import FZImage
@testable import FZSystem
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// animate's bounce, pin scale range, overlay fade and usage errors.
extension AnimateCLITests {
    /// Defect 6: the bounce in real time, no --from, meaningless options refused, and no
    /// corner cut: in every frame each of the image's four coloured corners is drawn at
    /// the place the frame's matrix puts it, inside the canvas.
    @Test func bounceInRealTimeWithNothingCut() {
        let dir = CLI.scratch()
        let orient = FileSystem.join(dir, "orient.png")
        #expect(CLI.run(["fixture", "orientation", "--size", "480x320", "-o", orient]).status == 0)
        let r = CLI.run([
            "animate", orient, "--screen", "240x400", "--bounce", "--fps", "8", "--duration", "3",
            "-o", FileSystem.join(dir, "b%02d.png"), "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = Self.lines(r.stdout)
        #expect(json.count == 25)
        // Corner colours of the orientation fixture: red, green, blue, yellow.
        let corners: [(Double, Double, (Color) -> Bool)] = [
            (0, 0, { $0.r > 180 && $0.g < 80 && $0.b < 80 }), (480, 0, { $0.g > 150 && $0.r < 80 && $0.b < 80 }),
            (0, 320, { $0.b > 150 && $0.r < 80 && $0.g < 80 }), (480, 320, { $0.r > 180 && $0.g > 150 && $0.b < 80 }),
        ]
        for (k, f) in json.enumerated() {
            let t = Self.number(f, "time")
            let scale = Self.number(f, "scale")
            #expect(abs(t - Double(k) / 8) < 1e-9)
            #expect(abs(Self.number(f, "rotation") - 60 * t) < 1e-6)  // pi/100 rad per 0.03 s
            #expect(abs(scale / Self.number(json[0], "scale") - (abs(cos(Double.pi / 3 * t)) + 0.5) / 1.5) < 1e-5)
            guard case .array(let m)? = f["transform"], m.count == 6,
                let frame = Self.image(FileSystem.join(dir, String(format: "b%02d.png", k + 1)))
            else {
                Issue.record("b\(k + 1)")
                return
            }
            let v = m.map { if case .number(let x) = $0 { return x } else { return .nan } }
            for (cx, cy, isCorner) in corners {
                // Two canvas pixels inside the corner, along both edges.
                let inset = 2 / scale
                let ix = cx == 0 ? inset : cx - inset
                let iy = cy == 0 ? inset : cy - inset
                let x = v[0] * ix + v[2] * iy + v[4]
                let y = v[1] * ix + v[3] * iy + v[5]
                let px = Int(x.rounded(.down))
                let py = Int(y.rounded(.down))
                let ok = px >= 0 && py >= 0 && px < 240 && py < 400 && isCorner(frame.rgba(x: px, y: py))
                #expect(ok, "frame \(k + 1): corner \(cx),\(cy) at \(x),\(y) not drawn")
            }
        }
        let whole = CLI.run(["animate", orient, "--screen", "120x200", "--bounce", "--json"])
        #expect(Self.lines(whole.stdout).count == 361, "one full turn at 60 fps: 6 s")
        for bad in [
            ["--orientation", "landscape-left"], ["--to", "0,0,10,10"], ["--from", "1,2,3,4"], ["--reverse"],
            ["--zoom-duration", "1"],
        ] {
            let e = CLI.run(["animate", orient, "--screen", "120x200", "--bounce", "--json"] + bad)
            #expect(e.status == 2 && e.stderr.contains(bad[0]), "\(bad): \(e.stderr)")
        }
    }

    /// Defect 7: --pin-scale-range in the seed's units with --initial-zoom, in pixels at
    /// both ends: within the range pins keep their size; past MAX they grow with the zoom.
    @Test func pinScaleRangeInPixels() {
        let dir = CLI.scratch()
        let white = FileSystem.join(dir, "white.png")
        #expect(CLI.run(["fixture", "solid", "--size", "400x300", "--fill", "white", "-o", white]).status == 0)
        func widths(_ from: String, _ extra: [String]) -> (Int, Int) {
            let r = CLI.run(
                [
                    "animate", white, "--screen", "400x300", "--from", from, "--marker", "200,150", "--frames", "3",
                    "-o", FileSystem.join(dir, "p%d.png"),
                ] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let a = Self.red(Self.image(FileSystem.join(dir, "p1.png"))!).box?.width ?? 0
            let b = Self.red(Self.image(FileSystem.join(dir, "p3.png"))!).box?.width ?? 0
            return (a, b)
        }
        let seed = ["--initial-zoom", "0.25", "--pin-scale-range", "0.25,1"]
        let four = widths("150,112.5,100,75", seed)  // 0.25 -> 1: in range all the way
        #expect(four.0 >= 12 && abs(four.0 - four.1) <= 1, "\(four)")
        let eight = widths("175,131.25,50,37.5", seed)  // 0.25 -> 2: pins twice as big at the end
        #expect(abs(Double(eight.1) / Double(eight.0) - 2) < 0.15, "\(eight)")
        let naive = widths("150,112.5,100,75", ["--pin-scale-range", "0.25,1"])  // 1 -> 4: grows 4x
        #expect(abs(Double(naive.1) / Double(naive.0) - 4) < 0.3, "\(naive)")
    }

    /// The supplementary view: opaque at the rect, gone fullscreen, half-faded halfway.
    @Test func overlayFadesWithTheTransition() {
        let dir = CLI.scratch()
        let gray = FileSystem.join(dir, "gray.png")
        let bar = FileSystem.join(dir, "bar.png")
        #expect(CLI.run(["fixture", "solid", "--size", "400x300", "--fill", "#808080", "-o", gray]).status == 0)
        #expect(CLI.run(["fixture", "solid", "--size", "100x20", "--fill", "#FF0000", "-o", bar]).status == 0)
        let r = CLI.run([
            "animate", gray, "--screen", "200x300", "--from", "10,150,40,30", "--easing", "linear", "--frames", "5",
            "--overlay", bar, "--overlay-at", "20,100", "-o", FileSystem.join(dir, "o%d.png"), "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = (1...5).map { Self.image(FileSystem.join(dir, "o\($0).png"))! }
        #expect(frames[0].rgba(x: 30, y: 110) == Color(r: 255, g: 0, b: 0))  // on the black background, opaque
        #expect(
            frames[0].rgba(x: 19, y: 110) == Color(r: 0, g: 0, b: 0)
                && frames[0].rgba(x: 120, y: 110) == Color(r: 0, g: 0, b: 0))
        // Halfway (presented 0.5), over the gray image the view now covers: half red, half gray.
        let mid = frames[2].rgba(x: 30, y: 110)
        #expect(
            abs(Int(mid.r) - (255 + 128) / 2) <= 1 && abs(Int(mid.g) - 64) <= 1 && abs(Int(mid.b) - 64) <= 1, "\(mid)")
        #expect(frames[4].rgba(x: 30, y: 110) == Color(r: 128, g: 128, b: 128))  // fullscreen: gone
        let inFade = CLI.run([
            "animate", gray, "--screen", "200x300", "--from", "10,150,40,30", "--frames", "3",
            "--overlay", bar, "--overlay-fade", "in", "-o", FileSystem.join(dir, "i%d.png"),
        ])
        #expect(inFade.status == 0)
        #expect(Self.image(FileSystem.join(dir, "i3.png"))!.rgba(x: 5, y: 5) == Color(r: 255, g: 0, b: 0))
    }

    @Test func usageErrors() {
        #expect(CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3"]).status == 2)
        // no output named
        #expect(CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4"]).status == 2)
        #expect(CLI.run(["animate", Self.photo, "--screen", "100x200", "--json"]).status == 2)  // no --from
        #expect(
            CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4", "--easing", "bouncy", "--json"])
                .status == 2)
        #expect(
            CLI.run(["animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4", "-o", "x.png"]).status == 2)
        #expect(
            CLI.run([
                "animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4", "--turn-duration", "1", "--json",
            ]).status == 2)
        #expect(
            CLI.run([
                "animate", Self.photo, "--screen", "100x200", "--from", "1,2,3,4", "--initial-zoom", "0.25", "--json",
            ]).status == 2)
        #expect(
            CLI.run(["animate", Self.photo, "--screen", "100x200", "--scale", "1", "--from", "1,2,3,4", "--json"])
                .status == 2)
    }
}

extension String {
    /// "a%02d.png" for frame n.
    init(format2 n: Int) { self = "a" + (n < 10 ? "0" : "") + String(n) + ".png" }
    init(format: String, _ n: Int) {
        // Only the %02d form the tests use.
        self = format.replacing("%02d", with: (n < 10 ? "0" : "") + String(n))
    }
}

/// UIKit's timing curves, computed here independently of forcezoom (Newton on x(s)).
enum ReferenceBezier {
    static func value(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * p1 * s * (1 - s) * (1 - s) + 3 * p2 * s * s * (1 - s) + s * s * s
        }
        func db(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * p1 * (1 - s) * (1 - s) + 6 * (p2 - p1) * s * (1 - s) + 3 * (1 - p2) * s * s
        }
        var s = t
        for _ in 0..<50 {
            let d = db(s, x1, x2)
            if abs(d) < 1e-12 { break }
            s = min(1, max(0, s - (b(s, x1, x2) - t) / d))
        }
        return b(s, y1, y2)
    }
    static func easeInOut(_ t: Double) -> Double { value(t, 0.42, 0, 0.58, 1) }
    static func easeOut(_ t: Double) -> Double { value(t, 0, 0, 0.58, 1) }
}
