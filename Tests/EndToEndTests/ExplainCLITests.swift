import Foundation
import TestSupport
import Testing

@testable import FZSystem

/// `--explain` (issue 49 item 3): the heat map Pillow reads back is brightest at the map
/// pixel of the point the `where` record reports, and dimmer at its runner-up; the misuses
/// are usage errors. The input is drawn by Pillow: a red disc on a flat green-gray ground.
/// Adds about 2 s.
struct ExplainCLITests {
    static func picture() -> (dir: String, path: String) {
        let dir = CLI.scratch()
        let path = FileSystem.join(dir, "in.png")
        let draw =
            "from PIL import Image, ImageDraw; im = Image.new('RGB', (900, 600), (90, 110, 100)); d = ImageDraw.Draw(im); d.ellipse((600, 120, 700, 220), fill=(220, 40, 30)); d.rectangle((100, 400, 160, 440), fill=(120, 140, 130)); im.save('\(path)')"
        #expect(CLI.shell("\(CLI.python) -c \(CLI.quote(draw))") == 0)
        return (dir, path)
    }

    /// Read back by Pillow: the heat map's brightest block (by red + green + blue, which the
    /// palette makes the score; ties to the top-left) in map pixels, then for each upright
    /// point the most the map pixels its upright pixel spans hold.
    static func heat(_ path: String, at points: [(Double, Double)], map: (Int, Int), upright: (Int, Int)) -> [Int] {
        let list = points.map { "(\($0.0),\($0.1))" }.joined(separator: ",")
        let script = """
            import json, math, sys
            from PIL import Image
            im = Image.open(sys.argv[1]).convert('RGB')
            mw, mh, uw, uh = \(map.0), \(map.1), \(upright.0), \(upright.1)
            k = im.width // mw
            assert im.width == k * mw and im.height == k * mh, (im.size, k)
            v = lambda x, y: sum(im.getpixel((x * k, y * k)))
            best = max((v(x, y), -y, -x) for y in range(mh) for x in range(mw))
            def span(p, n, u):
                return range(int(math.floor(p * n / u)), min(n, int(math.floor((p + 1) * n / u)) + 1))
            near = [max(v(x, y) for x in span(px, mw, uw) for y in span(py, mh, uh)) for (px, py) in [\(list)]]
            top = sum(1 for y in range(mh) for x in range(mw) if v(x, y) == best[0])
            print(json.dumps([-best[2], -best[1], best[0]] + near + [top]))
            """
        let file = FileSystem.join(FileSystem.directory(of: path), "heat.py")
        CLI.write(file, Array(script.utf8))
        let out = CLI.shellOutput("\(CLI.python) \(CLI.quote(file)) \(CLI.quote(path))")
        return (try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [Int]) ?? []
    }

    static func number(_ v: JSONValue?) -> Double? {
        if case .number(let n)? = v { return n }
        return nil
    }

    @Test(arguments: [
        ["thumb", "in.png", "--size", "256x256", "--crop-at", "attention", "-o", "t.png", "--json"],
        ["thumb", "in.png", "--size", "256x256", "--crop-at", "entropy", "-o", "t.png", "--json"],
        ["crop", "in.png", "--at", "attention", "--size", "300", "-o", "c.png", "--json"],
        ["crop", "in.png", "--at", "entropy", "--size", "300", "-o", "c.png", "--json"],
    ])
    func theMapIsBrightestAtThePointChosen(_ command: [String]) throws {
        let (dir, _) = Self.picture()
        let r = CLI.run(command + ["--explain", "map.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        CLI.checkJSON(command, stdout: r.stdout)
        let record = try #require(JSONValue.object(r.stdout.split(separator: "\n").first ?? ""))
        guard case .object(let place)? = record["where"], case .object(let map)? = place["map"],
            case .object(let runner)? = place["runnerUp"]
        else {
            Issue.record("no where, map or runnerUp in \(r.stdout)")
            return
        }
        #expect(place["explain"] == .string("map.png"))
        let (mw, mh) = (Int(Self.number(map["width"]) ?? 0), Int(Self.number(map["height"]) ?? 0))
        let (x, y) = (Self.number(place["x"]) ?? -1, Self.number(place["y"]) ?? -1)
        let (rx, ry) = (Self.number(runner["x"]) ?? -1, Self.number(runner["y"]) ?? -1)
        let v = Self.heat(
            FileSystem.join(dir, "map.png"), at: [(x, y), (rx, ry)], map: (mw, mh), upright: (900, 600))
        try #require(v.count == 6, "heat map unread: \(v)")
        // The point's map pixel is the map's maximum; when no other place ties with it (an
        // entropy map has ties: the chooser takes the one nearest the centre), the brightest
        // block is there (the point is the box's centre cut to an upright pixel: within a map pixel).
        #expect(v[3] == 765, "the chosen place is the map's maximum: \(v)")
        let (sx, sy) = (Double(mw) / 900, Double(mh) / 600)
        if v[5] == 1 {
            #expect(abs(Double(v[0]) + 0.5 - (x + 0.5) * sx) <= 1.5, "argmax \(v) vs point \(x),\(y)")
            #expect(abs(Double(v[1]) + 0.5 - (y + 0.5) * sy) <= 1.5, "argmax \(v) vs point \(x),\(y)")
        }
        let (score, runnerScore) = (Self.number(place["score"]) ?? 0, Self.number(runner["score"]) ?? 0)
        #expect(runnerScore <= score)
        if runnerScore < score - 0.01 { #expect(v[4] < 765, "the runner-up is below it: \(v)") }
        #expect(rx != x || ry != y)
    }

    @Test func misusesAreUsageErrors() {
        let (dir, _) = Self.picture()
        for (args, says) in [
            (["thumb", "in.png", "--crop-at", "center", "--explain", "m.png"], "attention or"),
            (["thumb", "in.png", "--explain", "m.png"], "attention or"),
            (["thumb", "in.png", "--crop-at", "attention", "--explain", "m.jpg"], ".png"),
            (["thumb", "in.png", "in.png", "--crop-at", "attention", "--explain", "m.png"], "%s"),
            (["crop", "in.png", "--at", "10,10", "--explain", "m.png"], "attention or"),
            (["crop", "in.png", "--at", "attention", "--explain", "m.png", "--geometry-only"], "--geometry-only"),
        ] {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: FileSystem.join(dir, "m.png")))
    }

    /// With %s, one map per input, each named by its stem.
    @Test func oneMapPerInput() {
        let (dir, path) = Self.picture()
        #expect(CLI.shell("cp \(CLI.quote(path)) \(CLI.quote(FileSystem.join(dir, "b.png")))") == 0)
        let r = CLI.run(
            ["thumb", "in.png", "b.png", "--crop-at", "entropy", "--explain", "%s.map.png", "--out", "t", "-q"], in: dir
        )
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: FileSystem.join(dir, "in.map.png")))
        #expect(FileManager.default.fileExists(atPath: FileSystem.join(dir, "b.map.png")))
    }
}
