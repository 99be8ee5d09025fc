import FZSystem
import TestSupport
import Testing

/// `fixture kit --set hdr` (issue 39): exiftool reads each file's MPF and hdrgm XMP with the
/// manifest's values; the gain map exiftool extracts, decoded by Pillow, is the manifest's size
/// and every pixel is within `levels` of the gradient the manifest describes (a NumPy ramp),
/// its samples too, and their stops are the hdrgm formula's; Pillow opens an MPO of two frames.
/// Then `crop --lossless` keeps the 1/4 map on a 32-pixel grid and drops the 3/8 one with one
/// warning, leaving no MPF or hdrgm to announce it.
@Suite("fixture kit --set hdr")
struct FixtureKitHDRCLITests {
    static let ready = CLI.shell("command -v exiftool >/dev/null && \(CLI.python) -c 'import PIL, numpy'") == 0

    static let checker = """
        import json, subprocess
        import numpy as np
        from PIL import Image
        m = json.load(open('kit/MANIFEST.json'))
        for f in m['files']:
            g, path, problems = f['gainMap'], 'kit/' + f['path'], []
            x = json.loads(subprocess.run(['exiftool', '-j', '-n', '-MPF:NumberOfImages', '-XMP-hdrgm:Version', path],
                                          capture_output=True, text=True).stdout)[0]
            if x.get('NumberOfImages') != 2 or str(x.get('Version')) not in ('1', '1.0'): problems.append('primary %r' % x)
            gm = subprocess.run(['exiftool', '-b', '-MPImage2', path], capture_output=True).stdout
            open('gm.jpg', 'wb').write(gm)
            v = json.loads(subprocess.run(['exiftool', '-j', '-n', '-XMP-hdrgm:all', 'gm.jpg'],
                                          capture_output=True, text=True).stdout)[0]
            for key in ('gainMapMin', 'gainMapMax', 'gamma', 'offsetSDR', 'offsetHDR', 'hdrCapacityMin', 'hdrCapacityMax'):
                tag = key[0].upper() + key[1:] if not key.startswith('hdr') else 'HDR' + key[3:]
                got = v.get(tag)
                got = got if isinstance(got, list) else [got]
                want = g[key] if isinstance(g[key], list) else [g[key]]
                if len(got) != len(want) or any(abs(a - b) > 1e-9 for a, b in zip(got, want)):
                    problems.append('%s %r, manifest %r' % (tag, got, want))
            im = Image.open('gm.jpg')
            a = np.asarray(im).astype(int).reshape(g['height'], g['width'], -1)
            if im.size != (g['width'], g['height']) or a.shape[2] != g['channels']: problems.append('size %r' % (im.size,))
            else:
                w, h = g['width'], g['height']
                ramp_x = (255 * np.arange(w) + (w - 1) // 2) // (w - 1)
                ramp_y = (255 * np.arange(h) + (h - 1) // 2) // (h - 1)
                want = [np.tile(ramp_x, (h, 1)), np.tile(ramp_y[:, None], (1, w)), 255 - np.tile(ramp_x, (h, 1))]
                for c in range(g['channels']):
                    d = int(np.abs(a[:, :, c] - want[c]).max())
                    if d > g['levels']: problems.append('channel %d off by %d' % (c, d))
                for s in g['samples']:
                    for c in range(g['channels']):
                        lo, hi, gamma = (g[k][c] if len(g[k]) > 1 else g[k][0] for k in ('gainMapMin', 'gainMapMax', 'gamma'))
                        stops = lo + (hi - lo) * (s['value'][c] / 255) ** (1 / gamma)
                        if abs(a[s['mapY'], s['mapX'], c] - s['value'][c]) > g['levels'] or abs(stops - s['stops'][c]) > 1e-5:
                            problems.append('sample %r' % s)
                    cx = (s['mapX'] + 0.5) * f['width'] / g['width'] - 0.5
                    if abs(cx - s['x']) > 1e-5: problems.append('sample x %r' % s)
            p = Image.open(path)
            if p.format != 'MPO' or p.n_frames != 2: problems.append('Pillow %s' % p.format)
            print(f['path'] + ': ' + ('ok' if not problems else '; '.join(problems)))
        """

    @Test(.enabled(if: ready)) func filesAreUltraHDRWithTheManifestsGain() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let made = CLI.run(["fixture", "kit", "kit", "--set", "hdr"], in: dir)
        try #require(made.status == 0, "\(made)")
        #expect(made.stdout == "kit: 3 fixtures, 1 references, MANIFEST.json, MANIFEST.tsv\n")
        let out = ColorCLITests.python(Self.checker, in: dir)
        #expect(
            out
                == "hdr/ultrahdr-gray-quarter.jpg: ok\nhdr/ultrahdr-rgb-half.jpg: ok\nhdr/ultrahdr-gray-three-eighths.jpg: ok\n",
            "\(out)")

        // The 1/4 map is kept by a lossless crop, on lcm(16, 4 x 8) = 32 pixels.
        let kept = CLI.run(
            [
                "crop", "kit/hdr/ultrahdr-gray-quarter.jpg", "--at", "100,70", "--size", "40", "--lossless", "-o",
                "q.jpg",
                "--json",
            ], in: dir)
        #expect(kept.status == 0 && kept.stderr.isEmpty, "\(kept)")
        #expect(
            kept.stdout.contains("\"storedDeliveredRect\":{\"x\":64,\"y\":32,\"width\":64,\"height\":64}"), "\(kept)")
        #expect(
            kept.stdout.contains("\"gainMapCrop\":{\"storedRect\":{\"x\":16,\"y\":8,\"width\":16,\"height\":16}"),
            "\(kept)"
        )
        #expect(CLI.run(["info", "q.jpg"], in: dir).stdout.contains("gain map 16x16 gray"))

        // The 3/8 map cannot be: one warning naming the file, the crop written without it.
        let dropped = CLI.run(
            [
                "crop", "kit/hdr/ultrahdr-gray-three-eighths.jpg", "--at", "100,70", "--size", "40", "--lossless", "-o",
                "e.jpg", "--json",
            ], in: dir)
        #expect(dropped.status == 0, "\(dropped)")
        let warning = dropped.stderr.split(separator: "\n")
        #expect(
            warning.count == 1 && warning[0].contains("ultrahdr-gray-three-eighths.jpg")
                && warning[0].contains("gain map dropped") && warning[0].contains("96x72"), "\(dropped.stderr)")
        #expect(dropped.stdout.contains("\"gainMapCrop\":null"), "\(dropped.stdout)")
        let tags = CLI.shell(
            "exiftool -s -s -MPF:all -XMP-hdrgm:all -XMP-GContainer:all e.jpg > tags.txt && test ! -s tags.txt", in: dir
        )
        #expect(tags == 0, "\(CLI.read(FileSystem.join(dir, "tags.txt")))")
        let info = CLI.run(["info", "e.jpg"], in: dir)
        #expect(info.status == 0 && info.stderr.isEmpty && !info.stdout.contains("gain map"), "\(info)")
    }
}
