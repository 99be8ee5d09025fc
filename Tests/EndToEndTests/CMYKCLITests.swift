import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// CMYK and YCCK JPEGs become sRGB through a CMYK profile with lcms2: their own when they
/// carry one, else `--cmyk-profile`, else Ghostscript's default_cmyk.icc (libgs-common,
/// installed by `make deps`). The pixels are checked against Pillow's ImageCms (lcms2
/// called through another binding, on Pillow's own JPEG decode with its own Adobe
/// inversion); profiles that cannot be used are passed over with a warning, or fail the
/// file with `--icc srgb` unless `--lenient`.
@Suite("CMYK through profiles")
struct CMYKCLITests {
    static let ghostscript = "/usr/share/color/icc/ghostscript"

    /// The inputs, made with `fixture` (Adobe CMYK, inverted, as Photoshop writes it):
    /// gradients and zone plates with Ghostscript's SWOP profile embedded (`swop.jpg`), with
    /// its small PostScript one embedded (`ps.jpg`), with none (`none.jpg`, and `ycck.jpg`
    /// as YCCK), with an RGB profile (`rgb.jpg`), and an RGB PNG whose profile is damaged
    /// past its header (`broken.png`: every tag's offset points outside the profile).
    static let inputs: String = {
        let dir = CLI.scratch()
        let gs = ghostscript
        for args in [
            [
                "fixture", "zoneplate", "--size", "96x64", "--cmyk", "--embed-icc", "\(gs)/default_cmyk.icc", "-o",
                "swop.jpg",
            ],
            [
                "fixture", "gradient", "--size", "96x64", "--direction", "radial", "--cmyk", "--embed-icc",
                "\(gs)/ps_cmyk.icc", "-o", "ps.jpg",
            ],
            ["fixture", "zoneplate", "--size", "96x64", "--cmyk", "-o", "none.jpg"],
            ["fixture", "zoneplate", "--size", "96x64", "--ycck", "-o", "ycck.jpg"],
        ] {
            let r = CLI.run(args, in: dir)
            precondition(r.status == 0, "\(args): \(r.stderr)")
        }
        _ = ColorCLITests.python(
            """
            from PIL import Image, ImageCms
            rgb = ImageCms.ImageCmsProfile(ImageCms.createProfile('sRGB')).tobytes()
            open('rgb.icc', 'wb').write(rgb)
            im = Image.open('none.jpg')
            im.save('rgb.jpg', icc_profile=rgb, quality=95)
            # libpng checks the header and the tag table, not what the tags hold: tone curves of
            # an unknown type pass it, and lcms2 cannot use them.
            broken = bytearray(rgb[:132]) + rgb[132:].replace(b'para', b'junk').replace(b'curv', b'junk')
            assert bytes(broken) != rgb
            p = Image.new('RGB', (32, 24))
            p.putdata([(x * 8, y * 10, 128) for y in range(24) for x in range(32)])
            p.save('broken.png', icc_profile=bytes(broken))
            # Tags pointing outside the profile: libpng itself drops this iCCP chunk (a warning).
            outside = bytearray(rgb)
            for k in range(int.from_bytes(outside[128:132], 'big')):
                outside[132 + 12 * k + 4:132 + 12 * k + 8] = (0x7FFFFF00).to_bytes(4, 'big')
            p.save('outside.png', icc_profile=bytes(outside))
            """, in: dir)
        return dir
    }()

