import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom compare`: its numbers against numpy's (Tools/testkit/compare_reference.py
/// writes the pairs itself, with zlib, and computes every metric from the arrays), its
/// exit codes, its size rule, its difference picture (read back by Pillow) and its JSON
/// against docs/json/compare.schema.json.
@Suite("compare")
struct CompareCLITests {
    /// The pairs and their expected metrics, made once.
    static let made: (dir: String, lines: [String]) = {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/testkit/compare_reference.py")
        let code = CLI.shell("python3 \(CLI.quote(script)) \(CLI.quote(dir)) > \(CLI.quote(dir))/log.txt 2>&1")
        let lines = code == 0 ? CLI.read(FileSystem.join(dir, "expected.jsonl")).split(separator: "\n") : []
        return (dir, lines.map(String.init))
    }()

    static var reference: (dir: String, expected: [[String: JSONValue]]) {
        (made.dir, made.lines.compactMap { JSONValue.object($0) })
    }

    static func number(_ v: JSONValue?) -> Double? {
        switch v {
        case .number(let d)?: return d
        case .string("inf")?: return .infinity
        default: return nil
        }
    }

    @Test func metricsEqualNumpys() throws {
        let (dir, expected) = Self.reference
        try #require(
            expected.count == 6,
            "python3 with numpy is needed (apt-get install python3-numpy): \(CLI.read(FileSystem.join(dir, "log.txt")))"
        )
        for want in expected {
            guard case .string(let name)? = want["name"] else { continue }
            let r = CLI.run(["compare", "\(name)-a.png", "\(name)-b.png", "--json"], in: dir)
            try #require(r.status == 0, "\(name): \(r.stderr)")
            let got = try #require(JSONValue.object(r.stdout), "\(name): \(r.stdout)")
            #expect(got["channels"] == want["channels"], "\(name)")
            #expect(got["pae"] == want["pae"], "\(name): pae")
            let (gp, wp) = (Self.number(got["psnr"]), Self.number(want["psnr"]))
            #expect(
                gp != nil && wp != nil && (gp == wp || abs(gp! - wp!) < 0.01),
                "\(name): psnr \(String(describing: gp)) vs \(String(describing: wp))")
            #expect(abs((Self.number(got["mae"]) ?? -9) - (Self.number(want["mae"]) ?? 9)) < 1e-5, "\(name): mae")
            #expect(abs((Self.number(got["mse"]) ?? -9) - (Self.number(want["mse"]) ?? 9)) < 1e-5, "\(name): mse")
            if want["ssim"] == .null {
                #expect(got["ssim"] == .null, "\(name): ssim under 11x11")
            } else {
                let (gs, ws) = (Self.number(got["ssim"]), Self.number(want["ssim"]))
                #expect(
                    gs != nil && ws != nil && abs(gs! - ws!) < 1e-5,
                    "\(name): ssim \(String(describing: gs)) vs \(String(describing: ws))")
            }
        }
    }

    @Test func textAndThresholds() throws {
        let dir = Self.reference.dir
        try #require(!Self.reference.expected.isEmpty)
        let same = CLI.run(["compare", "identical-a.png", "identical-b.png"], in: dir)
        #expect(same.status == 0 && same.stdout == "inf\n", "\(same)")
        // rgb: psnr 36.49, pae 173, mae 2.40, ssim 0.963.
        for (args, status) in [
            (["--threshold", "36"], 0), (["--threshold", "37"], 1),
            (["--metric", "pae", "--threshold", "173"], 0), (["--metric", "pae", "--threshold", "172"], 1),
            (["--metric", "mae", "--threshold", "2.5"], 0), (["--metric", "mae", "--threshold", "2.3"], 1),
            (["--metric", "ssim", "--threshold", "0.96"], 0), (["--metric", "ssim", "--threshold", "0.97"], 1),
        ] {
            let r = CLI.run(["compare", "rgb-a.png", "rgb-b.png"] + args, in: dir)
            #expect(r.status == Int32(status), "\(args): \(r)")
            #expect(r.stdout.split(separator: "\n").count == 1, "\(args): one value printed")
            if status == 1 {
                #expect(r.stderr.contains("--threshold") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            }
        }
        let pae = CLI.run(["compare", "rgb-a.png", "rgb-b.png", "--metric", "pae"], in: dir)
        #expect(pae.stdout == "173\n")
        let tiny = CLI.run(["compare", "tiny-a.png", "tiny-b.png", "--metric", "ssim"], in: dir)
        #expect(tiny.status == 2 && tiny.stderr.contains("11x11"), "\(tiny)")
    }

    @Test func sizesMustMatch() throws {
        let dir = Self.reference.dir
        try #require(!Self.reference.expected.isEmpty)
        // rgb is 67x53; mixed-a is its top-left 40x30.
        let r = CLI.run(["compare", "rgb-a.png", "mixed-a.png"], in: dir)
        #expect(
            r.status == 3 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("--crop-to-smaller"),
            "\(r)")
        let cut = CLI.run(["compare", "rgb-a.png", "mixed-a.png", "--crop-to-smaller", "--json"], in: dir)
        let o = try #require(JSONValue.object(cut.stdout), "\(cut)")
        #expect(o["psnr"] == .string("inf") && o["pae"] == .number(0))
        #expect(o["comparedSize"] == .object(["width": .number(40), "height": .number(30)]))
    }

    @Test(arguments: [
        ["a.png", "-", "--icc", "strip"], ["-", "-"], ["a.png", "b.png", "--threshold", "300", "--metric", "pae"],
        ["a.png", "b.png", "--metric", "rmse"], ["a.png", "b.png", "--diff", "-"], ["a.png"],
    ])
    func usageIsExitTwo(_ args: [String]) {
        let r = CLI.run(["compare"] + args)
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1, "\(args): \(r)")
    }

    /// Upright and the same: a JPEG stored turned with EXIF 6 equals its upright twin.
    @Test func orientationIsApplied() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        for (o, name) in [("1", "up.png"), ("6", "six.png"), ("8", "eight.png")] {
            let r = CLI.run(["fixture", "coords", "--size", "64x48", "--exif-orientation", o, "-o", name], in: dir)
            try #require(r.status == 0, "\(r.stderr)")
        }
        for other in ["six.png", "eight.png"] {
            let r = CLI.run(["compare", "up.png", other, "--metric", "pae"], in: dir)
            #expect(r.status == 0 && r.stdout == "0\n", "\(other): \(r)")
        }
    }

    /// The difference picture, read by Pillow: red where any sample differs, pale elsewhere.
    @Test func diffMarksDifferences() throws {
        let dir = Self.reference.dir
        try #require(!Self.reference.expected.isEmpty)
        let r = CLI.run(["compare", "rgba-a.png", "rgba-b.png", "--diff", "diff-rgba.png"], in: dir)
        try #require(r.status == 0, "\(r)")
        let out = ColorCLITests.python(
            """
            from PIL import Image
            a, b = Image.open('rgba-a.png'), Image.open('rgba-b.png')
            d = Image.open('diff-rgba.png').convert('RGB')
            bad = 0
            for y in range(a.size[1]):
                for x in range(a.size[0]):
                    differs = a.getpixel((x, y)) != b.getpixel((x, y))
                    r, g, bl = d.getpixel((x, y))
                    red = r > 180 and g < 60
                    pale = min(r, g, bl) >= 200
                    if (differs and not red) or (not differs and not pale): bad += 1
            print(d.size, bad)
            """, in: dir)
        #expect(out == "(40, 30) 0\n", "\(out)")
    }

    @Test func jsonFollowsItsSchema() throws {
        let dir = Self.reference.dir
        try #require(!Self.reference.expected.isEmpty)
        guard CLI.canCheckJSON else { return }  // checked where installed
        var lines: [String] = []
        for (name, extra) in [
            ("rgb", ["--threshold", "30"]), ("identical", ["--diff", "d.png"]), ("tiny", []),
            ("mixed", ["--icc", "srgb"]),
        ] {
            let r = CLI.run(["compare", "\(name)-a.png", "\(name)-b.png", "--json"] + extra, in: dir)
            try #require(r.status == 0, "\(r)")
            lines.append(r.stdout)
        }
        CLI.write(FileSystem.join(dir, "records.jsonl"), Array(lines.joined().utf8))
        let problem = CLI.jsonProblem(file: FileSystem.join(dir, "records.jsonl"), command: "compare")
        #expect(problem == nil, "\(problem ?? "")")
    }
}
