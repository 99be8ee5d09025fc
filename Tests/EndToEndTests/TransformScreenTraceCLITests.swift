import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// transform --canvas and --anchor, --screen in points or pixels, the device table, and
/// fixture --decode on padded and zoomed crops.
@Suite(.serialized)
struct TransformScreenTraceCLITests {
    static func image(_ path: String) -> Image? { try? ImageReader(path: path).readImage() }

    static func object(_ line: String) -> [String: JSONValue] { JSONValue.object(line) ?? [:] }

    static func number(_ o: [String: JSONValue], _ path: String...) -> Double {
        var cur: JSONValue? = .object(o)
        for key in path { if case .object(let m)? = cur { cur = m[key] } else { return .nan } }
        if case .number(let v)? = cur { return v }
        return .nan
    }

    /// Columns (rows) in which the blue background fills the whole column (row).
    static func blueBands(_ im: Image) -> (left: Int, right: Int, top: Int, bottom: Int) {
        func blue(_ x: Int, _ y: Int) -> Bool {
            let c = im.rgba(x: x, y: y)
            return c.b == 255 && c.r == 0 && c.g == 0
        }
        let cols = (0..<im.width).map { x in (0..<im.height).allSatisfy { blue(x, $0) } }
        let rows = (0..<im.height).map { y in (0..<im.width).allSatisfy { blue($0, y) } }
        return (
            cols.prefix { $0 }.count, cols.reversed().prefix { $0 }.count, rows.prefix { $0 }.count,
            rows.reversed().prefix { $0 }.count
        )
    }