    /// The largest difference (per channel) between the PNG `output` and Pillow's
    /// conversion of `input` through `profile` ("embedded" or a path) to sRGB, relative
    /// colorimetric with black-point compensation; the old formula's difference; whether the
    /// output has no ICC profile; its sRGB chunk.
    static func difference(_ output: String, _ input: String, through profile: String, in dir: String = inputs)
        -> String
    {
        ColorCLITests.python(
            """
            import io
            from PIL import Image, ImageCms
            im = Image.open('\(input)')
            assert im.mode == 'CMYK', im.mode
            src = ImageCms.ImageCmsProfile(io.BytesIO(im.info['icc_profile'])) if '\(profile)' == 'embedded' else ImageCms.ImageCmsProfile('\(profile)')
            ref = ImageCms.profileToProfile(im, src, ImageCms.createProfile('sRGB'), renderingIntent=1, outputMode='RGB',
                                            flags=ImageCms.FLAGS['BLACKPOINTCOMPENSATION'])
            out = Image.open('\(output)')
            info = dict(out.info)
            out = out.convert('RGB').crop((0, 16, 96, 80))  # a 96-pixel peek of the 96x64 image
            # the formula forcezoom used before: (255 - ink) per channel, k folded in
            c = [tuple(round(v * p[3] / 255) for v in p[:3]) for p in im.getdata()]
            formula = Image.new('RGB', im.size); formula.putdata(c)
            def diff(a, b): return max(abs(x - y) for p, q in zip(a.getdata(), b.getdata()) for x, y in zip(p, q))
            print(diff(out, ref), diff(formula, ref), info.get('icc_profile') is None, info.get('srgb'))
            """, in: dir
        ).trimmingCharacters
    }

    @Test func ghostscriptProfilesAreInstalled() {
        // make deps installs libgs-common; without it every CMYK file falls back to the formula.
        #expect(FileSystem.kind(of: "\(Self.ghostscript)/default_cmyk.icc") == .regular, "run make deps (libgs-common)")
    }

    /// Through the embedded profile (two different ones), the default one (CMYK and YCCK),
    /// and `--cmyk-profile`: within 2 levels of Pillow (lcms2 gives the same numbers, so in
    /// practice 0), where the old formula is tens of levels away; outputs are tagged sRGB and
    /// carry no CMYK profile.
    @Test(arguments: [
        ("swop.jpg", "embedded", [String]()),
        ("ps.jpg", "embedded", []),
        ("none.jpg", "\(ghostscript)/default_cmyk.icc", []),
        ("ycck.jpg", "\(ghostscript)/default_cmyk.icc", []),
        ("none.jpg", "\(ghostscript)/ps_cmyk.icc", ["--cmyk-profile", "\(ghostscript)/ps_cmyk.icc"]),
        ("swop.jpg", "embedded", ["--icc", "srgb"]),
    ])
    func cmykGoesThroughItsProfile(_ input: String, _ profile: String, _ extra: [String]) throws {
        let out = "out-\(input)-\(extra.count).png"
        let r = CLI.run(
            ["crop", input, "--at", "48,32", "--size", "96", "--background", "black", "-o", out] + extra,
            in: Self.inputs)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let report = Self.difference(out, input, through: profile).split(separator: " ").map(String.init)
        try #require(report.count == 4, "\(report)")
        let mine = try #require(Int(report[0]))
        let formula = try #require(Int(report[1]))
        #expect(mine <= 2, "\(input) \(extra): \(mine) levels from Pillow's lcms2 conversion")
        #expect(formula > 10, "\(input): the formula is only \(formula) levels away; the test would not see it")
        #expect(report[2] == "True", "\(input): a profile was written into the RGB output")
        #expect(report[3] != "None", "\(input): the output is not tagged sRGB")
    }

