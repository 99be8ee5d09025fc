import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Colour descriptions survive: every command that writes pixels carries the input's ICC
/// profile byte for byte (PNG iCCP, JPEG APP2 split and reassembled, WebP ICCP) or PNG's
/// sRGB/gAMA/cHRM chunks, as Pillow (an independent reader) finds them; `--icc strip`
/// writes none.
@Suite("Colour descriptions")
struct ColorCLITests {
    /// Runs Python with Pillow in `dir`; its output. The script and its output live in a
    /// scratch folder of their own (tests run concurrently).
    static func python(_ script: String, in dir: String) -> String {
        let own = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(own))") }
        let file = FileSystem.join(own, "script.py")
        let out = FileSystem.join(own, "out.txt")
        CLI.write(file, Array(script.utf8))
        _ = CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(file)) > \(CLI.quote(out)) 2>&1")
        return CLI.read(out)
    }

    /// Inputs with a profile: a 588-byte sRGB profile (lcms2's, through Pillow) and a
    /// 70,588-byte one (the same padded, size field updated), too large for one JPEG APP2
    /// segment (65,519 bytes), so its JPEG has two.
    static let inputs: String = {
        let dir = CLI.scratch()
        _ = python(
            """
            from PIL import Image, ImageCms
            p = ImageCms.ImageCmsProfile(ImageCms.createProfile('sRGB')).tobytes()
            big = bytearray(p + bytes(70000))
            big[0:4] = len(big).to_bytes(4, 'big')
            big = bytes(big)
            open('small.icc', 'wb').write(p)
            open('big.icc', 'wb').write(big)
            im = Image.new('RGB', (96, 64))
            im.putdata([(x * 2, y * 3, (x + y) % 256) for y in range(64) for x in range(96)])
            for name, prof in (('small', p), ('big', big)):
                im.save(name + '.png', icc_profile=prof)
                im.save(name + '.jpg', icc_profile=prof, quality=95)
                im.save(name + '.webp', icc_profile=prof, quality=95)
            """, in: dir)
        return dir
    }()

    /// The ICC profile Pillow finds in `file` (relative to `dir`), as hex ("" when none).
    static func profile(_ file: String, in dir: String = inputs) -> String {
        python(
            """
            from PIL import Image
            print((Image.open('\(file)').info.get('icc_profile') or b'').hex())
            """, in: dir
        ).trimmingCharacters
    }

    static func hex(_ file: String) -> String {
        CLI.bytes(FileSystem.join(inputs, file)).map { String(format2: $0) }.joined()
    }

    @Test(arguments: ["small", "big"], ["png", "jpg", "webp"])
    func everyCommandKeepsTheProfile(_ profile: String, _ ext: String) {
        let input = "\(profile).\(ext)"
        let want = Self.hex("\(profile).icc")
        #expect(want.count > 1000)
        #expect(Self.profile(input) == want, "Pillow wrote no profile into \(input)")
        let outputs: [([String], String)] = [
            (["crop", input, "--at", "40,30", "--size", "32", "-o", "o-crop.png"], "o-crop.png"),
            (["fit", input, "--screen", "60x90", "-o", "o-fit.png"], "o-fit.png"),
            (["frame", input, "--view", "48x32", "--at", "20,20", "--size", "16", "-o", "o-frame.png"], "o-frame.png"),
            (["transform", input, "--rotate", "15", "-o", "o-transform.png"], "o-transform.png"),
            (["thumb", input, "--size", "32", "--name", "o-thumb-%e.jpg", "--out", ".", "-q"], "o-thumb-\(ext).jpg"),
            (["thumb", input, "--size", "32", "--name", "o-thumb-%e.webp", "--out", ".", "-q"], "o-thumb-\(ext).webp"),
            (
                ["animate", input, "--screen", "40x40", "--from", "0,0,20,20", "--frames", "2", "-o", "o-anim-%d.png"],
                "o-anim-2.png"
            ),
            (
                [
                    "animate", input, "--screen", "40x40", "--from", "0,0,20,20", "--frames", "2", "--apng",
                    "o-anim.png",
                ], "o-anim.png"
            ),
        ]
        let dir = CLI.scratch()
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(Self.inputs, input))) \(CLI.quote(dir))")
        for (args, out) in outputs {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(Self.profile(out, in: dir) == want, "\(args): the profile did not survive into \(out)")
            let stripped = CLI.run(args + ["--icc", "strip"], in: dir)
            #expect(stripped.status == 0, "\(args): \(stripped.stderr)")
            #expect(Self.profile(out, in: dir) == "", "\(args) --icc strip: a profile was written")
        }
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    @Test func infoDescribesTheProfile() throws {
        let r = CLI.run(["info", "big.jpg", "--json"], in: Self.inputs)
        let json = try #require(JSONValue.object(r.stdout))
        guard case .object(let p)? = json["iccProfile"] else {
            Issue.record("no iccProfile in \(r.stdout)")
            return
        }
        #expect(
            p["description"] == .string("sRGB built-in") && p["colorSpace"] == .string("RGB")
                && p["bytes"] == .number(70588))
        #expect(CLI.run(["info", "small.png"], in: Self.inputs).stdout.contains("ICC \"sRGB built-in\" (RGB, v4."))
    }

    /// `--icc srgb` converts with lcms2 from the input's profile (a Display P3 matrix
    /// profile, Tools/fixtures/make-icc.py): the pixels equal Pillow's ImageCms conversion
    /// (lcms2 again, called independently) exactly, a quarter turn too; the output is tagged
    /// with the small sRGB chunk, not the input's profile; perceptual differs from relative
    /// only where the intent matters, and the unconverted pixels are far from the reference.
    @Test func srgbConvertsThroughTheProfile() {
        let dir = CLI.scratch()
        _ = CLI.shell(
            "/usr/bin/python3 \(CLI.quote(FileSystem.join(CLI.root, "Tools/fixtures/make-icc.py"))) \(CLI.quote(dir))")
        for args in [
            ["crop", "p3.png", "--at", "0,0", "--size", "48", "--icc", "srgb", "-o", "c.png"],
            ["transform", "p3.png", "--rotate", "90", "--icc", "srgb", "-o", "t.png"],
            ["crop", "p3.png", "--at", "0,0", "--size", "48", "-o", "k.png"],
        ] {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        let report = Self.python(
            """
            from PIL import Image
            ref = Image.open('ref.png').convert('RGB')
            def diff(a, b): return max(abs(x - y) for p, q in zip(a.getdata(), b.getdata()) for x, y in zip(p, q))
            c = Image.open('c.png'); t = Image.open('t.png'); k = Image.open('k.png')
            print(diff(c.convert('RGB'), ref.crop((0, 0, 48, 48))), diff(t.convert('RGB'), ref.transpose(Image.Transpose.ROTATE_270)),
                  diff(k.convert('RGB'), ref.crop((0, 0, 48, 48))), c.info.get('srgb'), c.info.get('icc_profile') is None,
                  k.info.get('icc_profile') is not None)
            """, in: dir
        ).trimmingCharacters
        #expect(report == "0 0 108 1 True True", "crop, turn, unconverted, sRGB intent, no iCCP, kept iCCP: \(report)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// A gray image with a gray profile (gamma 1.8, Tools/fixtures/make-icc.py) stays gray:
    /// `keep` writes a gray PNG with the same profile bytes and samples; `srgb` writes a gray
    /// PNG tagged sRGB whose samples are the gamma-1.8 values re-encoded with sRGB's curve
    /// (worked out here from the two curves' definitions, within 1 level).
    @Test func grayStaysGrayWithItsProfile() {
        let dir = CLI.scratch()
        _ = CLI.shell(
            "/usr/bin/python3 \(CLI.quote(FileSystem.join(CLI.root, "Tools/fixtures/make-icc.py"))) \(CLI.quote(dir))")
        for (mode, out) in [("keep", "gk.png"), ("srgb", "gs.png")] {
            let r = CLI.run(["crop", "gray18.png", "--at", "32,24", "--size", "48", "--icc", mode, "-o", out], in: dir)
            #expect(r.status == 0, "\(mode): \(r.stderr)")
        }
        let report = Self.python(
            """
            from PIL import Image
            src = Image.open('gray18.png'); k = Image.open('gk.png'); s = Image.open('gs.png')
            def srgb(v):
                lin = (v / 255) ** 1.8
                return 255 * (12.92 * lin if lin <= 0.0031308 else 1.055 * lin ** (1 / 2.4) - 0.055)
            box = (8, 0, 56, 48)
            worst = max(abs(b - srgb(a)) for a, b in zip(src.crop(box).getdata(), s.crop((0, 0, 48, 48)).getdata()))
            print(k.mode, s.mode, k.info.get('icc_profile') == open('gray18.icc', 'rb').read(),
                  list(k.crop((0, 0, 48, 48)).getdata()) == list(src.crop(box).getdata()), s.info.get('srgb') is not None,
                  s.info.get('icc_profile') is None, worst <= 1, list(s.crop((0, 0, 48, 48)).getdata()) != list(src.crop(box).getdata()))
            """, in: dir
        ).trimmingCharacters
        #expect(
            report == "L L True True True True True True",
            "modes, kept profile, kept samples, sRGB tag, no profile, within 1 level: \(report)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// forcezoom's own colours are given in sRGB: on an output that keeps a Display P3
    /// profile, the background, the pin body and an (untagged, so sRGB) animate overlay are
    /// those colours converted into P3 (as
    /// Pillow's ImageCms converts them, relative colorimetric), so they look the same as on
    /// an sRGB photo; with `--icc srgb` or `strip` they are written as given.
    @Test func drawnColoursAreConvertedIntoTheKeptProfile() {
        let dir = CLI.scratch()
        _ = CLI.shell(
            "/usr/bin/python3 \(CLI.quote(FileSystem.join(CLI.root, "Tools/fixtures/make-icc.py"))) \(CLI.quote(dir))")
        #expect(
            CLI.run(["fixture", "solid", "--size", "10x10", "--fill", "#FF8000", "-o", "overlay.png"], in: dir).status
                == 0)
        for (mode, out) in [("keep", "k"), ("srgb", "s"), ("strip", "x")] {
            for args in [
                [
                    "fit", "p3.png", "--screen", "100x200", "--background", "#FF8000", "--icc", mode, "-o",
                    "\(out)-fit.png",
                ],
                [
                    "crop", "p3.png", "--at", "32,24", "--size", "48", "--marker", "32,24", "--icc", mode, "-o",
                    "\(out)-pin.png",
                ],
                [
                    "animate", "p3.png", "--screen", "40x40", "--from", "0,0,20,20", "--frames", "2", "--overlay",
                    "overlay.png",
                    "--overlay-at", "0,0", "--icc", mode, "-o", "\(out)-anim-%d.png",
                ],
            ] {
                let r = CLI.run(args, in: dir)
                #expect(r.status == 0, "\(args): \(r.stderr)")
            }
        }
        let report = Self.python(
            """
            from PIL import Image, ImageCms
            t = ImageCms.buildTransform(ImageCms.createProfile('sRGB'), ImageCms.ImageCmsProfile('p3.icc'), 'RGB', 'RGB', renderingIntent=1)
            def p3(c): return ImageCms.applyTransform(Image.new('RGB', (1, 1), c), t).getpixel((0, 0))
            want = {'k': (p3((255, 128, 0)), p3((230, 40, 40))), 's': ((255, 128, 0), (230, 40, 40)), 'x': ((255, 128, 0), (230, 40, 40))}
            for m in 'ksx':
                bg = Image.open(m + '-fit.png').convert('RGB').getpixel((0, 0))
                pin = Image.open(m + '-pin.png').convert('RGB').getpixel((24, 20))
                over = Image.open(m + '-anim-1.png').convert('RGB').getpixel((2, 2))
                print(m, bg == want[m][0], pin == want[m][1], over == want[m][0], bg, pin, over)
            print('differs', p3((255, 128, 0)) != (255, 128, 0))
            """, in: dir)
        for line in ["k True True True", "s True True True", "x True True True", "differs True"] {
            #expect(report.contains(line), "\(line): \(report)")
        }
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// PNG colour chunks without a profile (PngSuite's gamma and chromaticity files): the
    /// output's gAMA, cHRM and sRGB chunks are the input's, byte for byte.
    @Test(arguments: ["g03n2c08.png", "ccwn2c08.png", "g25n0g16.png"])
    func pngColourChunksAreKept(_ name: String) throws {
        let candidates = [
            FileSystem.join(CLI.root, "../shared/pngsuite/\(name)"),
            FileSystem.join(CLI.root, ".cache/conformance/png/\(name)"),
        ]
        guard let source = candidates.first(where: { FileSystem.kind(of: $0) == .regular }) else { return }
        let dir = CLI.scratch()
        let r = CLI.run(["crop", source, "--at", "1,1", "--size", "8", "-o", FileSystem.join(dir, "c.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let chunks = Self.python(
            """
            import struct, sys
            def chunks(f):
                d = open(f, 'rb').read(); i = 8; out = {}
                while i < len(d):
                    n, t = struct.unpack('>I4s', d[i:i+8]); out[t.decode()] = d[i+8:i+8+n].hex(); i += 12 + n
                return out
            a, b = chunks('\(source)'), chunks('\(FileSystem.join(dir, "c.png"))')
            keys = [k for k in ('gAMA', 'cHRM', 'sRGB', 'iCCP') if k in a]
            print(len(keys), all(a[k] == b.get(k) for k in keys))
            """, in: dir
        ).trimmingCharacters
        #expect(chunks.hasSuffix("True") && !chunks.hasPrefix("0"), "\(name): \(chunks)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }
}

extension String {
    /// Two lowercase hex digits of a byte.
    init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
