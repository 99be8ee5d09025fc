import FZSystem
import TestSupport
import Testing

/// HEIC outputs keep Apple's gain map (issue 39): a crop of the real iPhone HEIC (and of the real
/// Apple gain-map JPEG) written as HEIC has Apple's hdrgainmap auxiliary image, checked by
/// readers other than ours: pillow-heif (its own, newer libheif) lists the auxiliary image under
/// Apple's type, at the crop's size at the map's scale, with pixels equal (within HEVC's loss) to
/// a NumPy bilinear resample of the input's map, as pillow-heif decodes it, over the crop's
/// window; libheif 1.15's `heif-info -d` shows the `auxC` and the `auxl` reference; exiftool
/// reads the maker note's headroom tags equal to the input's. An Ultra HDR input written as HEIC
/// drops its map with the reason in --json. The iPhone file is in ../shared (skipped without it).
@Suite("HEIC outputs keep Apple's gain map")
struct HEICGainMapOutputCLITests {
    static let shared = FileSystem.join(CLI.root, "../shared/formats/hdr")
    static let heic = FileSystem.join(shared, "iphone13pro_pug_hdrgainmap.heic")
    static let ready =
        FileSystem.kind(of: heic) == .regular && CLI.shell("command -v exiftool heif-info >/dev/null") == 0
        && CLI.shell(
            "PYTHONPATH=\(CLI.quote(GainMapInfoCLITests.pillowHeif)) \(CLI.python) -c 'import pillow_heif, numpy' 2>/dev/null"
        ) == 0