    /// Defect 8: --canvas centres the transformed image; a canvas of the default box's size
    /// gives the default bytes; --anchor pins another point.
    @Test func transformCanvasCentresTheImage() {
        let dir = CLI.scratch()
        let land = FileSystem.join(dir, "land.png")
        #expect(CLI.run(["fixture", "orientation", "--size", "480x320", "-o", land]).status == 0)
        func run(_ name: String, _ extra: [String], turn: Bool = true) -> Image? {
            let r = CLI.run(
                ["transform", land] + (turn ? ["--rotate", "90"] : []) + [
                    "--background", "#0000FF", "-o", FileSystem.join(dir, name),
                ] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return Self.image(FileSystem.join(dir, name))
        }
        let plain = run("plain.png", [])
        let same = run("same.png", ["--canvas", "320x480"])
        #expect(plain != nil && plain == same)
        #expect(Self.blueBands(same!) == (0, 0, 0, 0))
        let big = run("big.png", ["--canvas", "400x560"])!
        #expect(Self.blueBands(big) == (40, 40, 40, 40))
        // The top-left corner (red in the image) turned +90 lands at the top right of the content.
        let c = big.rgba(x: 355, y: 45)
        #expect(c.r > 200 && c.g < 60 && c.b < 60, "\(c)")
        // A translation moves it off centre, as a view's transform would.
        let moved = run("moved.png", ["--canvas", "400x560", "--translate", "20,0"])!
        #expect(Self.blueBands(moved) == (60, 20, 40, 40))
        // --anchor top-left: the image's top-left is the pivot, at the canvas's top-left.
        let half = run("anchor.png", ["--canvas", "400x560", "--scale", "0.5", "--anchor", "top-left"], turn: false)!
        #expect(Self.blueBands(half) == (0, 160, 0, 400))
        let halfCentred = run("anchor-c.png", ["--canvas", "400x560", "--scale", "0.5"], turn: false)!
        #expect(Self.blueBands(halfCentred) == (80, 80, 200, 200))
        // Turned +90 about its top-left corner, the image swings left of the canvas: all background.
        let swung = run("swung.png", ["--canvas", "400x560", "--anchor", "0,0"])!
        #expect(Self.blueBands(swung).top == 560)
        let noCanvas = CLI.run([
            "transform", land, "--rotate", "90", "--anchor", "center", "-o", FileSystem.join(dir, "x.png"),
        ])
        #expect(noCanvas.status == 2 && noCanvas.stderr.contains("--canvas"))
    }

    /// Defect 9: crop and frame take --screen in points (the peek's side is min of the
    /// bounds in points); fit and animate render at the device's pixels, --scale 1 at points.
    @Test func screenPointsForThePeekPixelsForTheFit() {
        let dir = CLI.scratch()
        let coords = FileSystem.join(dir, "c.png")
        #expect(CLI.run(["fixture", "coords", "--size", "2000x1500", "-o", coords]).status == 0)
        for (screen, side) in [
            ("iphone-15", 393), ("390x844", 390), ("iphone-se", 375), ("ipad-13", 1032), ("pixel-8", 411),
        ] {
            let r = CLI.run(["crop", coords, "--at", "1000,700", "--screen", screen, "--geometry-only"])
            #expect(Self.number(Self.object(r.stdout), "side") == Double(side), "\(screen): \(r.stdout)")
        }
        let f = CLI.run([
            "frame", coords, "--view", "390x844", "--at", "50%,50%", "--screen", "iphone-15", "-o",
            FileSystem.join(dir, "f.png"), "--json",
        ])
        #expect(Self.number(Self.object(f.stdout), "side") == 393, "\(f.stdout)")
        for (extra, w, h) in [([String](), 1179, 2556), (["--scale", "1"], 393, 852), (["--scale", "2"], 786, 1704)] {
            let r = CLI.run(
                ["fit", coords, "--screen", "iphone-15", "-o", FileSystem.join(dir, "fit.png"), "--json"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(Self.image(FileSystem.join(dir, "fit.png"))?.size == PixelSize(width: w, height: h))
        }
        let a = CLI.run([
            "animate", coords, "--screen", "iphone-15", "--scale", "1", "--from", "10,10,40,30", "--frames", "2",
            "-o", FileSystem.join(dir, "a%d.png"),
        ])
        #expect(a.status == 0 && Self.image(FileSystem.join(dir, "a2.png"))?.size == PixelSize(width: 393, height: 852))
        #expect(CLI.run(["fit", coords, "--screen", "390x844", "--scale", "1"]).status == 2)  // WxH is already pixels
        // `forcezoom help fit` lists every device with points, scale and pixels (`forcezoom
        // help` names it, without the 23 rows before its subcommands).
        let help = CLI.run(["help", "fit"])
        for line in [
            "name               points     scale    pixels", "iphone-15          393x852    @3x      1179x2556",
            "iphone-se          375x667    @2x      750x1334", "pixel-8            411x914    @2.625x  1080x2400",
        ] {
            #expect(help.stdout.contains(line), "help lacks '\(line)'")
        }
    }

    /// Defect 10: fixture --decode traces a padded crop (reporting the padding) and a
    /// whole-number zoom (the zoom and the exact window in the JSON).
    @Test func decodeTracesPaddedAndZoomedCrops() {
        let dir = CLI.scratch()
        let small = FileSystem.join(dir, "small.png")
        let big = FileSystem.join(dir, "big.png")
        #expect(CLI.run(["fixture", "coords", "--size", "300x200", "-o", small]).status == 0)
        #expect(CLI.run(["fixture", "coords", "--size", "1600x900", "-o", big]).status == 0)
        for background in ["transparent", "black", "#336699"] {
            let out = FileSystem.join(dir, "pad.png")
            #expect(
                CLI.run(["crop", small, "--at", "100,100", "--size", "400", "--background", background, "-o", out])
                    .status == 0)
            let t = Self.object(CLI.run(["fixture", "--decode", out]).stdout)
            #expect(
                Self.number(t, "sourceRect", "width") == 300 && Self.number(t, "sourceRect", "height") == 200,
                "\(background): \(t)")
            #expect(Self.number(t, "padding", "left") == 50 && Self.number(t, "padding", "top") == 100)
            #expect(Self.number(t, "padding", "right") == 50 && Self.number(t, "padding", "bottom") == 100)
            #expect(Self.number(t, "zoom") == 1)
        }
        for zoom in [2, 3, 4] {
            let out = FileSystem.join(dir, "z.png")
            let c = Self.object(
                CLI.run(["crop", big, "--at", "62%,45%", "--size", "400", "--zoom", String(zoom), "-o", out, "--json"])
                    .stdout)
            let r = CLI.run(["fixture", "--decode", out])
            #expect(r.status == 0, "zoom \(zoom): \(r.stderr)")
            let t = Self.object(r.stdout)
            #expect(Self.number(t, "zoom") == Double(zoom))
            #expect(
                Self.number(t, "sourceRect", "x") == Self.number(c, "cropRect", "x")
                    && Self.number(t, "sourceRect", "width") == Self.number(c, "cropRect", "width"))
            // The window the pixels show is crop's to within half an output pixel (nearest neighbour).
            for key in ["x", "y", "width", "height"] {
                #expect(
                    abs(Self.number(t, "window", key) - Self.number(c, "window", key)) <= 0.5 / Double(zoom) + 1e-9,
                    "\(key): \(t) vs \(c)")
            }
        }
        // A fractional zoom is not exact (Catmull-Rom blends neighbours): it is fitted
        // (issue 28), its window crop's to within half a source pixel.
        let blurred = FileSystem.join(dir, "blur.png")
        let b = CLI.run(["crop", big, "--at", "50%,50%", "--size", "64", "--zoom", "1.5", "-o", blurred, "--json"])
        #expect(b.status == 0)
        let f = CLI.run(["fixture", "--decode", blurred])
        #expect(f.status == 0 && JSONValue.object(f.stdout)?["exact"] == .bool(false), "\(f.stderr)")
        let (t, c) = (Self.object(f.stdout), Self.object(b.stdout))
        for key in ["x", "y", "width", "height"] {
            #expect(abs(Self.number(t, "window", key) - Self.number(c, "window", key)) < 0.5, "\(key): \(t) vs \(c)")
        }
    }
}
