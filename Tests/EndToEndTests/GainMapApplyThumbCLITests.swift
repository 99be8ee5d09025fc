import FZGainMap
import FZSystem
import TestSupport
import Testing

/// `thumb --gain-map apply` (one size and a ladder, written through the batch folder): each
/// PNG is the HDR rendition of that size, a 16-bit BT.2100 PQ PNG with its cICP chunk, equal
/// within one 16-bit level to the published formulas in NumPy applied to our own reduced SDR
/// pixels (the same command with `--gain-map drop`, an 8-bit PNG) under the reduced map.
///
/// Why that base and map: a NumPy Lanczos reduction of the JPEG primary would not reach one
/// level of 16 bits (DCT scaling, rounding), so the base is our SDR thumbnail, which the
/// rendition starts from. The map needs no transcription of our filter: it is a ramp,
/// 2x + 2y + 4 over 64x48 (a gray JPEG at quality 100 stores it exactly, checked), and any
/// symmetric normalized kernel reduces a ramp to the ramp at the output pixel's centre, and
/// bilinear sampling keeps it, so the expected gain at every output pixel is known exactly
/// wherever the Lanczos-3 footprint stays inside the map (edges, where it is cut, are left out:
/// 36 of 64 columns and 20 of 48 rows in the smallest size are checked). A map off by half a map pixel
/// is 1 to 2 sample levels off, hundreds of 16-bit levels.
@Suite("Gain maps applied to thumbnails")
struct GainMapApplyThumbCLITests {
    static let ready =
        CLI.shell("\(CLI.python) -c 'import png, numpy, PIL' 2>/dev/null") == 0

    /// `uhdr.jpg`: a 256x192 primary of smooth ramps (lossy codecs' outputs compare closely:
    /// `GainMapApplyHEIFCLITests`) and the 64x48 ramp map, min -1, max 2 stops, capacity 0-2.
    static func input() throws -> String {
        let dir = CLI.scratch()
        let made = ColorCLITests.python(
            """
            from PIL import Image
            import numpy as np
            y, x = np.mgrid[0:192, 0:256]
            Image.fromarray(np.dstack([x % 256, y * 255 // 191, (x + y) * 255 // 446]).astype('uint8')).save(
                'p.jpg', quality=90)
            y, x = np.mgrid[0:48, 0:64]
            m = (2 * x + 2 * y + 4).astype('uint8')
            Image.fromarray(m).save('m.jpg', quality=100)
            assert (np.asarray(Image.open('m.jpg')) == m).all(), 'the ramp map is not stored exactly'
            print('ok')
            """, in: dir)
        #expect(made.hasSuffix("ok\n"), "\(made)")
        let bytes = try UltraHDRContainer.assemble(
            primary: CLI.bytes(FileSystem.join(dir, "p.jpg")), gainMap: CLI.bytes(FileSystem.join(dir, "m.jpg")),
            parameters: GainMapCarryCLITests.parameters())
        CLI.write(FileSystem.join(dir, "uhdr.jpg"), bytes)
        return dir
    }

