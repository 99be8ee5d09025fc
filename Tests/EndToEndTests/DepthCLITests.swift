import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// 16-bit stays 16-bit where it costs nothing: crops at zoom 1 and quarter turns of 16-bit
/// PNGs carry every sample unchanged (checked with pypng, an independent decoder), padding
/// is the background at 16 bits, `--depth 8` rounds, and `--depth 16` where samples cannot
/// be kept is a usage error that says why.
@Suite("16-bit samples")
struct DepthCLITests {
    /// g, ga, rgb and rgba 37x29 PNGs (Tools/fixtures/png16.py), distinct low bytes.
    static let inputs: String = {
        let dir = CLI.scratch()
        _ = CLI.shell(
            "/usr/bin/python3 \(CLI.quote(FileSystem.join(CLI.root, "Tools/fixtures/png16.py"))) \(CLI.quote(dir))")
        return dir
    }()

    /// Runs a pypng check script in `dir`; its output (one line expected: "ok ...").
    static func pypng(_ body: String, in dir: String) -> String {
        let script = """
            import png
            def read(f):
                w, h, rows, info = png.Reader(filename=f).read()
                return w, h, [list(r) for r in rows], info
            \(body)
            """
        CLI.write(FileSystem.join(dir, "check.py"), Array(script.utf8))
        _ = CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 check.py > check.txt 2>&1")
        return CLI.read(FileSystem.join(dir, "check.txt")).trimmingCharacters
    }

