import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// animate through the binary: files, a real APNG decoder, pins, timing, the dismiss,
/// the bounce, and the last frame against `fit`.
@Suite(.serialized)
struct AnimateCLITests {
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    /// The JSON lines animate prints.
    static func lines(_ stdout: String) -> [[String: JSONValue]] {
        stdout.split(separator: "\n").compactMap { JSONValue.object($0) }
    }

    static func number(_ o: [String: JSONValue], _ key: String) -> Double {
        if case .number(let v)? = o[key] { return v }
        return .nan
    }

    static func image(_ path: String) -> Image? { try? ImageReader(path: path).readImage() }

    /// Pixels of the pin's red body: their count and bounding box.
    static func red(_ image: Image) -> (count: Int, box: PixelRect?) {
        var n = 0
        var x0 = Int.max
        var y0 = Int.max
        var x1 = -1
        var y1 = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image.rgba(x: x, y: y)
                if c.r > 150 && c.g < 100 && c.b < 100 {
                    n += 1
                    x0 = min(x0, x)
                    y0 = min(y0, y)
                    x1 = max(x1, x)
                    y1 = max(y1, y)
                }
            }
        }
        return (n, n == 0 ? nil : PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1))
    }

    @Test func sequenceAPNGAndContactSheet() {
        let dir = CLI.scratch()
        let r = CLI.run([
            "animate", Self.photo, "--screen", "120x260", "--from", "10,20,40,30", "--frames", "6",
            "--orientation", "landscape-left", "-o", FileSystem.join(dir, "seq/%03d.png"),
            "--apng", FileSystem.join(dir, "zoom.png"), "--contact-sheet", FileSystem.join(dir, "sheet.png"), "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 6)
        #expect(
            r.stdout.hasPrefix(
                #"{"schemaVersion":2,"frame":1,"time":0,"phase":"zoom","progress":0,"presented":0,"rect":{"x":10,"y":20,"width":40,"height":30},"rotation":0"#
            ))
        #expect(
            r.stdout.contains(#"{"schemaVersion":2,"frame":6,"time":0.45,"phase":"turn","progress":1"#)
                && r.stdout.contains(#""rotation":90"#))
        #expect(((try? FileSystem.list(FileSystem.join(dir, "seq"))) ?? []) == (1...6).map { "00\($0).png" })
        // A real APNG decoder (Pillow) reads every frame at the right size.
        let check = CLI.run(["info", FileSystem.join(dir, "sheet.png")])
        #expect(check.status == 0)
        let pillow =
            "/usr/bin/python3 -c \"from PIL import Image; im = Image.open('\(FileSystem.join(dir, "zoom.png"))'); "
            + "assert im.is_animated and im.n_frames == 6 and im.size == (120, 260), (im.n_frames, im.size); "
            + "[im.seek(k) or im.load() for k in range(6)]\""
        #expect(CLI.shell(pillow) == 0, "Pillow (python3-pil, `make deps`) must decode the APNG")
    }

    /// The APNG is streamed to disk as frames finish (out of order on several threads) and
    /// written in order: every frame Pillow decodes from it equals the PNG sequence's frame.
    @Test func apngFramesAreTheSequenceInOrder() {
        let dir = CLI.scratch()
        let r = CLI.run([
            "animate", Self.photo, "--screen", "180x320", "--from", "10,20,60,40", "--frames", "14", "--orientation",
            "landscape-left",
            "--marker", "100,80", "-o", FileSystem.join(dir, "f%02d.png"), "--apng", FileSystem.join(dir, "a.png"),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let script =
            "from PIL import Image\n"
            + "im = Image.open('\(FileSystem.join(dir, "a.png"))')\n"
            + "assert im.n_frames == 14, im.n_frames\n"
            + "for k in range(14):\n"
            + "    im.seek(k)\n"
            + "    seq = Image.open('\(FileSystem.join(dir, "f"))%02d.png' % (k + 1)).convert('RGBA')\n"
            + "    assert list(im.convert('RGBA').getdata()) == list(seq.getdata()), k\n"
        CLI.write(FileSystem.join(dir, "check.py"), Array(script.utf8))
        #expect(CLI.shell("/usr/bin/python3 \(CLI.quote(FileSystem.join(dir, "check.py"))) >&2") == 0)
        #expect(!((try? FileSystem.list(dir)) ?? []).contains { $0.contains(".fz-") }, "temporary file left")
    }

    @Test func pinsKeepTheirSizeThroughTheZoom() {
        // A white image and a pin: its ink area must be the same in the first and last frame
        // although the image is magnified many times between them.
        let dir = CLI.scratch()
        let white = FileSystem.join(dir, "white.png")
        #expect(CLI.run(["fixture", "solid", "--size", "400x300", "--fill", "white", "-o", white]).status == 0)
        // (The rect holds the whole pin: pins are clipped to the view.)
        let r = CLI.run([
            "animate", white, "--screen", "200x300", "--from", "10,100,80,60", "--frames", "5", "--marker", "200,150",
            "-o", FileSystem.join(dir, "f%d.png"),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let inks = [1, 5].map { k in
            Self.image(FileSystem.join(dir, "f\(k).png")).map { Double(Self.red($0).count) } ?? 0
        }
        #expect(inks[0] > 20)
        #expect(abs(inks[0] - inks[1]) / inks[0] < 0.1, "red pin pixels \(inks)")
    }

    /// Defect 1: a pin whose point is outside the view is clipped by the view's bounds;
    /// nothing is drawn on the background around the view.
    @Test func pinsAreClippedToTheView() {
        let dir = CLI.scratch()
        let gray = FileSystem.join(dir, "gray.png")
        #expect(CLI.run(["fixture", "solid", "--size", "800x600", "--fill", "#808080", "-o", gray]).status == 0)
        let r = CLI.run([
            "animate", gray, "--screen", "200x400", "--from", "50,50,40,40", "--frames", "5", "--easing", "linear",
            "--marker", "20,300", "--marker", "400,300", "-o", FileSystem.join(dir, "f%d.png"), "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = Self.lines(r.stdout)
        for k in 1...4 {
            guard let frame = Self.image(FileSystem.join(dir, "f\(k).png")),
                case .object(let rect)? = json[k - 1]["rect"]
            else {
                Issue.record("frame \(k)")
                return
            }
            let x0 = Self.number(rect, "x")
            let y0 = Self.number(rect, "y")
            let x1 = x0 + Self.number(rect, "width")
            let y1 = y0 + Self.number(rect, "height")
            var outside = 0
            for y in 0..<frame.height {
                for x in 0..<frame.width
                where Double(x) + 1 <= x0 || Double(x) >= x1 || Double(y) + 1 <= y0 || Double(y) >= y1 {
                    let c = frame.rgba(x: x, y: y)
                    if c.r != 0 || c.g != 0 || c.b != 0 { outside += 1 }
                }
            }
            #expect(outside == 0, "frame \(k): \(outside) pixels drawn outside the view \(x0)..\(x1) x \(y0)..\(y1)")
        }
        // The pin in the middle of the image is drawn (red) in frame 1: clipping keeps what is inside.
        #expect(Self.red(Self.image(FileSystem.join(dir, "f1.png"))!).count > 0)
    }

    /// Defect 2: frame k at k/fps, progress = UIKit's ease-in-out at t/duration: 0 at 0,
    /// 0.5 at 0.1 s, 1 at exactly 0.2 s.
    @Test func timingFollowsUIKitsEaseInOut() {
        let dir = CLI.scratch()
        let orient = FileSystem.join(dir, "orient.png")
        #expect(CLI.run(["fixture", "orientation", "--size", "480x320", "-o", orient]).status == 0)
        let r = CLI.run([
            "animate", orient, "--screen", "390x844", "--from", "20,100,120,90", "--duration", "0.2", "--fps", "60",
            "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = Self.lines(r.stdout)
        #expect(json.count == 13)
        for (k, f) in json.enumerated() {
            let t = Self.number(f, "time")
            #expect(abs(t - Double(k) / 60) < 1e-6)
            #expect(abs(Self.number(f, "progress") - ReferenceBezier.easeInOut(t / 0.2)) < 1e-5, "frame \(k + 1)")
        }
        #expect(Self.number(json[0], "progress") == 0)
        #expect(Self.number(json[6], "time") == 0.1 && Self.number(json[6], "progress") == 0.5)
        #expect(Self.number(json[12], "time") == 0.2 && Self.number(json[12], "progress") == 1)
    }

    /// Defect 3: the dismiss is its own animation: time forward, ease-out stays ease-out,
    /// pins sized by the same rule as forward (the same at the rect, the same fullscreen).
    @Test func reverseIsTheDismissInForwardTime() {
        let dir = CLI.scratch()
        let white = FileSystem.join(dir, "white.png")
        #expect(CLI.run(["fixture", "solid", "--size", "400x300", "--fill", "white", "-o", white]).status == 0)
        let common = [
            "animate", white, "--screen", "400x300", "--from", "150,112.5,100,75", "--easing", "ease-out",
            "--marker", "200,150", "--pin-scale-range", "1,4", "--json",
        ]
        let f = CLI.run(common + ["-o", FileSystem.join(dir, "f%d.png")])
        let r = CLI.run(common + ["--reverse", "-o", FileSystem.join(dir, "r%d.png")])
        #expect(f.status == 0 && r.status == 0, "\(f.stderr) \(r.stderr)")
        let fj = Self.lines(f.stdout)
        let rj = Self.lines(r.stdout)
        #expect(fj.count == 13 && rj.count == 13)
        for k in 1..<rj.count { #expect(Self.number(rj[k], "time") > Self.number(rj[k - 1], "time")) }
        #expect(Self.number(rj[12], "time") == 0.2)
        #expect(abs(Self.number(rj[6], "progress") - ReferenceBezier.easeOut(0.5)) < 1e-5)
        #expect(Self.number(rj[0], "presented") == 1 && Self.number(rj[12], "presented") == 0)
        // Pins: at the rect both are the standard size; fullscreen (4x) both are too (in range).
        let sizes = [("f1", "r13"), ("f13", "r1")].map { a, b in
            (
                Self.red(Self.image(FileSystem.join(dir, "\(a).png"))!).box,
                Self.red(Self.image(FileSystem.join(dir, "\(b).png"))!).box
            )
        }
        for (a, b) in sizes {
            // (The same to a pixel: the tips fall at different sub-pixel positions.)
            #expect(
                a != nil && abs((a?.width ?? 0) - (b?.width ?? 0)) <= 1
                    && abs((a?.height ?? 0) - (b?.height ?? 0)) <= 1,
                "\(String(describing: a)) vs \(String(describing: b))")
            #expect((a?.width ?? 0) >= 12 && (a?.width ?? 0) <= 15)
        }
    }

    /// Defect 4: the last frame is `fit` with the same markers, pins included (byte for
    /// byte); defect 5: the zoom's last frame is the upright fullscreen (`fit --orientation portrait`).
    @Test(arguments: [
        ("landscape-left", "fit"), ("landscape-right", "fill"), ("upside-down", "fit"), ("portrait", "fill"),
    ])
    func restFramesAreFit(_ orientation: String, _ mode: String) {
        let dir = CLI.scratch()
        let pins = ["--marker", "800,450,Seed", "--marker", "300,700"]
        let r = CLI.run(
            [
                "animate", Self.photo, "--screen", "195x422", "--from", "10,60,60,45", "--orientation", orientation,
                "--mode", mode, "--fps", "20", "-o", FileSystem.join(dir, "a%02d.png"), "--json",
            ] + pins)
        #expect(r.status == 0, "\(r.stderr)")
        let json = Self.lines(r.stdout)
        let last = json.count
        #expect(
            CLI.run(
                [
                    "fit", Self.photo, "--screen", "195x422", "--orientation", orientation, "--mode", mode,
                    "-o", FileSystem.join(dir, "fit.png"),
                ] + pins
            ).status == 0)
        let a = Self.image(FileSystem.join(dir, String(format2: last)))
        let b = Self.image(FileSystem.join(dir, "fit.png"))
        #expect(a != nil && a == b, "frame \(last) differs from fit")
        #expect(Self.red(b!).count > 30)
        if orientation != "portrait" {
            // 0.2 s at 20 fps: frame 5 is the zoom's last, upright fullscreen.
            #expect(Self.number(json[4], "time") == 0.2 && Self.number(json[4], "rotation") == 0)
            #expect(
                CLI.run(
                    [
                        "fit", Self.photo, "--screen", "195x422", "--orientation", "portrait", "--mode", mode,
                        "-o", FileSystem.join(dir, "up.png"),
                    ] + pins
                ).status == 0)
            #expect(Self.image(FileSystem.join(dir, "a05.png")) == Self.image(FileSystem.join(dir, "up.png")))
            #expect(last == 1 + 4 + 5)  // 0.2 s + 0.25 s at 20 fps
        }
    }
}