    @Test(.enabled(if: ready)) func thumbnailsAreTheRendition() throws {
        let dir = try Self.input()
        let runs: [[String]] = [
            ["--size", "128,64", "--gain-map", "apply", "--out", "hdr"],
            ["--size", "128,64", "--gain-map", "drop", "--out", "sdr"],
            ["--size", "128", "--gain-map", "apply", "--hdr-headroom", "2x", "-o", "half.png"],
            ["--size", "128", "--gain-map", "drop", "-o", "half-sdr.png"],
        ]
        for extra in runs {
            let r = CLI.run(["thumb", "uhdr.jpg", "--json"] + extra, in: dir)
            #expect(r.status == 0 && !r.stderr.contains("warning"), "\(extra): \(r.stderr)")
            let word = extra.contains("apply") ? "applied" : "dropped"
            #expect(r.stdout.contains("\"gainMap\":\"\(word)\""), "\(extra): \(r.stdout)")
        }
        // (HDR file, SDR file, weight): 2x is 1 stop of the map's 2, half the gain.
        let verdict = ColorCLITests.python(
            """
            import png, struct, numpy as np
            cases = [('hdr/uhdr-128.thumb.png', 'sdr/uhdr-128.thumb.png', 1.0),
                     ('hdr/uhdr-64.thumb.png', 'sdr/uhdr-64.thumb.png', 1.0), ('half.png', 'half-sdr.png', 0.5)]
            MW, MH, W, H = 64, 48, 256, 192
            lo, hi, k = -1.0, 2.0, 1 / 64
            def chunks(p):
                b = open(p, 'rb').read(); i = 8; out = []
                while i < len(b):
                    n, = struct.unpack('>I', b[i:i + 4]); out.append((b[i + 4:i + 8], b[i + 8:i + 8 + n])); i += 12 + n
                return out
            def read(p, depth):
                w, h, rows, info = png.Reader(filename=p).asDirect()
                assert info['bitdepth'] == depth and info['planes'] == 3, (p, info)
                return np.array([list(r) for r in rows], dtype=np.float64).reshape(h, w, 3)
            def matrix(prims):
                xy = np.array(prims); P = np.stack([xy[:, 0] / xy[:, 1], np.ones(3), (1 - xy[:, 0] - xy[:, 1]) / xy[:, 1]])
                Wt = np.array([0.3127 / 0.3290, 1.0, (1 - 0.3127 - 0.3290) / 0.3290])
                return P * np.linalg.solve(P, Wt)
            to2020 = np.linalg.inv(matrix([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)])) @ matrix(
                [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)])
            def pq(linear):
                m1, m2, c1, c2, c3 = 2610 / 16384, 2523 / 32, 3424 / 4096, 2413 / 128, 2392 / 128
                p = np.clip(linear * 203 / 10000, 0, 1) ** m1
                return ((c1 + c2 * p) / (1 + c3 * p)) ** m2
            problems = []
            for hdr_name, sdr_name, weight in cases:
                names = [c[0] for c in chunks(hdr_name)]
                if dict(chunks(hdr_name)).get(b'cICP') != bytes([9, 16, 0, 1]) or names.index(b'cICP') > names.index(b'IDAT'):
                    problems.append('%s: chunks %r' % (hdr_name, names))
                if {b'iCCP', b'sRGB', b'gAMA', b'cHRM'} & set(names): problems.append('%s: %r' % (hdr_name, names))
                hdr, s = read(hdr_name, 16), read(sdr_name, 8) / 255
                oh, ow = s.shape[:2]
                R = W / ow  # the map's reduction: source map pixels per reduced map pixel
                # Output pixel centres in source-map coordinates (pixel j's centre at j). Reduced
                # map pixel i (centre (i + 0.5) R in continuous coordinates) is exact where
                # Lanczos-3's footprint (radius 3R) stays inside the map; an output pixel's
                # bilinear taps are reduced pixels floor(t) and floor(t) + 1, t = (u + 0.5) / R - 0.5.
                u = (np.arange(ow) + 0.5) * MW / ow - 0.5
                v = (np.arange(oh) + 0.5) * MH / oh - 0.5
                def inside(c, n):
                    i = np.floor((c + 0.5) / R - 0.5)
                    return (i + 0.5 - 3) * R >= 0 and (i + 1.5 + 3) * R <= n
                cols = [x for x in range(ow) if inside(u[x], MW)]
                rows = [y for y in range(oh) if inside(v[y], MH)]
                if len(cols) < 8 or len(rows) < 4: problems.append('%s: %d x %d checked' % (hdr_name, len(cols), len(rows)))
                sample = (2 * u[None, :] + 2 * v[:, None] + 4) / 255
                gain = 2 ** ((lo * (1 - sample) + hi * sample) * weight)
                lin = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
                want = np.round(pq(((lin + k) * gain[:, :, None] - k) @ to2020.T) * 65535)
                d = np.abs(hdr - want)[rows][:, cols]
                if d.max() > 1: problems.append('%s: %d levels off (%d x %d checked)' % (hdr_name, d.max(), len(cols), len(rows)))
                flat = np.round(pq(lin @ to2020.T) * 65535)
                if np.abs(hdr - flat).max() < 1000: problems.append('%s: no gain seen' % hdr_name)
            print('\\n'.join(problems) or 'ok')
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }
}
