import Foundation
import TestSupport
import Testing

@testable import FZSystem

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// Issue 49 item 5: peek's r key on a pseudo-terminal (each saved peek is `crop --at
/// region:NAME` of the name the status line showed), a hostile file's names shown without
/// their escapes, and `view`/`frame --outline-regions` checked by Pillow at the rectangles'
/// edges. The files are RegionsCLITests' (exiftool writes MWG, Microsoft and IPTC regions).
/// Adds about 5 s (two ptys, a few small commands).
@Suite("Regions: peek and outlines", .enabled(if: haveExiftool, "needs exiftool (libimage-exiftool-perl); skipped"))
struct RegionPeekCLITests {
    /// info --json's regions of `path`: name and rect (x, y, width, height).
    static func regions(_ path: String) -> [(name: String, rect: [Int])] {
        let r = CLI.run(["info", "--json", path])
        guard case .array(let list)? = JSONValue.object(r.stdout)?["regions"] else { return [] }
        return list.compactMap { item in
            guard case .object(let o) = item, case .string(let name)? = o["name"], case .object(let rect)? = o["rect"]
            else { return nil }
            let v = ["x", "y", "width", "height"].compactMap { key -> Int? in
                if case .number(let n)? = rect[key] { return Int(n) }
                return nil
            }
            return (name, v)
        }
    }