    @Test func infoSaysWhatTheCMYKGoesThrough() throws {
        let r = CLI.run(["info", "swop.jpg", "none.jpg", "--json"], in: Self.inputs)
        #expect(r.status == 0, "\(r.stderr)")
        let records = JSONValue.objects(r.stdout)
        #expect(records.count == 2, "\(r.stdout)")
        #expect(records.first?["cmykToSRGB"] == .string("embedded profile"), "\(r.stdout)")
        #expect(records.last?["cmykToSRGB"] == .string("profile \(Self.ghostscript)/default_cmyk.icc"), "\(r.stdout)")
        let text = CLI.run(["info", "swop.jpg"], in: Self.inputs).stdout
        #expect(
            text.contains(
                "(CMYK, v2.1, 187484 bytes; not written: the RGB result is tagged sRGB), CMYK to sRGB through the embedded profile"
            ),
            "\(text)")
    }

    /// An RGB profile on CMYK pixels: passed over with one warning (keep), the pixels through
    /// the default profile; with `--icc srgb` the file fails with one line, exit 1, unless
    /// `--lenient`.
    @Test func aProfileOfAnotherColourSpaceIsPassedOver() throws {
        let keep = CLI.run(["crop", "rgb.jpg", "--at", "48,32", "--size", "96", "-o", "rgb-keep.png"], in: Self.inputs)
        #expect(keep.status == 0)
        #expect(
            keep.stderr.contains("rgb.jpg: the embedded ICC profile is not used (a RGB profile on CMYK pixels)"),
            "\(keep.stderr)")
        #expect(keep.stderr.split(separator: "\n").count == 1, "\(keep.stderr)")
        let strict = CLI.run(
            ["crop", "rgb.jpg", "--at", "48,32", "--size", "96", "--icc", "srgb", "-o", "rgb-srgb.png"], in: Self.inputs
        )
        #expect(strict.status == 1)
        #expect(
            strict.stderr
                == "forcezoom: error: rgb.jpg: the embedded ICC profile cannot be used (a RGB profile on CMYK pixels); use --lenient to convert without it, or --icc keep\n",
            "\(strict.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(Self.inputs, "rgb-srgb.png")) == .missing)
        let lenient = CLI.run(
            [
                "crop", "rgb.jpg", "--at", "48,32", "--size", "96", "--icc", "srgb", "--lenient", "-o",
                "rgb-lenient.png",
            ], in: Self.inputs)
        #expect(lenient.status == 0 && lenient.stderr.contains("warning"), "\(lenient.stderr)")
        // Both went through the default profile.
        let report = Self.difference("rgb-keep.png", "rgb.jpg", through: "\(Self.ghostscript)/default_cmyk.icc")
        #expect(report.hasPrefix("0 ") || report.hasPrefix("1 ") || report.hasPrefix("2 "), "\(report)")
        let a = try ImageReader(path: FileSystem.join(Self.inputs, "rgb-keep.png")).readImage()
        let c = try ImageReader(path: FileSystem.join(Self.inputs, "rgb-lenient.png")).readImage()
        #expect(a.pixels == c.pixels)
    }

    /// A profile lcms2 cannot use (the header is fine, the tags point nowhere): `keep` leaves it
    /// out with a warning and never writes it; `srgb` fails with one line unless `--lenient`,
    /// which leaves the samples as they are (taken as sRGB) and tags the output sRGB. The same
    /// in a thumbnail batch, which goes on.
    @Test func aBrokenProfileIsNeverWritten() throws {
        let dir = Self.inputs
        let keep = CLI.run(["crop", "broken.png", "--at", "16,12", "--size", "8", "-o", "b-keep.png"], in: dir)
        #expect(keep.status == 0)
        #expect(keep.stderr.contains("broken.png: the embedded ICC profile cannot be used ("), "\(keep.stderr)")
        #expect(keep.stderr.contains("the output carries no profile"), "\(keep.stderr)")
        #expect(ColorCLITests.profile("b-keep.png", in: dir) == "")
        let strict = CLI.run(
            ["crop", "broken.png", "--at", "16,12", "--size", "8", "--icc", "srgb", "-o", "b-srgb.png"], in: dir)
        #expect(
            strict.status == 1
                && strict.stderr.hasPrefix("forcezoom: error: broken.png: the ICC profile cannot be used ("),
            "\(strict.stderr)")
        #expect(strict.stderr.split(separator: "\n").count == 1)
        let lenient = CLI.run(
            [
                "crop", "broken.png", "--at", "16,12", "--size", "8", "--icc", "srgb", "--lenient", "-o",
                "b-lenient.png",
            ], in: dir)
        #expect(lenient.status == 0 && lenient.stderr.contains("the pixels are taken as sRGB"), "\(lenient.stderr)")
        let kept = try ImageReader(path: FileSystem.join(dir, "b-keep.png")).readImage()
        let taken = try ImageReader(path: FileSystem.join(dir, "b-lenient.png")).readImage()
        #expect(kept.pixels == taken.pixels, "--lenient changed the samples")
        #expect(ColorCLITests.profile("b-lenient.png", in: dir) == "")
        let thumbs = CLI.run(
            ["thumb", "broken.png", "swop.jpg", "--size", "16", "--icc", "srgb", "--out", "bt", "-q"], in: dir)
        #expect(thumbs.status == 1, "\(thumbs.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "bt/swop.thumb.png")) == .regular, "the batch did not go on")
        let thumbKeep = CLI.run(["thumb", "broken.png", "--size", "16", "--out", "bk", "-q"], in: dir)
        #expect(
            thumbKeep.status == 0 && thumbKeep.stderr.contains("the output carries no profile"), "\(thumbKeep.stderr)")
        #expect(ColorCLITests.profile("bk/broken.thumb.png", in: dir) == "")
    }

    /// A profile libpng refuses (its tags point outside it) is not silently lost: `keep` says
    /// it left it out, `srgb` fails unless `--lenient`, `info` still says a profile was there.
    @Test func aProfileLibpngRefusesIsReported() throws {
        let dir = Self.inputs
        let info = CLI.run(["info", "outside.png", "--json"], in: dir)
        #expect(JSONValue.object(info.stdout)?["icc"] == .bool(true), "\(info.stdout)")
        let keep = CLI.run(["crop", "outside.png", "--at", "16,12", "--size", "8", "-o", "o-keep.png"], in: dir)
        #expect(
            keep.status == 0 && keep.stderr.contains("outside.png: the embedded ICC profile could not be read"),
            "\(keep.stderr)")
        #expect(ColorCLITests.profile("o-keep.png", in: dir) == "")
        let strict = CLI.run(
            ["crop", "outside.png", "--at", "16,12", "--size", "8", "--icc", "srgb", "-o", "o-srgb.png"], in: dir)
        #expect(
            strict.status == 1 && strict.stderr.contains("the ICC profile cannot be used (it could not be read"),
            "\(strict.stderr)")
        let lenient = CLI.run(
            ["crop", "outside.png", "--at", "16,12", "--size", "8", "--icc", "srgb", "--lenient", "-o", "o-len.png"],
            in: dir)
        #expect(lenient.status == 0 && lenient.stderr.contains("the pixels are taken as sRGB"), "\(lenient.stderr)")
    }

    @Test func cmykProfileOptionIsChecked() {
        let missing = CLI.run(
            ["crop", "none.jpg", "--at", "1,1", "--size", "8", "--cmyk-profile", "nope.icc", "-o", "x.png"],
            in: Self.inputs)
        #expect(
            missing.status == 2 && missing.stderr.contains("--cmyk-profile nope.icc: no such file or directory"),
            "\(missing.stderr)")
        let rgb = CLI.run(
            ["crop", "none.jpg", "--at", "1,1", "--size", "8", "--cmyk-profile", "rgb.icc", "-o", "x.png"],
            in: Self.inputs)
        #expect(
            rgb.status == 2 && rgb.stderr.contains("--cmyk-profile rgb.icc: a RGB profile, not a CMYK one"),
            "\(rgb.stderr)")
        let text = CLI.run(
            ["crop", "none.jpg", "--at", "1,1", "--size", "8", "--cmyk-profile", "swop.jpg", "-o", "x.png"],
            in: Self.inputs)
        #expect(text.status == 2 && text.stderr.contains("not an ICC profile"), "\(text.stderr)")
        #expect(text.stderr.split(separator: "\n").count == 1)
    }
}
