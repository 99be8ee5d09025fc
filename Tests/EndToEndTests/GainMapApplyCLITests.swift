import FZSystem
import TestSupport
import Testing

/// `--gain-map apply` through the binary: a crop of a made Ultra HDR JPEG written as a 16-bit
/// PNG in BT.2100 PQ with its cICP chunk; at 0 stops of headroom it is the SDR crop itself in
/// PQ (checked against the published sRGB, BT.2020 and ST 2084 formulas in NumPy), with the
/// map's headroom it differs where the map has gain. (The kernel's numbers against a NumPy
/// transcription of the gain-map formulas are `GainMapRenditionTests`' part.) A JPEG output
/// with apply is SDR with one warning (thumb's renditions: `GainMapApplyThumbCLITests`).
@Suite("Gain maps applied")
struct GainMapApplyCLITests {
    static let ready = CLI.shell("\(CLI.python) -c 'import png, numpy' 2>/dev/null") == 0

    @Test(.enabled(if: ready && GainMapCarryCLITests.ready))
    func cropRendersPQ() throws {
        let dir = try GainMapCarryCLITests.input()
        let crop = ["crop", "uhdr.jpg", "--at", "61,45", "--size", "40", "--json"]
        for (extra, out, word) in [
            (["--gain-map", "apply", "--hdr-headroom", "0"], "h0.png", "applied"),
            (["--gain-map", "apply"], "h.png", "applied"), (["--gain-map", "drop"], "sdr.png", "dropped"),
        ] {
            let r = CLI.run(crop + extra + ["-o", out], in: dir)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(extra): \(r.stderr)")
            #expect(r.stdout.contains("\"gainMap\":\"\(word)\""), "\(r.stdout)")
        }
        let verdict = ColorCLITests.python(
            """
            import png, numpy as np, struct
            def chunks(p):
                b = open(p, 'rb').read(); i = 8; out = []
                while i < len(b):
                    n, = struct.unpack('>I', b[i:i + 4]); out.append((b[i + 4:i + 8], b[i + 8:i + 8 + n])); i += 12 + n
                return out
            def read16(p):
                w, h, rows, info = png.Reader(filename=p).asDirect()
                assert info['bitdepth'] == 16 and info['planes'] == 3, info
                return np.array([list(r) for r in rows], dtype=np.float64).reshape(h, w, 3)
            for p in ('h0.png', 'h.png'):
                names = [c[0] for c in chunks(p)]
                assert b'cICP' in names and names.index(b'cICP') < names.index(b'IDAT'), names
                assert dict(chunks(p))[b'cICP'] == bytes([9, 16, 0, 1])
                assert not {b'iCCP', b'sRGB', b'gAMA', b'cHRM'} & set(names), names
            sdr = png.Reader(filename='sdr.png').asDirect()
            s = np.array([list(r) for r in sdr[2]], dtype=np.float64).reshape(40, 40, -1)[:, :, :3] / 255
            lin = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
            m = np.array([[0.6274, 0.3293, 0.0433], [0.0691, 0.9195, 0.0114], [0.0164, 0.0880, 0.8956]])
            y = np.clip(lin @ m.T * 203 / 10000, 0, 1)
            m1, m2, c1, c2, c3 = 0.1593017578125, 78.84375, 0.8359375, 18.8515625, 18.6875
            pq = ((c1 + c2 * y ** m1) / (1 + c3 * y ** m1)) ** m2 * 65535
            h0, h = read16('h0.png'), read16('h.png')
            d = np.abs(h0 - pq)
            assert d.mean() < 4 and d.max() < 80, (d.mean(), d.max())
            assert np.abs(h - h0).max() > 1000, np.abs(h - h0).max()
            print('ok')
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
        let jpeg = CLI.run(crop + ["--gain-map", "apply", "-o", "h.jpg"], in: dir)
        #expect(
            jpeg.status == 0 && jpeg.stderr.contains("renders into PNG, HEIC and AVIF outputs only"), "\(jpeg.stderr)")
        #expect(jpeg.stdout.contains("\"gainMap\":\"dropped\""))
    }
}
