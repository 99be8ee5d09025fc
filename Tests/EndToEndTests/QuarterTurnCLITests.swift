import TestSupport
import Testing

@testable import FZSystem

/// `transform --rotate` by quarter turns moves pixels and nothing else: with a --canvas of
/// the turned size (issue 29 saw 3% background at `--rotate 90 --canvas 320x480` of a
/// 480x320 image) or the default bounding box, for every filter, the output equals
/// Pillow's `Image.transpose` of the input pixel for pixel. --rotate is clockwise on
/// screen; Pillow's ROTATE_90 is anticlockwise, so --rotate 90 is ROTATE_270.
@Suite(.serialized)
struct QuarterTurnCLITests {
    /// Inputs made once: the 480x320 of the issue and an odd size (centred on half pixels).
    static let dir: String = {
        let dir = CLI.scratch()
        _ = CLI.run(["fixture", "noise", "--size", "480x320", "-o", FileSystem.join(dir, "even.png")])
        _ = CLI.run(["fixture", "coords", "--size", "481x321", "-o", FileSystem.join(dir, "odd.png")])
        return dir
    }()

    /// --rotate value, and Pillow's transpose that turns the same way.
    static let turns: [(String, String)] = [
        ("90", "ROTATE_270"), ("-90", "ROTATE_90"), ("180", "ROTATE_180"), ("270", "ROTATE_90"), ("-270", "ROTATE_270"),
        ("450", "ROTATE_270"), ("-180", "ROTATE_180"),
    ]

    @Test(arguments: ["even.png", "odd.png"])
    func quarterTurnsEqualPillowsTranspose(_ input: String) throws {
        #expect(
            CLI.shell("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0,
            "Pillow is needed: apt-get install python3-pil (make deps)")
        let (w, h) = input == "even.png" ? (480, 320) : (481, 321)
        var lines: [String] = []
        var n = 0
        for (degrees, pillow) in Self.turns {
            let quarter = degrees != "180" && degrees != "-180"
            let canvas = quarter ? "\(h)x\(w)" : "\(w)x\(h)"
            for filter in ["nearest", "bilinear", "bicubic", "lanczos"] {
                for withCanvas in [true, false] {
                    n += 1
                    let out = "out\(n).png"
                    var args = ["transform", input, "--rotate=\(degrees)", "--filter", filter, "-o", out]
                    if withCanvas { args += ["--canvas", canvas] }
                    let r = CLI.run(args, in: Self.dir)
                    try #require(r.status == 0, "\(args): \(r.stderr)")
                    lines.append("check('\(out)', '\(pillow)', '\(args.joined(separator: " "))')")
                }
            }
        }
        // One Python run for all outputs: each must be the transpose, every pixel opaque.
        let script =
            "import sys\nfrom PIL import Image\n"
            + "src = Image.open('\(input)').convert('RGBA')\nbad = 0\n"
            + "def check(out, how, label):\n"
            + "    global bad\n"
            + "    want = src.transpose(getattr(Image.Transpose, how))\n"
            + "    got = Image.open(out).convert('RGBA')\n"
            + "    if got.size != want.size:\n"
            + "        print(label, 'size', got.size, 'want', want.size); bad += 1; return\n"
            + "    g, w = got.tobytes(), want.tobytes()\n"
            + "    off = sum(1 for i in range(0, len(g), 4) if g[i:i + 4] != w[i:i + 4])\n"
            + "    if off: print(label, off, 'of', got.size[0] * got.size[1], 'pixels differ'); bad += 1\n"
            + lines.joined(separator: "\n") + "\nsys.exit(1 if bad else 0)\n"
        CLI.write(FileSystem.join(Self.dir, "check.py"), Array(script.utf8))
        let report = FileSystem.join(Self.dir, "report.txt")
        let code = CLI.shell("cd \(CLI.quote(Self.dir)) && /usr/bin/python3 check.py > \(CLI.quote(report)) 2>&1")
        #expect(code == 0, "\(CLI.read(report))")
    }
}
