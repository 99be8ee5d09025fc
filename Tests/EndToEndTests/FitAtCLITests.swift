import Foundation
import TestSupport
import Testing

@testable import FZSystem

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// `fit --mode fill --at` and `animate --at` (issue 49 item 2): the fill keeps the place in
/// the middle (shifted no further than the image's edges), `--at region:NAME` is `--at` the
/// region's centre, the record says where; the misuses are usage errors. The file is
/// RegionsCLITests' (240x160, Carol's IPTC region at 120,96 60x32: centre 150,112). Adds about 2 s.
@Suite("fit and animate --at", .enabled(if: haveExiftool, "needs exiftool (libimage-exiftool-perl); skipped"))
struct FitAtCLITests {
    static func numbers(_ v: JSONValue?) -> [Double] {
        if case .array(let a)? = v {
            return a.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
        }
        if case .object(let o)? = v {
            return ["x", "y", "width", "height"].compactMap { k in
                if case .number(let n)? = o[k] { return n } else { return nil }
            }
        }
        return []
    }

    @Test func fitFillKeepsTheRegionInTheMiddle() throws {
        let image = try #require(RegionsCLITests.tagged(1))
        let dir = FileSystem.directory(of: image)
        // 80x80 fill of 240x160: scale 0.5, 160x160 of the image shown; Carol's centre x 150
        // puts the window at 70...230 (inside the image: no clamping).
        let r = CLI.run(
            ["fit", image, "--screen", "80x80", "--mode", "fill", "--at", "region:Carol", "-o", "a.png", "--json"],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        CLI.checkJSON(["fit"], stdout: r.stdout)
        let record = try #require(JSONValue.object(r.stdout))
        let visible = Self.numbers(record["visibleImageRect"])
        try #require(visible.count == 4, "\(r.stdout)")
        #expect(abs(visible[0] + visible[2] / 2 - 150) <= 1.5, "\(visible)")
        if case .object(let place)? = record["where"] {
            #expect(place["name"] == .string("Carol"))
        } else {
            Issue.record("no where: \(r.stdout)")
        }
        // The same as the point given as numbers (the region's centre).
        let p = CLI.run(
            ["fit", image, "--screen", "80x80", "--mode", "fill", "--at", "150,112", "-o", "b.png"], in: dir)
        #expect(p.status == 0)
        #expect(TerminalCLITests.pixelsEqual(FileSystem.join(dir, "a.png"), FileSystem.join(dir, "b.png")))
        // A point near the edge: the window stops at the image's edge.
        let edge = CLI.run(["fit", image, "--screen", "80x80", "--mode", "fill", "--at", "239,0", "--json"], in: dir)
        let e = Self.numbers(JSONValue.object(edge.stdout)?["visibleImageRect"])
        #expect(e.count == 4 && abs(e[0] + e[2] - 240) < 0.01, "\(edge.stdout)")
    }

    @Test func animateFillKeepsTheRegionInTheMiddle() throws {
        let image = try #require(RegionsCLITests.tagged(1))
        let dir = FileSystem.directory(of: image)
        let r = CLI.run(
            [
                "animate", image, "--screen", "80x80", "--from", "0,0,20,20", "--frames", "4", "--at", "region:Carol",
                "--json",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        CLI.checkJSON(["animate"], stdout: r.stdout)
        let lines = r.stdout.split(separator: "\n").compactMap { JSONValue.object($0) }
        try #require(lines.count == 4)
        for line in lines {
            guard case .object(let place)? = line["where"] else {
                Issue.record("no where in \(line)")
                continue
            }
            #expect(place["name"] == .string("Carol"))
            // Every frame's transform puts Carol's centre (the pixel's centre) in the view's middle.
            let t = Self.numbers(line["transform"])
            let rect = Self.numbers(line["rect"])
            try #require(t.count == 6 && rect.count == 4)
            let (x, y) = (150.5, 112.5)
            let mapped = (t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5])
            // Vertically the 160-pixel image fills the view exactly: no room to move it.
            #expect(abs(mapped.0 - (rect[0] + rect[2] / 2)) <= 1, "\(line)")
        }
    }

    @Test func misusesAreUsageErrors() throws {
        let image = try #require(RegionsCLITests.tagged(1))
        let dir = FileSystem.directory(of: image)
        for (args, says) in [
            (["fit", image, "--screen", "80x80", "--at", "region:Carol", "-o", "x.png"], "--mode fill"),
            (
                [
                    "animate", image, "--screen", "80x80", "--from", "0,0,20,20", "--mode", "fit", "--at", "1,1",
                    "--json",
                ], "--mode fit"
            ),
            (["animate", image, "--screen", "80x80", "--bounce", "--at", "1,1", "--json"], "--at"),
            (["fit", image, "--screen", "80x80", "--mode", "fill", "--at", "region:NOPE", "-o", "x.png"], "Carol"),
        ] {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r.stderr)")
        }
    }
}
