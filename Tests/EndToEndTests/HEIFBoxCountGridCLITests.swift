import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// Issue 40, reproducer 9: a grid whose primary `infe` and `dimg` sit after 5000 other
/// entries of `iinf` and `iref`. A box reader that stopped at 4096 children did not see the
/// grid, and libheif decoded the 16384x16384 canvas whole (32 s, 1.6 GB, then exit 1; the
/// 32256x32256 one 115 s, 5.2 GB, then SIGSEGV). Read whole, a crop goes tile by tile and
/// equals the same crop of the file without the dummies, and `info` describes the grid.
/// The grids are one 512x512 tile repeated, its data stored once (heicgrid.py --shared);
/// the dummies are put in front by Tools/heicgrid/heifpad.py, which moves the iloc offsets.
@Suite(.serialized)
struct HEIFBoxCountGridCLITests {
    struct Grid: Sendable {
        var name: String
        var side: Int
        var tiles: Int
    }
    static let grids = [Grid(name: "g16k", side: 16384, tiles: 32), Grid(name: "g32k", side: 32256, tiles: 63)]
    /// Each run's CPU-time guard (a whole decode took 32 s, and 1.6-5.2 GB): as HostileInputTests's,
    /// on CPU time so that a busy machine cannot fail it, longer under the sanitizers, where a
    /// tile-by-tile crop of the 32256-pixel grid took 17-23 s on two loaded cores; there the
    /// memory bound (768 MiB against 1.6 GB) tells a whole decode.
    static let maxCPUSeconds: Double = CLI.sanitized ? 60 : 5

    /// The scratch folder with, for each grid, NAME.heic (as made), NAME-hidden.heic (5000
    /// dummy entries in front) and NAME-tile.ref.png, heif-convert's decode of its one tile
    /// (tile 0 of a 32x32 or 63x63 canvas, heicgrid.py's name for it).
    static let made: (dir: String, status: Int32) = {
        let dir = CLI.scratch()
        let tools = FileSystem.join(CLI.root, "Tools/heicgrid")
        var command = "cd \(CLI.quote(dir))"
        for g in grids {
            command += " && python3 \(CLI.quote(FileSystem.join(tools, "heicgrid.py"))) \(g.name).heic"
            command += " --grid \(g.tiles)x\(g.tiles) --tile 512x512 --distinct 1 --shared --quality 60 --work tiles"
            command += " && python3 \(CLI.quote(FileSystem.join(tools, "heifpad.py"))) \(g.name).heic"
            command += " \(g.name)-hidden.heic --entries 5000 --ids 2"
            command += " && heif-convert tiles/heic-\(g.tiles)x\(g.tiles)-512x512-8-0-q60-0.heic \(g.name)-tile.ref.png"
        }
        return (dir, CLI.shell("(\(command)) > \(CLI.quote(FileSystem.join(dir, "log.txt"))) 2>&1"))
    }()

    static func path(_ name: String) -> String { FileSystem.join(made.dir, name) }

    static func be(_ b: [UInt8], _ at: Int, _ n: Int) -> Int { b[at..<at + n].reduce(0) { $0 << 8 | Int($1) } }

    /// How many children of the first `type` box come before the first one `matches` (nil: none matches).
    static func position(in b: [UInt8], of type: String, skip: Int, _ matches: (String, ArraySlice<UInt8>) -> Bool)
        -> Int?
    {
        let t = Array(type.utf8)
        guard let at = (4..<b.count - 4).first(where: { Array(b[$0..<$0 + 4]) == t }).map({ $0 - 4 }) else {
            return nil
        }
        let end = at + be(b, at, 4)
        var i = at + 8 + skip
        var index = 0
        while i + 8 <= end {
            let size = be(b, i, 4)
            guard size >= 8 else { return nil }
            let kind = String(decoding: b[i + 4..<i + 8], as: UTF8.self)
            if matches(kind, b[i + 8..<i + size]) { return index }
            i += size
            index += 1
        }
        return nil
    }