    /// Pillow's RGB at each (x, y) of `path`.
    static func pixels(_ path: String, _ points: [(Int, Int)]) -> [[Int]] {
        let list = points.map { "(\($0.0),\($0.1))" }.joined(separator: ",")
        let out = CLI.shellOutput(
            "\(CLI.python) -c 'import json,sys; from PIL import Image; im=Image.open(sys.argv[1]).convert(\"RGB\"); print(json.dumps([list(im.getpixel(p)) for p in [\(list)]]))' \(CLI.quote(path))"
        )
        return (try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[Int]]) ?? []
    }

    static let yellow = [255, 214, 0]

    /// Each region's box at `scale`, offset by (dx, dy): the middles of its four edges
    /// (inside the stroke) and a pixel just outside its bottom edge.
    static func edges(_ rect: [Int], scale: Double, dx: Double = 0, dy: Double = 0) -> (
        on: [(Int, Int)], off: (Int, Int)
    ) {
        func v(_ a: Int, _ o: Double) -> Int { Int((Double(a) * scale + o).rounded()) }
        let (x0, y0, x1, y1) = (v(rect[0], dx), v(rect[1], dy), v(rect[0] + rect[2], dx), v(rect[1] + rect[3], dy))
        let (mx, my) = ((x0 + x1) / 2, (y0 + y1) / 2)
        return ([(x0, my), (x1 - 1, my), (mx, y1 - 1), (x0 + 1, my), (mx, y1 - 2)], (mx, y1 + 1))
    }

    @Test func peekJumpsToEachRegionAndSavesItsCrop() throws {
        let image = try #require(RegionsCLITests.tagged(1))
        let dir = FileSystem.directory(of: image)
        let names = Self.regions(image).map(\.name)
        #expect(names.count == 4, "\(names)")
        let pattern = FileSystem.join(dir, "p-%d.png")
        let (report, output) = TerminalCLITests.onPTY(
            ["peek", image, "--graphics", "blocks", "--size", "64", "-o", pattern],
            keys: ["r", "s", "r", "s", "R", "q"])
        #expect(report["status"] == .number(0), "\(report)")
        let text = String(decoding: output, as: UTF8.self)
        for (i, name) in names.prefix(2).enumerated() {
            #expect(text.contains("region \(i + 1)/4 \(name)"), "the status line names \(name)")
            let reference = FileSystem.join(dir, "crop-\(i).png")
            let crop = CLI.run(["crop", image, "--at", "region:\(name)", "--size", "64", "-o", reference])
            #expect(crop.status == 0, "\(crop.stderr)")
            #expect(TerminalCLITests.pixelsEqual(reference, FileSystem.join(dir, "p-\(i + 1).png")), "\(name)")
        }
    }

    @Test func peekShowsHostileNamesWithoutTheirEscapes() {
        let file = FileSystem.join(CLI.root, "Fixtures/hostile/regions-escapes.png")
        let (report, output) = TerminalCLITests.onPTY(
            ["peek", file, "--graphics", "blocks"],
            keys: [
                "r", "@await:1:region 1/4 esctitle", "r", "@await:1:region 2/4 red", "r", "r",
                "@await:1:region 4/4 tab and newline", "q",
            ])
        #expect(report["status"] == .number(0), "\(report)")
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("region 1/4 esctitle") && text.contains("region 2/4 red"), "\(text.suffix(400))")
        #expect(text.contains("region 4/4 tab and newline"), "\(text.suffix(400))")
        // The OSC title, the names' SGR red and BEL never reach the terminal.
        #expect(!text.contains("owned") && !text.contains("\u{1B}[31m") && !text.contains("\u{07}"))
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E })
    }

    @Test func viewOutlinesRegionsAtOneToOne() throws {
        let image = try #require(RegionsCLITests.tagged(1))
        let dir = FileSystem.directory(of: image)
        let r = CLI.run(["view", image, "--outline-regions", "--graphics", "kitty"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        var base64 = ""
        for part in r.stdout.components(separatedBy: "\u{1B}\\") where part.hasPrefix("\u{1B}_G") {
            base64 += part.split(separator: ";", maxSplits: 1).last.map(String.init) ?? ""
        }
        let shown = FileSystem.join(dir, "shown.png")
        try #require(Data(base64Encoded: base64)).write(to: URL(fileURLWithPath: shown))
        let plain = FileSystem.join(dir, "plain.png")
        try #require(Data(base64Encoded: Self.kittyPayload(CLI.run(["view", image, "--graphics", "kitty"]).stdout)))
            .write(to: URL(fileURLWithPath: plain))
        let regions = Self.regions(image)
        #expect(regions.count == 4)
        for region in regions {
            let (on, off) = Self.edges(region.rect, scale: 1)
            #expect(Self.pixels(shown, on) == Array(repeating: Self.yellow, count: on.count), "\(region)")
            // Outside the stroke the picture is as view shows it without outlines.
            #expect(Self.pixels(shown, [off]) == Self.pixels(plain, [off]), "\(region)")
        }
    }

    static func kittyPayload(_ stdout: String) -> String {
        var base64 = ""
        for part in stdout.components(separatedBy: "\u{1B}\\") where part.hasPrefix("\u{1B}_G") {
            base64 += part.split(separator: ";", maxSplits: 1).last.map(String.init) ?? ""
        }
        return base64
    }

    /// frame's view at twice the size: each region's box at scale 2 in the written file.
    @Test func frameOutlinesRegionsOnItsView() {
        guard let image = RegionsCLITests.tagged(6) else {
            Issue.record("no tagged file")
            return
        }
        let dir = FileSystem.directory(of: image)
        let r = CLI.run(
            ["frame", image, "--view", "480x320", "--at", "region:Alice", "--outline-regions", "-o", "f.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let plain = CLI.run(["frame", image, "--view", "480x320", "--at", "region:Alice", "-o", "g.png"], in: dir)
        #expect(plain.status == 0)
        let regions = Self.regions(image)
        #expect(regions.count == 4)
        for region in regions {
            let (on, off) = Self.edges(region.rect, scale: 2)
            #expect(
                Self.pixels(FileSystem.join(dir, "f.png"), on) == Array(repeating: Self.yellow, count: on.count),
                "\(region)")
            #expect(
                Self.pixels(FileSystem.join(dir, "f.png"), [off]) == Self.pixels(FileSystem.join(dir, "g.png"), [off]))
        }
    }
}
