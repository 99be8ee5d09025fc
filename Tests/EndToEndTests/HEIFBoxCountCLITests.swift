import TestSupport
import Testing

@testable import FZSystem

/// A `dimg` loop placed after 4096 dummy `iref` entries (issue 40: `info`, `crop` and
/// `thumb` died by SIGSEGV inside libheif, and a batch with them): every command now refuses
/// the file in one line, exit 1, and a batch goes on with the next input.
@Suite("HEIF box counts")
struct HEIFBoxCountCLITests {
    static let dir: String = {
        let dir = CLI.scratch()
        let grid = FileSystem.join(CLI.root, "Fixtures/hostile/good-grid.heic")
        let script = """
            import struct, sys
            b = open(sys.argv[1], "rb").read()
            off = lambda t: b.index(t) - 4
            box = lambda t, x: struct.pack(">I", 8 + len(x)) + t + x
            iref, meta, pitm = off(b"iref"), off(b"meta"), off(b"pitm")
            p = struct.unpack(">H", b[pitm + 12:pitm + 14])[0]
            size = struct.unpack(">I", b[iref:iref + 4])[0]
            body = b[iref + 8:iref + size]
            dummies = b"".join(box(b"dimg", struct.pack(">HHH", 0x4000 + k, 1, 0x7FFF)) for k in range(4096))
            new = body[:4] + dummies + body[4:] + box(b"dimg", struct.pack(">HHH", p, 1, p))
            out = b[:iref] + box(b"iref", new) + b[iref + size:]
            meta_size = struct.unpack(">I", b[meta:meta + 4])[0] + len(out) - len(b)
            open("loop.heic", "wb").write(out[:meta] + struct.pack(">I", meta_size) + out[meta + 4:])
            """
        CLI.write(FileSystem.join(dir, "make.py"), Array(script.utf8))
        _ = CLI.shell(
            "cd \(CLI.quote(dir)) && python3 make.py \(CLI.quote(grid)) && cp \(CLI.quote(grid)) good.heic")
        return dir
    }()

    @Test(arguments: [
        ["info", "loop.heic"], ["crop", "loop.heic", "--at", "50%,50%", "--size", "16", "-o", "c.png"],
        ["fit", "loop.heic", "--screen", "100x80", "-o", "f.png"],
    ])
    func everyCommandRefusesTheHiddenLoop(_ arguments: [String]) throws {
        try #require(FileSystem.kind(of: FileSystem.join(Self.dir, "loop.heic")) == .regular)
        let r = CLI.measure(arguments, in: Self.dir)
        #expect(r.signal == nil && r.exitCode == 1, "\(r)")
        #expect(
            r.stderr
                == "forcezoom: error: loop.heic: corrupt image header (the image's derivation references (dimg) form a loop); the file cannot be decoded\n",
            "\(r)")
    }

    @Test func aBatchGoesOnPastIt() throws {
        let out = CLI.scratch()
        let r = CLI.measure(["thumb", "loop.heic", "good.heic", "--size", "16", "--out", out, "-q"], in: Self.dir)
        #expect(r.signal == nil && r.exitCode == 1, "\(r)")
        #expect(
            r.stderr.contains("loop.heic: corrupt image header") && r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(FileSystem.kind(of: FileSystem.join(out, "good.thumb.png")) == .regular, "\(r)")
    }

    /// A grid of 64x64 = 4096 tiles has 4097 item infos: the reader that stopped at 4096
    /// missed the last tile (refused as "derives from item 4097, which the file does not
    /// have"); read whole, it is cropped through its tiles, within a --max-memory a whole
    /// decode (4096x4096, about 128 MiB) would exceed.
    @Test func aGridOf4096TilesIsCutThroughItsTiles() throws {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/heicgrid/heicgrid.py")
        let made = CLI.shell(
            "cd \(CLI.quote(dir)) && python3 \(CLI.quote(script)) g.heic --grid 64x64 --tile 64x64 --distinct 4 > log.txt 2>&1"
        )
        try #require(made == 0, "heicgrid.py (needs heif-enc): \(CLI.read(FileSystem.join(dir, "log.txt")))")
        let r = CLI.measure(
            ["crop", "g.heic", "--at", "50%,50%", "--size", "64", "--max-memory", "60", "-o", "c.png"], in: dir)
        #expect(r.signal == nil && r.exitCode == 0, "\(r)")
        #expect(r.maxRSSKiB < CLI.rssBoundKiB(100), "\(r)")
        let fit = CLI.measure(["fit", "g.heic", "--screen", "100x100", "--max-memory", "60", "-o", "f.png"], in: dir)
        #expect(fit.signal == nil && fit.exitCode == 0 && fit.maxRSSKiB < CLI.rssBoundKiB(100), "\(fit)")
    }
}