    @Test(arguments: [("g", 1), ("ga", 2), ("rgb", 3), ("rgba", 4), ("rgbai", 4)])
    func cropsAndTurnsKeepEverySample(_ name: String, _ channels: Int) {
        let dir = CLI.scratch()
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(Self.inputs, name + ".png"))) \(CLI.quote(dir))/in.png")
        let runs: [[String]] = [
            ["crop", "in.png", "--at", "10,10", "--size", "8", "-o", "crop.png"],
            ["crop", "in.png", "--at", "36,28", "--size", "8", "-o", "corner.png"],
            ["transform", "in.png", "--rotate", "90", "-o", "r90.png"],
            ["transform", "in.png", "--rotate", "180", "-o", "r180.png"],
            ["transform", "in.png", "--rotate=-90", "-o", "r270.png"],
            ["crop", "in.png", "--at", "10,10", "--size", "8", "--depth", "8", "-o", "crop8.png"],
        ]
        for args in runs {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        // Two squares from standard input: one decode at full depth serves both.
        let piped = CLI.run(
            ["crop", "-", "--at", "10,10", "--at", "36,28", "--size", "8", "--json", "-o", "pipe-%d.png"], in: dir,
            stdin: FileSystem.join(dir, "in.png"))
        #expect(piped.status == 0, "\(piped.stderr)")
        let records = JSONValue.objects(piped.stdout)
        #expect(records.count == 2 && records.allSatisfy { $0["bitDepth"] == .number(16) }, "\(piped.stdout)")
        let report = Self.pypng(
            """
            c = \(channels)
            w, h, src, _ = read('in.png')
            def same(f, size, pick):
                W, H, out, info = read(f)
                assert info['bitdepth'] == 16 and info['planes'] == c, (f, info['bitdepth'], info['planes'])
                assert (W, H) == size, (f, W, H)
                for y in range(H):
                    for x in range(W):
                        sx, sy = pick(x, y)
                        assert out[y][x*c:(x+1)*c] == src[sy][sx*c:(sx+1)*c], (f, x, y)
            same('crop.png', (8, 8), lambda x, y: (6 + x, 6 + y))
            same('corner.png', (8, 8), lambda x, y: (w - 8 + x, h - 8 + y))
            same('r90.png', (h, w), lambda x, y: (y, h - 1 - x))
            same('r180.png', (w, h), lambda x, y: (w - 1 - x, h - 1 - y))
            same('r270.png', (h, w), lambda x, y: (w - 1 - y, x))
            same('pipe-1.png', (8, 8), lambda x, y: (6 + x, 6 + y))
            same('pipe-2.png', (8, 8), lambda x, y: (w - 8 + x, h - 8 + y))
            W, H, out, info = read('crop8.png')
            assert info['bitdepth'] == 8
            assert all(out[y][x*c + k] == (src[6 + y][(6 + x)*c + k] * 255 + 32767) // 65535 for y in range(8) for x in range(8) for k in range(c))
            print('ok')
            """, in: dir)
        #expect(report == "ok", "\(name): \(report)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// An image smaller than the square is centred on the background, at 16 bits
    /// (transparent: alpha 0; white: 0xFFFF), the samples unchanged.
    @Test func paddingIsTheBackgroundAtSixteenBits() {
        let dir = CLI.scratch()
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(Self.inputs, "rgb.png"))) \(CLI.quote(dir))/in.png")
        #expect(
            CLI.run(["crop", "in.png", "--at", "1,1", "--size", "41", "--background", "white", "-o", "p.png"], in: dir)
                .status == 0)
        let report = Self.pypng(
            """
            w, h, src, _ = read('in.png')
            W, H, out, info = read('p.png')
            assert (W, H, info['bitdepth'], info['planes']) == (41, 41, 16, 3), (W, H, info)
            ox, oy = (41 - w) // 2, (41 - h) // 2
            assert out[0][0:3] == [65535, 65535, 65535]
            assert all(out[oy + y][(ox + x)*3:(ox + x)*3 + 3] == src[y][x*3:x*3 + 3] for y in range(h) for x in range(w))
            print('ok')
            """, in: dir)
        #expect(report == "ok", "\(report)")
    }

    @Test func depthSixteenWhereItCannotBeKeptSaysWhy() {
        let dir = CLI.scratch()
        _ = CLI.run(["fixture", "coords", "--size", "40x30", "-o", FileSystem.join(dir, "eight.png")])
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(Self.inputs, "rgb.png"))) \(CLI.quote(dir))/in.png")
        for (args, says) in [
            (
                ["crop", "eight.png", "--at", "5,5", "--size", "8", "--depth", "16", "-o", "x.png"],
                "needs samples deeper than 8 bits (PNG, HEIF/HEIC, AVIF, camera RAW/DNG, TIFF or JPEG XL); this input has 8-bit samples"
            ),
            (
                ["crop", "in.png", "--at", "5,5", "--size", "8", "--zoom", "2", "--depth", "16", "-o", "x.png"],
                "--zoom"
            ),
            (["transform", "in.png", "--rotate", "45", "--depth", "16", "-o", "x.png"], "quarter turns"),
        ] {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r.status) \(r.stderr)")
        }
        // Without --depth, what cannot be kept is made at 8 bits.
        #expect(
            CLI.run(["crop", "in.png", "--at", "5,5", "--size", "8", "--zoom", "2", "-o", "z.png"], in: dir).status == 0
        )
        #expect(CLI.run(["info", "z.png"], in: dir).stdout.contains("8-bit"))
    }

    /// `--icc srgb` of a 16-bit crop (a radial gradient tagged with the Display P3 test
    /// profile) converts at 16 bits with lcms2: the output is 16-bit and tagged sRGB, every
    /// sample changed, most not a multiple of 257 (not an 8-bit result widened), and rounded
    /// to 8 bits each is within 1 level of the 8-bit conversion (checked against Pillow's
    /// ImageCms in ColorCLITests). Read back with pypng.
    @Test func srgbConvertsAtSixteenBits() {
        let dir = CLI.scratch()
        _ = CLI.shell(
            "/usr/bin/python3 \(CLI.quote(FileSystem.join(CLI.root, "Tools/fixtures/make-icc.py"))) \(CLI.quote(dir))")
        for args in [
            [
                "fixture", "gradient", "--size", "64x48", "--direction", "radial", "--depth", "16", "--embed-icc",
                "p3.icc", "-o", "g16.png",
            ],
            ["crop", "g16.png", "--at", "32,24", "--size", "32", "--icc", "srgb", "-o", "s16.png"],
            ["crop", "g16.png", "--at", "32,24", "--size", "32", "--icc", "srgb", "--depth", "8", "-o", "s8.png"],
            ["transform", "g16.png", "--rotate", "90", "--icc", "srgb", "-o", "t16.png"],
        ] {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        let report = ColorCLITests.python(
            """
            import png
            def rows(f):
                w, h, r, info = png.Reader(f).asDirect()
                return [list(x) for x in r], info
            a, ia = rows('s16.png'); b, ib = rows('s8.png'); src, _ = rows('g16.png'); t, it = rows('t16.png')
            cells = [(y, x) for y in range(32) for x in range(96)]
            worst = max(abs(round(a[y][x] / 257) - b[y][x]) for y, x in cells)
            wide = sum(1 for y, x in cells if a[y][x] % 257)
            same = sum(1 for y, x in cells if a[y][x] == src[y + 8][x + 48])
            print(ia['bitdepth'], ib['bitdepth'], it['bitdepth'], worst <= 1, wide > 1000, same)
            """, in: dir
        ).trimmingCharacters
        #expect(
            report == "16 8 16 True True 0",
            "depths, within 1 level of 8-bit, 16-bit precision, unchanged samples: \(report)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// A 10-bit HEIC's crop at 16 bits: within 1/1023 of full scale of heif-convert's 16-bit
    /// PNG (it shifts the 10 bits left; forcezoom scales v * 65535 / 1023, rounded, so white
    /// stays 0xFFFF), and the low bits carry information (not an 8-bit image widened).
    @Test func tenBitHEICCropsAtSixteenBits() {
        let source = FileSystem.join(CLI.root, ".cache/formats/heic-10bit.heic")
        guard FileSystem.kind(of: source) == .regular else { return }
        let dir = CLI.scratch()
        let r = CLI.run(["crop", source, "--at", "20,20", "--size", "16", "-o", FileSystem.join(dir, "h.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let report = Self.pypng(
            """
            w, h, ref, _ = read('\(FileSystem.join(CLI.root, ".cache/formats/heic-10bit.ref.png"))')
            W, H, out, info = read('h.png')
            assert info['bitdepth'] == 16 and (W, H) == (16, 16)
            d = max(abs(out[y][x] - ref[12 + y][36 + x]) for y in range(16) for x in range(48))
            low = sum(1 for y in range(16) for x in range(48) if out[y][x] % 257)
            assert d <= 64 and low > 100, (d, low)
            print('ok')
            """, in: dir)
        #expect(report == "ok", "\(report)")
    }

    /// PngSuite's 16-bit images (gray, gray+alpha, RGB, RGBA; beside the checkout): the crop
    /// is the file's own samples.
    @Test(arguments: ["basn0g16", "basn2c16", "basn4a16", "basn6a16"])
    func pngSuiteSixteenBit(_ name: String) {
        let source = FileSystem.join(CLI.root, "../shared/pngsuite/\(name).png")
        guard FileSystem.kind(of: source) == .regular else { return }
        let dir = CLI.scratch()
        let r = CLI.run(["crop", source, "--at", "16,16", "--size", "20", "-o", FileSystem.join(dir, "c.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let report = Self.pypng(
            """
            w, h, src, info = read('\(source)')
            c = info['planes']
            W, H, out, oinfo = read('c.png')
            assert oinfo['bitdepth'] == 16 and oinfo['planes'] == c
            assert all(out[y][x*c:(x+1)*c] == src[6 + y][(6 + x)*c:(7 + x)*c] for y in range(20) for x in range(20))
            print('ok')
            """, in: dir)
        #expect(report == "ok", "\(name): \(report)")
    }
}