    @Test func theGridsAreMadeAndHidden() throws {
        try #require(Self.made.status == 0, "heicgrid.py/heifpad.py: \(CLI.read(Self.path("log.txt")))")
        for g in Self.grids {
            let b = CLI.bytes(Self.path("\(g.name)-hidden.heic"))
            // iinf version 0: a 2-byte count after version and flags; infe version 2: the type after 8 bytes.
            let infe = Self.position(in: b, of: "iinf", skip: 6) { kind, body in
                kind == "infe" && String(decoding: body.dropFirst(8).prefix(4), as: UTF8.self) == "grid"
            }
            // The grid is item 1 (heicgrid.py): its dimg starts with from_item_ID 1.
            let dimg = Self.position(in: b, of: "iref", skip: 4) { kind, body in
                kind == "dimg" && Self.be(Array(body), 0, 2) == 1
            }
            #expect(
                infe == 5000 && dimg == 5000,
                "\(g.name): grid infe at \(String(describing: infe)), dimg at \(String(describing: dimg))")
        }
    }

    /// A 300x300 crop across four tiles at the centre equals the crop of the file without
    /// the dummies; one inside a tile equals heif-convert's decode of that tile. Each is
    /// fast and small: a decode of the whole canvas takes 1.6 GB (5.2 GB for 32256x32256).
    @Test(arguments: grids)
    func aCropOfTheHiddenGridGoesTileByTile(_ g: Grid) throws {
        try #require(Self.made.status == 0, "heicgrid.py/heifpad.py: \(CLI.read(Self.path("log.txt")))")
        let budget = ["--max-memory", "60", "--max-pixels", "0"]
        for (file, out) in [("\(g.name)-hidden.heic", "\(g.name)-hidden.png"), ("\(g.name).heic", "\(g.name).png")] {
            let r = CLI.measure(
                ["crop", file, "--at", "50%,50%", "--size", "300", "-o", out] + budget, in: Self.made.dir)
            #expect(r.signal == nil && r.exitCode == 0 && !r.timedOut, "\(file): \(r)")
            #expect(r.cpuSeconds < Self.maxCPUSeconds, "CPU-time guard: \(file): \(r)")
            #expect(r.maxRSSKiB < CLI.rssBoundKiB(100), "\(file): \(r)")
        }
        let hidden = try ImageReader(path: Self.path("\(g.name)-hidden.png")).readImage()
        let plain = try ImageReader(path: Self.path("\(g.name).png")).readImage()
        #expect(hidden.size == PixelSize(width: 300, height: 300))
        #expect(FormatsCLITests.maxDifference(hidden, plain) == 0, "\(g.name)")

        // No memory limit, as in the report, where nothing but the grid stopped libheif's
        // whole decode (only for 16384x16384: a regression would take 1.6 GB for up to 30 s,
        // where 32256x32256 would take 5.2 GB).
        if g.side == 16384 {
            let free = CLI.measure(
                ["crop", "\(g.name)-hidden.heic", "--at", "50%,50%", "--size", "300", "-o", "\(g.name)-free.png"]
                    + ["--max-memory", "0", "--max-pixels", "0"], in: Self.made.dir)
            #expect(
                free.signal == nil && free.exitCode == 0 && free.cpuSeconds < Self.maxCPUSeconds,
                "CPU-time guard: \(free)")
            #expect(free.maxRSSKiB < CLI.rssBoundKiB(100), "\(free)")
            let crop = try ImageReader(path: Self.path("\(g.name)-free.png")).readImage()
            #expect(FormatsCLITests.maxDifference(crop, plain) == 0)
        }

        // Tile (16, 16) from (8192, 8192): the square 128..384 of it.
        let r = CLI.measure(
            ["crop", "\(g.name)-hidden.heic", "--at", "8448,8448", "--size", "256", "-o", "\(g.name)-tile.png"]
                + budget,
            in: Self.made.dir)
        #expect(
            r.signal == nil && r.exitCode == 0 && r.cpuSeconds < Self.maxCPUSeconds
                && r.maxRSSKiB < CLI.rssBoundKiB(100),
            "exit, CPU-time and memory guards: \(r)")
        let crop = try ImageReader(path: Self.path("\(g.name)-tile.png")).readImage()
        let want = try ImageReader(path: Self.path("\(g.name)-tile.ref.png")).readImage()
            .cropped(to: PixelRect(x: 128, y: 128, width: 256, height: 256)).converted(to: crop.format)
        #expect(FormatsCLITests.maxDifference(crop, want) == 0, "\(g.name)")
    }

    /// `info` reads the grid past the dummies: its canvas and its tiles, as for the file without them.
    @Test(arguments: grids)
    func infoDescribesTheHiddenGrid(_ g: Grid) throws {
        try #require(Self.made.status == 0, "heicgrid.py/heifpad.py: \(CLI.read(Self.path("log.txt")))")
        let r = CLI.measure(["info", "--json", "--max-pixels", "0", "\(g.name)-hidden.heic"], in: Self.made.dir)
        #expect(
            r.signal == nil && r.exitCode == 0 && r.cpuSeconds < Self.maxCPUSeconds
                && r.maxRSSKiB < CLI.rssBoundKiB(100),
            "exit, CPU-time and memory guards: \(r)")
        let json = try #require(JSONValue.object(r.stdout), "\(r)")
        #expect(json["width"] == .number(Double(g.side)) && json["height"] == .number(Double(g.side)), "\(r.stdout)")
        #expect(json["gridTiles"] == .number(Double(g.tiles * g.tiles)), "\(r.stdout)")
        #expect(json["gridColumns"] == .number(Double(g.tiles)) && json["gridRows"] == .number(Double(g.tiles)))
        #expect(json["tileWidth"] == .number(512) && json["tileHeight"] == .number(512))
        let text = CLI.measure(["info", "--max-pixels", "0", "\(g.name)-hidden.heic"], in: Self.made.dir)
        #expect(
            text.exitCode == 0
                && text.stdout.contains(
                    "HEIC \(g.side)x\(g.side), brand heic, HEVC grid of \(g.tiles)x\(g.tiles) tiles of 512x512"),
            "\(text)")
    }
}
