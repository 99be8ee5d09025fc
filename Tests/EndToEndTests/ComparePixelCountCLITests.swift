import TestSupport
import Testing

@testable import FZSystem

/// `compare --metric ae / pixelmatch`: the counts against the tools that define them,
/// asked by Tools/testkit/compare_counts.py on pairs it writes (noise, anti-aliased shapes
/// moved a quarter pixel and six, every step of 0-60 levels, RGBA, gray; each also with a
/// masked rectangle): ImageMagick's `compare -metric AE -fuzz` and PyPI's `pixelmatch` with
/// its threshold and includeAA. Then the thresholds as counts and ratios, and the
/// pixelmatch picture against pixelmatch's own, pixel for pixel.
@Suite("compare pixel counts")
struct ComparePixelCountCLITests {
    static let made: (dir: String, expected: [[String: JSONValue]]) = {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/testkit/compare_counts.py")
        let code = CLI.shell("\(CLI.python) \(CLI.quote(script)) \(CLI.quote(dir)) > \(CLI.quote(dir))/log.txt 2>&1")
        let lines = code == 0 ? CLI.read(FileSystem.join(dir, "expected.jsonl")).split(separator: "\n") : []
        return (dir, lines.compactMap { JSONValue.object(String($0)) })
    }()

    static func requireReference() throws -> String {
        let (dir, expected) = made
        try #require(
            expected.count >= 100,
            "ImageMagick's compare, numpy, Pillow and pip's pixelmatch are needed for /usr/bin/python3 (make deps): \(CLI.read(FileSystem.join(dir, "log.txt")))"
        )
        return dir
    }

    static func strings(_ v: JSONValue?) -> [String] {
        guard case .array(let items)? = v else { return [] }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    @Test func countsEqualImageMagicksAndPixelmatchs() throws {
        let dir = try Self.requireReference()
        var checked = Set<String>()
        for want in Self.made.expected {
            let pair = Self.strings(want["pair"])
            let args = Self.strings(want["args"])
            try #require(pair.count == 2 && !args.isEmpty)
            let label = "\(pair[0]) \(args.joined(separator: " ")) (\(want["by"].map { "\($0)" } ?? ""))"
            let r = CLI.run(["compare"] + pair + args + ["--json"], in: dir)
            let got = try #require(JSONValue.object(r.stdout), "\(label): \(r)")
            #expect(got["differentPixels"] == want["count"], "\(label): \(r.stdout)")
            // The exit code is the default threshold's verdict: any differing pixel fails.
            #expect(r.status == (want["count"] == .number(0) ? 0 : 1), "\(label): \(r.stderr)")
            // The text output prints the same count (checked on the plain cases: each run costs).
            guard args.count == 2 else {
                checked.insert(args[1])
                continue
            }
            let text = CLI.run(["compare"] + pair + args + ["--threshold", "100000"], in: dir)
            if case .number(let n)? = want["count"] {
                #expect(text.status == 0 && text.stdout == "\(Int(n))\n", "\(label): \(text)")
            }
            checked.insert(args[1])
        }
        #expect(checked == ["ae", "pixelmatch"])
    }

    /// A count threshold passes at the count and fails below it; a ratio threshold at the
    /// count's share of the pixels, as jest-image-snapshot's percent type compares it.
    @Test func thresholdsAsCountsAndRatios() throws {
        let dir = try Self.requireReference()
        let want = try #require(
            Self.made.expected.first {
                Self.strings($0["pair"]).first == "noise-a.png" && Self.strings($0["args"]) == ["--metric", "ae"]
            })
        guard case .number(let n)? = want["count"] else { throw CountMissing() }
        let count = Int(n)
        let pixels = 64 * 48
        let percent = Double(count) * 100 / Double(pixels)
        for (threshold, status) in [
            ("\(count)", 0), ("\(count - 1)", 1), ("\(percent + 0.01)%", 0), ("\(percent - 0.01)%", 1), ("100%", 0),
        ] {
            let r = CLI.run(
                ["compare", "noise-a.png", "noise-b.png", "--metric", "ae", "--threshold", threshold], in: dir)
            #expect(r.status == Int32(status), "--threshold \(threshold): \(r)")
            let j = CLI.run(
                ["compare", "noise-a.png", "noise-b.png", "--metric", "ae", "--threshold", threshold, "--json"], in: dir
            )
            let o = try #require(JSONValue.object(j.stdout))
            #expect(o["match"] == .bool(status == 0) && o["pass"] == .bool(status == 0), "\(j.stdout)")
            #expect(o["thresholdType"] == .string(threshold.hasSuffix("%") ? "ratio" : "value"))
            #expect(o["differentRatio"] == .number((Double(count) / Double(pixels) * 1e6).rounded() / 1e6))
        }
    }

    /// --diff with --metric pixelmatch is pixelmatch's own picture (its alpha is 255
    /// everywhere; forcezoom writes RGB), compared by Pillow.
    @Test(arguments: ["edges", "alpha"])
    func pixelmatchPictureIsPixelmatchs(_ name: String) throws {
        let dir = try Self.requireReference()
        let r = CLI.run(
            ["compare", "\(name)-a.png", "\(name)-b.png", "--metric", "pixelmatch", "--diff", "\(name)-ours.png"],
            in: dir)
        #expect(r.status == 1, "\(r)")
        let out = ColorCLITests.python(
            """
            from PIL import Image
            ours = Image.open('\(name)-ours.png')
            theirs = Image.open('\(name)-pixelmatch.png')
            assert theirs.mode == 'RGBA' and set(theirs.getdata(3)) == {255}
            print(ours.mode, ours.size == theirs.size, ours.convert('RGBA').tobytes() == theirs.tobytes())
            colours = set(theirs.convert('RGB').getdata())
            print((255, 0, 0) in colours, '\(name)' != 'edges' or (255, 255, 0) in colours)
            """, in: dir)
        #expect(out == "RGB True True\nTrue True\n", "\(out)")
    }

    /// --diff with --metric ae marks the pixels the count counts (ImageMagick's highlight
    /// with the same fuzz): as many red pixels as ImageMagick's count, read by Pillow.
    @Test func aePictureMarksWhatItCounts() throws {
        let dir = try Self.requireReference()
        let want = try #require(
            Self.made.expected.first {
                Self.strings($0["pair"]).first == "noise-a.png"
                    && Self.strings($0["args"]) == ["--metric", "ae", "--fuzz", "12.5%"]
            })
        let r = CLI.run(
            ["compare", "noise-a.png", "noise-b.png", "--metric", "ae", "--fuzz", "12.5%", "--diff", "ae-ours.png"],
            in: dir)
        #expect(r.status == 1, "\(r)")
        let out = ColorCLITests.python(
            """
            from PIL import Image
            d = Image.open('ae-ours.png').convert('RGB')
            print(sum(1 for r, g, b in d.getdata() if r > 180 and g < 60))
            """, in: dir)
        guard case .number(let n)? = want["count"] else { throw CountMissing() }
        #expect(out == "\(Int(n))\n", "\(out)")
    }

    struct CountMissing: Error {}
}
