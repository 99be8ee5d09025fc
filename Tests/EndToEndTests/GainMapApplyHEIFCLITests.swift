import FZHEIF
import FZSystem
import TestSupport
import Testing

/// `--gain-map apply` into HEIC and AVIF: a 10-bit HEIC (HEVC Main 10) and a 12-bit AVIF (why
/// 12: `HEIFPQWriter.swift`), each with an `nclx` colour box 9/16/9 full range (BT.2020, PQ,
/// BT.2020 matrix) and no ICC profile, read from the file's own bytes in Python and through
/// `info --json`; libheif's heif-convert decodes each to a 16-bit PNG whose samples are the PQ
/// PNG of the same command within the codec's loss.
///
/// Tolerance (16-bit levels, 64 to one 10-bit step; --quality 90, 4:2:0, on the smooth ramps
/// of `GainMapApplyThumbCLITests`' input): mean at most 100 and 99th percentile at most 400
/// (measured: HEIC 61 and 202, AVIF 66 and 226). The same files with the range flag cleared
/// decode 382 and 995 off, and a wrong bit scale or transfer is off by thousands; a BT.709
/// matrix stated instead of BT.2020 moves these low-saturation colours by only about 22 on
/// the mean, so the matrix is checked in the box itself.
@Suite("Gain maps applied to AVIF and HEIC")
struct GainMapApplyHEIFCLITests {
    static let ready =
        GainMapApplyThumbCLITests.ready && CLI.shell("command -v heif-convert >/dev/null") == 0
        && HEIFEncoder.available(avif: false)

    @Test(.enabled(if: ready)) func heifOutputsArePQ() throws {
        let dir = try GainMapApplyThumbCLITests.input()
        let avif = HEIFEncoder.available(avif: true)
        let outputs = ["h.png", "h.heic"] + (avif ? ["h.avif"] : [])
        for out in outputs {
            let r = CLI.run(
                [
                    "crop", "uhdr.jpg", "--at", "128,96", "--size", "64", "--gain-map", "apply", "--quality", "90",
                    "--json", "-o", out,
                ], in: dir)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(out): \(r.stderr)")
            #expect(r.stdout.contains("\"gainMap\":\"applied\""), "\(out): \(r.stdout)")
        }
        for (out, bits) in [("h.heic", 10), ("h.avif", 12)] where outputs.contains(out) {
            let info = CLI.run(["info", out, "--json"], in: dir)
            #expect(info.stdout.contains("\"bitDepth\":\(bits)"), "\(info.stdout)")
            #expect(info.stdout.contains("\"nclx\":[9,16,9,1]") && info.stdout.contains("\"icc\":false"))
        }
        let verdict = ColorCLITests.python(
            """
            import png, struct, subprocess, numpy as np
            def read(p):
                w, h, rows, info = png.Reader(filename=p).asDirect()
                return np.array([list(r) for r in rows], dtype=np.float64).reshape(h, w, -1), info['bitdepth']
            ref, _ = read('h.png')
            problems = []
            for name in \(outputs.dropFirst()):
                b = open(name, 'rb').read()
                i = b.find(b'colrnclx')
                if i < 0 or b.find(b'colrprof') >= 0: problems.append('%s: colr boxes' % name); continue
                nclx = struct.unpack('>HHHB', b[i + 8:i + 15])
                if nclx != (9, 16, 9, 0x80): problems.append('%s: nclx %r' % (name, nclx))
                subprocess.run(['heif-convert', name, name + '.png'], capture_output=True)
                got, depth = read(name + '.png')
                d = np.abs(got[:, :, :3] - ref)
                if depth != 16 or d.mean() > 100 or np.percentile(d, 99) > 400:
                    problems.append('%s: %d-bit, %.1f mean, %.1f p99 levels off' % (name, depth, d.mean(), np.percentile(d, 99)))
            print('\\n'.join(problems) or 'ok')
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }
}
