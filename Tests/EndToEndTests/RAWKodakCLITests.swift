import FZSystem
import TestSupport
import Testing

/// A Kodak KDC (issue 51 item 12: `thumb RAW_KODAK_DC50.KDC --size 256` gave its 96x64 TIFF
/// preview): Tools/formats/make-kdc.py writes a DC120 KDC as libraw reads one (no real KDC may be
/// copied here), whose IFD0 is a flat 96x72 RGB preview and whose raw IFD holds the sensor's
/// 848x976 samples. Its 256 px thumbnail is the develop, the size `dcraw_emu -w` gives scaled to
/// 256 (1301x976: libraw stretches the DC120's pixels by 1.53), and its pixels are the develop's
/// (within a few levels of Pillow's reduction of dcraw_emu's output), not the preview's colour.
/// About a second (one develop, one dcraw_emu).
@Suite("RAW: Kodak KDC")
struct RAWKodakCLITests {
    static let kdc: String = {
        let dir = CLI.scratch()
        let tool = FileSystem.join(CLI.root, "Tools/formats/make-kdc.py")
        precondition(CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(tool)) dc120.kdc") == 0)
        return FileSystem.join(dir, "dc120.kdc")
    }()

    @Test(.enabled(if: RAWCLITests.hasTools))
    func thumbnailIsTheDevelopNotTheSmallPreview() {
        let dir = FileSystem.directory(of: Self.kdc)
        // libraw names it as a DC120 with a 96x72 thumbnail; a TIFF reader would show that.
        _ = CLI.shell("cd \(CLI.quote(dir)) && raw-identify -v dc120.kdc > identify.txt 2>&1")
        let identify = CLI.read(FileSystem.join(dir, "identify.txt"))
        #expect(identify.contains("Camera: Kodak DC120") && identify.contains("Thumb size:    96 x 72"), "\(identify)")
        #expect(CLI.shell("cd \(CLI.quote(dir)) && dcraw_emu -w -Z ref.ppm dc120.kdc 2>/dev/null") == 0)
        let header = CLI.read(FileSystem.join(dir, "ref.ppm")).prefix(32).split(whereSeparator: \.isWhitespace)
        let (w, h) = (header.count > 2 ? Int(header[1]) ?? 0 : 0, header.count > 2 ? Int(header[2]) ?? 0 : 0)
        #expect((w, h) == (1301, 976), "dcraw_emu developed \(w)x\(h)")
        guard w > 0, h > 0 else { return }
        let height = Int((Double(h) * 256 / Double(w)).rounded())

        let info = CLI.run(["info", Self.kdc])
        #expect(info.status == 0 && info.stdout.contains("Kodak DC120"), "\(info.stdout)\(info.stderr)")
        let out = FileSystem.join(dir, "thumbs")
        let t = CLI.run(["thumb", Self.kdc, "--size", "256", "--out", out, "--json"])
        #expect(t.status == 0, "\(t.stderr)")
        #expect(t.stdout.contains("\"outputSize\":{\"width\":256,\"height\":\(height)}"), "\(t.stdout)")
        #expect(t.stdout.contains("\"embeddedThumbnail\":false"), "\(t.stdout)")
        let verdict = ColorCLITests.python(
            """
            import numpy as np
            from PIL import Image
            out = np.asarray(Image.open('thumbs/dc120.thumb.png').convert('RGB')).astype(int)
            ref = np.asarray(Image.open('ref.ppm').resize((out.shape[1], out.shape[0]), Image.LANCZOS)).astype(int)
            mean = np.abs(out - ref).mean()
            flat = np.abs(out - np.array([200, 200, 40])).mean()
            print('ok' if mean <= 4 and flat > 40 else 'mean difference %.1f, from the preview %.1f' % (mean, flat))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }
}
