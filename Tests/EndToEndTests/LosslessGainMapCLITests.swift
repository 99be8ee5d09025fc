import FZSystem
import TestSupport
import Testing

/// `crop --lossless` on gain-map photos (issue 39): both the primary and the gain map are the
/// source's blocks. djpeg (no smoothing, so every pixel comes from its own block) decodes the
/// source's stored delivered rectangle and the crop, and the source's gain map (MPImage2, as
/// exiftool extracts it) at the map's rectangle and the crop's map: equal. exiftool reads the
/// crop's MPF and the same hdrgm (or Apple HDRGainMap) values as the source's map, and the same
/// maker-note tags (Apple's headroom); Pillow opens an MPO of two frames.
@Suite("crop --lossless with gain maps")
struct LosslessGainMapCLITests {
    static let shared = FileSystem.join(CLI.root, "../shared/formats/hdr")
    static let ready =
        FileSystem.kind(of: FileSystem.join(shared, "pixel6pro_ultrahdr_01.jpg")) == .regular
        && CLI.shell("command -v exiftool >/dev/null && command -v djpeg >/dev/null") == 0

    /// Prints one line per record: "ok" or what differs.
    static let checker = """
        import json, subprocess, sys
        import numpy as np
        from PIL import Image
        def pnm(data):
            parts = data.split(maxsplit=4)
            w, h = int(parts[1]), int(parts[2])
            c = 3 if parts[0] == b'P6' else 1
            return np.frombuffer(parts[4][:w * h * c], dtype=np.uint8).reshape(h, w, c)
        def djpeg(path, *flags):
            return pnm(subprocess.run(['djpeg', '-nosmooth', *flags, '-pnm', path], check=True, capture_output=True).stdout)
        def tool(*args):
            return subprocess.run(['exiftool', *args], check=True, capture_output=True).stdout
        def tags(path, *groups):
            d = json.loads(tool('-j', '-n', *groups, path))[0]
            d.pop('SourceFile', None)
            return d
        # The spec's defaults, which a writer may leave out (the Pixel's map has no Gamma).
        DEFAULTS = {'GainMapMin': 0, 'Gamma': 1, 'OffsetSDR': 1 / 64, 'OffsetHDR': 1 / 64, 'HDRCapacityMin': 0,
                    'BaseRenditionIsHDR': False}
        def map_values(path):
            d = tags(path, '-XMP-hdrgm:all', '-XMP-HDRGainMap:all')
            return dict(DEFAULTS, **d) if 'Version' in d else d
        src = sys.argv[1]
        open('src-map.jpg', 'wb').write(tool('-b', '-MPImage2', src))
        src_map, src_values = djpeg('src-map.jpg'), map_values('src-map.jpg')
        src_tags = tags(src, '-MakerNotes:all')
        for line in open(sys.argv[2]):
            r = json.loads(line)
            s, g, out = r['storedDeliveredRect'], r['gainMapCrop'], r['output']
            problems = []
            a = djpeg(src, '-crop', '%dx%d+%d+%d' % (s['width'], s['height'], s['x'], s['y']))
            if not np.array_equal(a, djpeg(out)): problems.append('primary differs')
            open('out-map.jpg', 'wb').write(tool('-b', '-MPImage2', out))
            m = g['storedRect']
            want = src_map[m['y']:m['y'] + m['height'], m['x']:m['x'] + m['width']]
            if not np.array_equal(want, djpeg('out-map.jpg')): problems.append('gain map differs')
            if g['storedRect']['x'] * g['scale']['width'] != s['x']: problems.append('map not aligned')
            out_tags = tags(out, '-MakerNotes:all', '-MPF:NumberOfImages')
            if out_tags.pop('NumberOfImages', None) != 2: problems.append('MPF')
            if out_tags != src_tags: problems.append('maker note')
            values = map_values('out-map.jpg')
            if not values or values != src_values: problems.append('map XMP %r, source %r' % (values, src_values))
            im = Image.open(out)
            if im.format != 'MPO' or im.n_frames != 2: problems.append('Pillow %s' % im.format)
            im.seek(1)
            print('ok' if not problems else out + ': ' + '; '.join(problems))
        """

    @Test(
        .enabled(if: ready),
        arguments: [
            ("pixel6pro_ultrahdr_01.jpg", 4, 32), ("libavif_seine_sdr_gainmap_adobe.jpg", 1, 8),
            ("libavif_apple_gainmap_new.jpg", 2, 16),
        ])
    func bothImagesAreTheSourcesBlocks(_ name: String, _ scale: Int, _ grid: Int) throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let file = FileSystem.join(Self.shared, name)
        // Inside, and at the right edge (the far side clamped to the image), near the top.
        let r = CLI.run(
            [
                "crop", file, "--at", "101,77", "--at", "99%,1%", "--size", "100", "--lossless", "-o", "c-%d.jpg",
                "--json",
            ],
            in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.contains("\"grid\":{\"width\":\(grid),\"height\":\(grid)}"), "\(r.stdout)")
        #expect(r.stdout.contains("\"scale\":{\"width\":\(scale),\"height\":\(scale)}"), "\(r.stdout)")
        CLI.write(FileSystem.join(dir, "records.jsonl"), Array(r.stdout.utf8))
        CLI.write(FileSystem.join(dir, "check.py"), Array(Self.checker.utf8))
        _ = CLI.shell("cd \(CLI.quote(dir)) && \(CLI.python) check.py \(CLI.quote(file)) records.jsonl > out.txt 2>&1")
        #expect(CLI.read(FileSystem.join(dir, "out.txt")) == "ok\nok\n", "\(CLI.read(FileSystem.join(dir, "out.txt")))")
        // Our reader finds the map again, at the crop's scale.
        let info = CLI.run(["info", "c-1.jpg"], in: dir)
        #expect(info.stdout.contains("gain map "), "\(info)")
    }
}
