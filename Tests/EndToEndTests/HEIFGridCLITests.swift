import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// HEIF grids through the built binary: multi-point crops from the tiles they touch equal
/// heif-convert's whole decode, `info` shows the grid, broken grids are one line and exit 1
/// (files from Tools/heicgrid/make-grids.sh).
@Suite(.serialized)
struct HEIFGridCLITests {
    static let dir = CLI.scratch()
    static func file(_ name: String) -> String { FileSystem.join(CLI.root, ".cache/heicgrid/\(name)") }

    static func reference(_ name: String) throws -> Image {
        var o = DecodeOptions()
        o.autoOrient = false
        return try ImageReader(path: file(name), options: o).readImage()
    }

    /// Two --at points on a turned, mirrored, cropped grid: each output is the reference's square.
    @Test(arguments: ["clap-90.heic", "orient-270-1.heic", "alpha.heic"])
    func multiPointCropsEqualHeifConvert(_ name: String) throws {
        let pattern = FileSystem.join(Self.dir, "\(name)-%d.png")
        let r = CLI.run([
            "crop", Self.file(name), "--at", "10%,10%", "--at", "90%,80%", "--size", "30", "-o", pattern, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let reference = try Self.reference(name.replacing(".heic", with: ".ref.png"))
        for (i, line) in lines.enumerated() {
            let json = try #require(JSONValue.object(line))
            guard case .object(let c)? = json["cropRect"], case .number(let x)? = c["x"], case .number(let y)? = c["y"]
            else {
                Issue.record("no cropRect in \(line)")
                continue
            }
            let crop = try ImageReader(path: FileSystem.join(Self.dir, "\(name)-\(i + 1).png")).readImage()
            let want = reference.cropped(to: PixelRect(x: Int(x), y: Int(y), width: 30, height: 30)).converted(
                to: crop.format)
            #expect(FormatsCLITests.maxDifference(crop, want) == 0, "\(name) point \(i + 1)")
        }
    }

    /// The memory budget judges what a grid's decode holds (a band of tiles), not its canvas:
    /// a 1000x760 grid whose whole decode needs about 6 MiB thumbnails and crops within 1 MiB.
    @Test func gridsDecodeWithinABudgetSmallerThanTheirCanvas() throws {
        let out = FileSystem.join(Self.dir, "wide")
        let t = CLI.run(["thumb", Self.file("wide.heic"), "--size", "64", "--max-memory", "1", "--out", out, "--quiet"])
        #expect(t.status == 0, "\(t.stderr)")
        let thumb = try ImageReader(path: FileSystem.join(out, "wide.thumb.png")).readImage()
        #expect(thumb.size == PixelSize(width: 64, height: 49))
        let crop = FileSystem.join(Self.dir, "wide-crop.png")
        let c = CLI.run([
            "crop", Self.file("wide.heic"), "--at", "500,380", "--size", "100", "--max-memory", "1", "-o", crop,
        ])
        #expect(c.status == 0, "\(c.stderr)")
        let want = try Self.reference("wide.ref.png").cropped(to: PixelRect(x: 450, y: 330, width: 100, height: 100))
        #expect(FormatsCLITests.maxDifference(try ImageReader(path: crop).readImage(), want) == 0)
    }

    /// 16-bit crops of 10- and 12-bit grids (at a tile corner, and across tile edges under a
    /// 1 MiB budget that the whole 16-bit decode of the 1000x760 grid exceeds) and a quarter
    /// turn (the whole image streamed at 16 bits), checked with pypng against heif-convert's
    /// 16-bit PNG: it shifts the samples left (v << (16 - bits)), forcezoom widens them,
    /// (v * 65535 + max / 2) / max, so each output sample is the reference's shifted back and widened.
    @Test(arguments: [
        ("deep.heic", 10, ["crop", "--at", "64,64", "--size", "40"], "ref[44 + y][44 * 3 + x]"),
        (
            "deep12.heic", 12, ["crop", "--at", "380,500", "--size", "100", "--max-memory", "1"],
            "ref[450 + y][330 * 3 + x]"
        ),
        ("deep.heic", 10, ["transform", "--rotate", "90"], "ref[H - 1 - x // 3][(y * 3) + x % 3]"),
    ])
    func sixteenBitReadsOfDeepGridsEqualHeifConvert(_ name: String, _ bits: Int, _ args: [String], _ at: String)
        throws
    {
        let dir = CLI.scratch()
        let out = FileSystem.join(dir, "d.png")
        let r = CLI.run([args[0], Self.file(name)] + args.dropFirst() + ["--depth", "16", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let report = DepthCLITests.pypng(
            """
            w, h, ref, _ = read('\(Self.file(name.replacing(".heic", with: ".ref.png")))')
            W, H, out, info = read('d.png')
            assert info['bitdepth'] == 16, info
            m = (1 << \(bits)) - 1
            def widen(v):
                assert v % (1 << (16 - \(bits))) == 0, v
                return ((v >> (16 - \(bits))) * 65535 + m // 2) // m
            H = h
            bad = [(x, y) for y in range(len(out)) for x in range(len(out[0])) if out[y][x] != widen(\(at))]
            assert not bad, (len(bad), bad[:4])
            print('ok', W, H)
            """, in: dir)
        #expect(report.hasPrefix("ok"), "\(name) \(args): \(report)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    @Test func infoShowsTheGrid() throws {
        let text = CLI.run(["info", Self.file("p3.heic")])
        #expect(text.status == 0)
        #expect(text.stdout.contains("HEVC grid of 4x3 tiles of 64x64"), "\(text.stdout)")
        let r = CLI.run(["info", "--json", Self.file("p3.heic")])
        let json = try #require(JSONValue.object(r.stdout))
        #expect(json["gridTiles"] == .number(12))
        #expect(json["gridColumns"] == .number(4) && json["gridRows"] == .number(3))
        #expect(json["tileWidth"] == .number(64) && json["tileHeight"] == .number(64))
        #expect(json["nclx"] == .array([.number(12), .number(13), .number(6), .number(1)]))
    }

    /// A broken grid: `info` shows its header, a crop says what is wrong in one line and exits 1
    /// with nothing written.
    @Test(arguments: ["bad-cover.heic", "bad-count.heic", "bad-size.heic", "bad-outside.heic", "bad-truncated.heic"])
    func brokenGridsFailInOneLine(_ name: String) throws {
        let out = FileSystem.join(Self.dir, "\(name).png")
        let r = CLI.run(["crop", Self.file(name), "--at", "5,5", "--size", "8", "-o", out])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(name))
        #expect(FileSystem.kind(of: out) == .missing)
    }
}
