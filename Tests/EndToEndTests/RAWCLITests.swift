import FZSystem
import TestSupport
import Testing

/// Camera RAW and DNG through libraw: crops equal libraw's own `dcraw_emu -w -q 3` (the same
/// develop; read with Pillow), `thumb` uses the embedded JPEG preview when it is large
/// enough and the same shape (and says so in its JSON), `info` agrees with exiftool and
/// raw-identify, and broken files are one line. The DNGs are made by Tools/raw/make-dng.py;
/// the real samples in ../shared/formats/raw are used when present.
@Suite("Camera RAW end to end")
struct RAWCLITests {
    static let shared = FileSystem.join(CLI.root, "../shared/formats/raw")
    static let hasShared = FileSystem.kind(of: shared) == .directory
    static let hasTools = CLI.shell("command -v dcraw_emu >/dev/null && command -v raw-identify >/dev/null") == 0

    /// t.dng 600x400 with a 480x320 preview; wide.dng with a 16:9 preview (not the same
    /// picture); rot.dng with orientation 6; none.dng without a JPEG preview; lie.dng whose
    /// raw IFD claims 15000x15000; cut.dng, t.dng cut inside its raw data.
    static let dir: String = {
        let dir = CLI.scratch()
        let tool = FileSystem.join(CLI.root, "Tools/raw/make-dng.py")
        for args in [
            "t.dng", "wide.dng --preview 480x270", "rot.dng --orientation 6", "none.dng --preview none",
            "lie.dng --lie-size 15000x15000",
        ] {
            precondition(CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(tool)) \(args)") == 0, args)
        }
        _ = CLI.shell("cd \(CLI.quote(dir)) && head -c 300000 t.dng > cut.dng")
        return dir
    }()

    /// The largest difference between the PNG `output` and `dcraw_emu <flags>`'s develop of
    /// `input` over `rect` (x, y, w, h), 8 or 16 bits; "error ..." when something failed.
    static func difference(_ output: String, _ input: String, flags: String, rect: (Int, Int, Int, Int)) -> String {
        let (x, y, w, h) = rect
        let ref = FileSystem.join(CLI.scratch(), "ref.ppm")
        guard CLI.shell("dcraw_emu \(flags) -Z \(CLI.quote(ref)) \(CLI.quote(input)) 2>/dev/null") == 0 else {
            return "error dcraw_emu"
        }
        return ColorCLITests.python(
            """
            import numpy as np, png
            def ppm(p):
                d = open(p, 'rb').read()
                parts = d.split(maxsplit=4)
                w, h, m = int(parts[1]), int(parts[2]), int(parts[3])
                n = w * h * 3 * (2 if m > 255 else 1)
                return np.frombuffer(parts[4][-n:], dtype='>u2' if m > 255 else 'u1').reshape(h, w, 3).astype(int)
            ref = ppm('\(ref)')[\(y):\(y + h), \(x):\(x + w)]
            pw, ph, rows, info = png.Reader('\(output)').asDirect()
            out = np.array([list(r) for r in rows]).reshape(ph, pw, 3)
            print(int(np.abs(out - ref).max()) if out.shape == ref.shape else 'error shapes %s %s' % (out.shape, ref.shape))
            """, in: dir
        ).trimmed
    }

    @Test(.enabled(if: hasTools), arguments: ["t.dng", "rot.dng"])
    func cropsEqualDcrawEmu(_ name: String) {
        let input = FileSystem.join(Self.dir, name)
        // 8 bits (--depth 8) is dcraw_emu -w -q 3; the 16-bit crop is its -6.
        for (depth, flags) in [("8", "-w -q 3"), ("16", "-w -q 3 -6")] {
            let out = FileSystem.join(Self.dir, "\(name)-\(depth).png")
            let r = CLI.run(["crop", input, "--at", "150,120", "--size", "200", "--depth", depth, "-o", out])
            #expect(r.status == 0, "\(r.stderr)")
            let d = Self.difference(out, input, flags: flags, rect: (50, 20, 200, 200))
            #expect(Int(d).map { $0 <= 1 } == true, "\(name) depth \(depth): \(d)")
        }
    }