    /// A 400 px crop at an odd origin (the map window then falls between map pixels) and a 301 px
    /// one (an odd-sized map: libheif 1.15 codes it as a grid of one tile), both where the map
    /// has the most detail (the smooth centre would hide a misplaced map).
    @Test(.enabled(if: ready), arguments: [("2601,2401", 400), ("801,201", 301)])
    func cropKeepsTheMap(_ at: String, _ side: Int) throws {
        let dir = CLI.scratch()
        let out = FileSystem.join(dir, "crop.heic")
        let r = CLI.run(["crop", Self.heic, "--at", at, "--size", "\(side)", "-o", out, "--json"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout.contains("\"gainMap\":\"kept\""), "\(r.stdout)")
        CLI.write(FileSystem.join(dir, "crop.json"), Array(r.stdout.utf8))
        // Our own reader: the map's size and channels, and the map decoded (a JPEG of it keeps it).
        let info = CLI.run(["info", "--json", out])
        CLI.write(FileSystem.join(dir, "info.json"), Array(info.stdout.utf8))
        let again = CLI.run([
            "crop", out, "--at", "50%,50%", "--size", "64", "-o", FileSystem.join(dir, "c.jpg"), "--json",
        ])
        #expect(again.status == 0 && again.stdout.contains("\"gainMap\":\"kept\""), "\(again.stderr)")
        let verdict = ColorCLITests.python(
            """
            import sys
            sys.path.insert(0, '\(GainMapInfoCLITests.pillowHeif)')
            import json, subprocess, numpy as np, pillow_heif
            apple = 'urn:com:apple:photo:2020:aux:hdrgainmap'
            crop = json.load(open('crop.json'))
            info = json.load(open('info.json'))['gainMap']
            src = pillow_heif.open_heif('\(Self.heic)')
            m = np.asarray(src.get_aux_image(src.info['aux'][apple][0]).to_pillow()).astype(float)
            out = pillow_heif.open_heif('crop.heic')
            ids = out.info['aux'].get(apple, [])
            got = np.asarray(out.get_aux_image(ids[0]).to_pillow()).astype(float)
            problems = []
            sx, sy = m.shape[1] / src.size[0], m.shape[0] / src.size[1]
            w = crop['window']
            want = (int(w['width'] * sx + 0.5), int(w['height'] * sy + 0.5))  # halves away from 0, as Swift's rounded()
            if (got.shape[1], got.shape[0]) != want: problems.append('map %r, want %r' % (got.shape, want))
            if (info['width'], info['height'], info['channels']) != (want[0], want[1], 1): problems.append('info %r' % info)
            # Each output map pixel's centre, back in the source map (bilinear, edges clamped).
            j, i = np.mgrid[0:got.shape[0], 0:got.shape[1]]
            x = (w['x'] + (i + 0.5) * w['width'] / got.shape[1]) * sx - 0.5
            y = (w['y'] + (j + 0.5) * w['height'] / got.shape[0]) * sy - 0.5
            x0, y0 = np.clip(np.floor(x).astype(int), 0, m.shape[1] - 2), np.clip(np.floor(y).astype(int), 0, m.shape[0] - 2)
            fx, fy = np.clip(x - x0, 0, 1), np.clip(y - y0, 0, 1)
            e = (m[y0, x0] * (1 - fx) * (1 - fy) + m[y0, x0 + 1] * fx * (1 - fy)
                 + m[y0 + 1, x0] * (1 - fx) * fy + m[y0 + 1, x0 + 1] * fx * fy)
            d = np.abs(got - e)[2:-2, 2:-2]
            # Measured: max 1.5 (HEVC at quality 95); the map shifted by half a map pixel gives 3.8-5.
            if d.mean() > 1 or d.max() > 3: problems.append('mean %.2f max %.1f' % (d.mean(), d.max()))
            dump = subprocess.run(['heif-info', '-d', 'crop.heic'], capture_output=True, text=True).stdout
            if 'aux type: ' + apple not in dump or "reference with type 'auxl'" not in dump: problems.append('heif-info')
            tags = ['-Apple:HDRHeadroom', '-Apple:HDRGain']
            a = json.loads(subprocess.run(['exiftool', '-j', '-n'] + tags + ['\(Self.heic)'], capture_output=True, text=True).stdout)[0]
            b = json.loads(subprocess.run(['exiftool', '-j', '-n'] + tags + ['crop.heic'], capture_output=True, text=True).stdout)[0]
            if 'HDRHeadroom' not in b or any(a.get(k) != b.get(k) for k in ('HDRHeadroom', 'HDRGain')): problems.append('maker note %r %r' % (a, b))
            print('mean %.3f max %.1f' % (d.mean(), d.max()))
            print('ok' if not problems else '; '.join(problems))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }

    /// A thumbnail in HEIC keeps the map, reduced to the thumbnail's size at the map's scale.
    @Test(.enabled(if: ready))
    func thumbKeepsTheMap() {
        let dir = CLI.scratch()
        let r = CLI.run(["thumb", Self.heic, "--size", "128", "--format", "heic", "--out", dir, "--json"])
        #expect(r.status == 0 && r.stdout.contains("\"gainMap\":\"kept\""), "\(r.stdout) \(r.stderr)")
        let out = FileSystem.join(dir, "iphone13pro_pug_hdrgainmap.thumb.heic")
        let verdict = ColorCLITests.python(
            """
            import sys
            sys.path.insert(0, '\(GainMapInfoCLITests.pillowHeif)')
            import pillow_heif
            h = pillow_heif.open_heif('\(out)')
            aux = h.get_aux_image(h.info['aux']['urn:com:apple:photo:2020:aux:hdrgainmap'][0])
            print('ok' if (h.size, aux.size) == ((128, 96), (64, 48)) else '%r %r' % (h.size, aux.size))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }

    /// Apple's gain-map JPEG keeps its map in an HEIC (headroom from its XMP); a Pixel Ultra
    /// HDR photo does not, and --json says why.
    @Test(.enabled(if: ready))
    func jpegInputs() {
        let dir = CLI.scratch()
        let apple = FileSystem.join(dir, "apple.heic")
        let a = CLI.run([
            "crop", FileSystem.join(Self.shared, "libavif_apple_gainmap_new.jpg"), "--at", "50%,50%", "--size", "64",
            "-o", apple, "--json",
        ])
        #expect(a.status == 0 && a.stdout.contains("\"gainMap\":\"kept\""), "\(a.stdout) \(a.stderr)")
        let info = CLI.run(["info", "--json", apple])
        #expect(info.stdout.contains("\"container\":\"HEIF auxiliary image\""), "\(info.stdout)")
        #expect(info.stdout.contains("\"appleHeadroom\":4.532783"), "\(info.stdout)")
        let pixel = CLI.run([
            "crop", FileSystem.join(Self.shared, "pixel6pro_ultrahdr_01.jpg"), "--at", "50%,50%", "--size", "64",
            "-o", FileSystem.join(dir, "pixel.heic"), "--json",
        ])
        #expect(pixel.status == 0 && pixel.stderr.isEmpty, "\(pixel.stderr)")
        #expect(
            pixel.stdout.contains("\"gainMap\":\"dropped\"") && pixel.stdout.contains("no headroom in Apple's form"))
    }
}
