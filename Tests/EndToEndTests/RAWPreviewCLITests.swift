import FZSystem
import TestSupport
import Testing

/// RAWs libraw cannot read, or that no header names (issue 51 item 12): a CR3 whose raw data
/// was pruned (../shared/formats/raw/stubs/exiv2_Canon-R6-pruned.CR3, when present) is its
/// embedded 1620x1080 JPEG preview, pixel for pixel the JPEG exiftool extracts
/// (`-b -PreviewImage`, decoded by djpeg), with one warning; a Kodak C330 `.raw` (no header:
/// libraw knows the camera by the file's size; made here, seeded noise of that size) is
/// developed, equal to `dcraw_emu -w -q 3` within 1 and named as raw-identify names it.
@Suite("RAW previews and headerless RAWs")
struct RAWPreviewCLITests {
    static let r6 = FileSystem.join(RAWCLITests.shared, "stubs/exiv2_Canon-R6-pruned.CR3")
    static let r6Ready =
        FileSystem.kind(of: r6) == .regular
        && CLI.shell("command -v exiftool >/dev/null && command -v djpeg >/dev/null") == 0

    @Test(.enabled(if: r6Ready))
    func prunedCR3IsItsPreviewWithAWarning() {
        let dir = CLI.scratch()
        let out = FileSystem.join(dir, "crop.png")
        let r = CLI.run(["crop", Self.r6, "--at", "810,540", "--size", "400", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1 && warnings[0].contains("1620x1080 JPEG preview is shown instead"), "\(r.stderr)")
        #expect(
            CLI.shell(
                "cd \(CLI.quote(dir)) && exiftool -b -PreviewImage \(CLI.quote(Self.r6)) > p.jpg && djpeg -pnm p.jpg > p.ppm"
            ) == 0)
        let verdict = ColorCLITests.python(
            """
            import numpy as np, png
            d = open('p.ppm', 'rb').read()
            parts = d.split(maxsplit=4)
            w, h = int(parts[1]), int(parts[2])
            ref = np.frombuffer(parts[4][-w * h * 3:], dtype='u1').reshape(h, w, 3).astype(int)[340:740, 610:1010]
            pw, ph, rows, info = png.Reader('crop.png').asDirect()
            out = np.array([list(r) for r in rows]).reshape(ph, pw, 3)
            print('ok' if (w, h) == (1620, 1080) and out.shape == ref.shape and (out == ref).all()
                  else 'preview %dx%d, crop %s, max diff %s' % (w, h, out.shape, np.abs(out - ref).max()))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
        let thumbs = CLI.scratch()
        let t = CLI.run(["thumb", Self.r6, "--size", "256", "--out", thumbs, "--json"])
        #expect(t.status == 0 && t.stdout.contains("\"outputSize\":{\"width\":256,\"height\":171}"), "\(t.stdout)")
        #expect(t.stderr.contains("JPEG preview is shown instead"), "\(t.stderr)")
    }

    /// 4,159,302 bytes: libraw's size for a Kodak C330 (2338x1779 raw).
    static let c330: String = {
        let dir = CLI.scratch()
        let script = "import random; r = random.Random(51); open('c330.raw', 'wb').write(r.randbytes(4159302))"
        _ = CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 -c \(CLI.quote(script)) && cp c330.raw c330.bin")
        return FileSystem.join(dir, "c330.raw")
    }()

    @Test(.enabled(if: RAWCLITests.hasTools))
    func headerlessKodakRAWIsDeveloped() {
        let info = CLI.run(["info", Self.c330])
        #expect(info.status == 0, "\(info.stderr)")
        let identify = FileSystem.join(CLI.scratch(), "identify.txt")
        _ = CLI.shell("raw-identify \(CLI.quote(Self.c330)) > \(CLI.quote(identify)) 2>&1")
        #expect(CLI.read(identify).contains("is a Kodak C330 image"))
        #expect(info.stdout.contains("Kodak C330"), "\(info.stdout)")
        let out = FileSystem.join(CLI.scratch(), "crop.png")
        let r = CLI.run(["crop", Self.c330, "--at", "600,500", "--size", "200", "--depth", "8", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let d = RAWCLITests.difference(out, Self.c330, flags: "-w -q 3", rect: (500, 400, 200, 200))
        #expect(Int(d).map { $0 <= 1 } == true, "\(d)")
        // Only a name that says RAW sends headerless bytes to libraw.
        let bin = CLI.run(["info", FileSystem.join(FileSystem.directory(of: Self.c330), "c330.bin")])
        #expect(bin.status == 1 && bin.stderr.contains("not an image"), "\(bin.stderr)")
    }
}