    @Test(
        .enabled(if: hasShared && hasTools),
        arguments: ["canon_eos6d_acr_lossy.dng", "gopro_hero6_GOPR0024_gpr_tools.dng"])
    func realDNGsEqualDcrawEmu(_ name: String) {
        let input = FileSystem.join(Self.shared, name)
        guard FileSystem.kind(of: input) == .regular else { return }
        let out = FileSystem.join(CLI.scratch(), "crop.png")
        let r = CLI.run(["crop", input, "--at", "400,300", "--size", "256", "--depth", "8", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let d = Self.difference(out, input, flags: "-w -q 3", rect: (272, 172, 256, 256))
        #expect(Int(d).map { $0 <= 1 } == true, "\(name): \(d)")
    }

    /// The thumb's JSON record: whether the embedded preview made it, and its size.
    static func thumb(_ name: String, size: String) -> (embedded: Bool?, size: String, status: Int32) {
        let out = CLI.scratch()
        let r = CLI.run(["thumb", FileSystem.join(dir, name), "--size", size, "--out", out, "--json"])
        let embedded =
            r.stdout.contains("\"embeddedThumbnail\":true")
            ? true
            : r.stdout.contains("\"embeddedThumbnail\":false") ? false : nil
        let w = r.stdout.firstMatch(of: /"outputSize":\{"width":(\d+),"height":(\d+)\}/)
        return (embedded, w.map { "\($0.1)x\($0.2)" } ?? "none", r.status)
    }

    @Test func thumbUsesThePreviewOnlyWhenItShowsEnough() {
        // 128 px: the 480x320 preview is large enough; 550: it is not (a develop).
        #expect(Self.thumb("t.dng", size: "128") == (true, "128x85", 0))
        #expect(Self.thumb("t.dng", size: "550") == (false, "550x367", 0))
        // A 16:9 preview of a 3:2 image is another picture: developed at half size.
        #expect(Self.thumb("wide.dng", size: "128") == (false, "128x85", 0))
        #expect(Self.thumb("none.dng", size: "128") == (false, "128x85", 0))
        // The preview is stored as the sensor is: the camera's orientation turns it too.
        #expect(Self.thumb("rot.dng", size: "128") == (true, "85x128", 0))
    }

    @Test(.enabled(if: hasTools)) func previewThumbShowsTheDevelopedPicture() {
        // The thumbnail from the preview against one from the develop (--no-embedded... not
        // offered: the 16:9 file's is developed): the same scene within JPEG's and the
        // develop's differences (mean under 12 levels).
        let out = CLI.scratch()
        _ = CLI.run(["thumb", FileSystem.join(Self.dir, "rot.dng"), "--size", "96", "--out", out, "--name", "%s.png"])
        let ref = FileSystem.join(out, "ref.ppm")
        _ = CLI.shell("dcraw_emu -w -q 3 -Z \(CLI.quote(ref)) \(CLI.quote(FileSystem.join(Self.dir, "rot.dng")))")
        let mean = ColorCLITests.python(
            """
            from PIL import Image
            import numpy as np
            a = np.asarray(Image.open('\(out)/rot.png').convert('RGB')).astype(float)
            b = np.asarray(Image.open('\(ref)').convert('RGB').resize((a.shape[1], a.shape[0]), Image.LANCZOS)).astype(float)
            print(round(float(np.abs(a - b).mean()), 1))
            """, in: Self.dir
        ).trimmed
        #expect(Double(mean).map { $0 < 12 } == true, "mean difference \(mean)")
    }

    @Test(.enabled(if: hasTools)) func infoAgreesWithExiftoolAndRawIdentify() {
        let input = FileSystem.join(Self.dir, "rot.dng")
        let r = CLI.run(["info", "--json", input])
        #expect(r.status == 0)
        let model = ColorCLITests.python(
            "import subprocess; print(subprocess.run(['exiftool', '-s3', '-Make', '-Model', '\(input)'], capture_output=True, text=True).stdout.replace(chr(10), ' ').strip())",
            in: Self.dir
        ).trimmed
        #expect(r.stdout.contains("\"camera\":\"\(model)\""), "\(model) in \(r.stdout)")
        _ = CLI.shell("raw-identify -v \(CLI.quote(input)) > \(CLI.quote(FileSystem.join(Self.dir, "id.txt")))")
        let id = CLI.read(FileSystem.join(Self.dir, "id.txt"))
        // raw-identify: "Full size: 600 x 400", "Thumb size: 480 x 320", "Output size: 400 x 600".
        func field(_ name: String) -> String? {
            id.split(separator: "\n").first { $0.hasPrefix(name) }.map {
                $0.dropFirst(name.count).split(separator: " ").filter { $0 != "x" }.joined(separator: "x")
            }
        }
        #expect(field("Full size:").map { r.stdout.contains("\"rawWidth\":\($0.split(separator: "x")[0])") } == true)
        #expect(field("Thumb size:").map { r.stdout.contains("\"preview\":[\($0.replacing("x", with: ","))]") } == true)
        #expect(field("Output size:") == "400x600")
        #expect(r.stdout.contains("\"uprightWidth\":400,\"uprightHeight\":600"))
        #expect(r.stdout.contains("\"format\":\"DNG\""))
    }

    /// libraw is opened on first use (CFZRaw/fz_raw_loader.c), not linked: the dynamic
    /// loader's trace of a JPEG crop names neither libraw nor its OpenMP runtime, that of a DNG
    /// develop names libraw_r, and the develop works through the forwarders.
    @Test func librawIsOpenedOnlyForRAW() {
        let jpeg = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")
        let out = FileSystem.join(CLI.scratch(), "o.png")
        let plain = HEIFWithoutLibheifCLITests.librariesLoaded(["crop", jpeg, "--at", "5,5", "--size", "8", "-o", out])
        #expect(plain.status == 0)
        #expect(plain.libraries.contains { $0.hasPrefix("libjpeg") || $0.hasPrefix("libturbojpeg") }, "\(plain)")
        #expect(!plain.libraries.contains { $0.contains("libraw") || $0.contains("libgomp") }, "\(plain.libraries)")
        let dng = FileSystem.join(Self.dir, "none.dng")
        let raw = HEIFWithoutLibheifCLITests.librariesLoaded(["crop", dng, "--at", "50,50", "--size", "8", "-o", out])
        #expect(raw.status == 0)
        #expect(raw.libraries.contains { $0.hasPrefix("libraw_r.so") }, "\(raw.libraries)")
        #expect(CLI.bytes(out).count > 8)
    }

    @Test func brokenFilesAreOneLine() {
        for (name, says) in [("lie.dng", "over"), ("cut.dng", "truncated")] {
            let input = FileSystem.join(Self.dir, name)
            for args in [["crop", input, "--at", "5,5", "--size", "16", "-o", FileSystem.join(CLI.scratch(), "o.png")]]
            {
                let r = CLI.run(args)
                #expect(r.status == 1, "\(name): \(r.status)")
                let lines = r.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].contains(input) && lines[0].contains(says), "\(name): \(r.stderr)")
            }
        }
        // No pixel limit, no memory limit: the file's own bytes cannot hold 15000x15000
        // samples, refused before libraw allocates (bounded memory).
        let r = CLI.run([
            "crop", FileSystem.join(Self.dir, "lie.dng"), "--max-pixels", "0", "--max-memory", "0", "--at", "5,5",
            "--size", "16", "-o", FileSystem.join(CLI.scratch(), "o.png"),
        ])
        #expect(r.status == 1 && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("cannot hold a 15000x15000 sensor's data"), "\(r.stderr)")
    }

    /// The stubs (real camera files without their image data): each is one line naming the
    /// file, never a black or noisy "photo"; info describes them honestly.
    @Test(.enabled(if: hasShared)) func stubsAreNamedNotShown() throws {
        let stubs = FileSystem.join(Self.shared, "stubs")
        for name in [
            "exiftool_CanonRaw_EOS-300D.crw", "exiftool_CanonRaw_EOS-M50.cr3", "exiftool_DNG_EOS-350D.dng",
            "exiftool_FujiFilm_S5Pro.raf", "exiftool_Minolta_DiMAGE-A2.mrw", "exiftool_Nikon_D70.nef",
            "exiftool_Panasonic_DMC-LX3.rw2", "exiftool_PhaseOne_Leaf-Credo40.iiq",
        ] {  // exiv2_Canon-R6-pruned.CR3 keeps its preview: RAWPreviewCLITests
            let input = FileSystem.join(stubs, name)
            guard FileSystem.kind(of: input) == .regular else { continue }
            let out = CLI.scratch()
            let r = CLI.run(["thumb", input, "--size", "64", "--out", out])
            #expect(r.status == 1, "\(name): \(r.stderr)")
            #expect(r.stderr.contains(input), "\(name): \(r.stderr)")
            let info = CLI.run(["info", input])
            // Either refused (libraw cannot read it) or described as holding no image data.
            #expect(info.status == 1 || info.stdout.contains("NO IMAGE DATA"), "\(name): \(info.stdout)\(info.stderr)")
        }
        // A JPEG named .nef is read as the JPEG it is.
        let jpeg = CLI.run(["info", FileSystem.join(stubs, "nikon_d70s_capturenx_jpeg_named.nef")])
        #expect(jpeg.status == 0 && jpeg.stdout.contains(": JPEG 2000x3008"), "\(jpeg.stdout)")
    }
}

extension String {
    fileprivate var trimmed: String {
        var s = Substring(self)
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
