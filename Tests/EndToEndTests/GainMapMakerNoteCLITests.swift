import FZSystem
import TestSupport
import Testing

/// Apple gain-map JPEGs as iOS 14 to 17 wrote them (issue 51 item 11): the map's XMP has no
/// HDRGainMapHeadroom, the headroom is in the primary's Apple maker note. Made by
/// Tools/formats/make-apple-gainmap.py from ../shared/formats/hdr/libavif_apple_gainmap_new.jpg
/// (when present), one file per branch of Apple's formula: `info` reports the headroom Apple's
/// formula gives over exiftool's reading of HDRHeadroom and HDRGain, a crop keeps the map
/// (its Ultra HDR XMP's GainMapMax, read by exiftool, is log2 of that headroom), and a file
/// whose maker note was removed drops the map with one warning and a note.
@Suite("Gain maps from Apple's maker note")
struct GainMapMakerNoteCLITests {
    static let source = FileSystem.join(CLI.root, "../shared/formats/hdr/libavif_apple_gainmap_new.jpg")
    static let ready =
        FileSystem.kind(of: source) == .regular && CLI.shell("command -v exiftool >/dev/null") == 0
    static let made: String = {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/formats/make-apple-gainmap.py")
        _ = CLI.shell("/usr/bin/python3 \(CLI.quote(script)) \(CLI.quote(source)) \(CLI.quote(dir))")
        return dir
    }()

    /// Apple's formula ("Applying Apple HDR effect to your photos") over exiftool's tags,
    /// then forcezoom's `info` headroom and a crop's written GainMapMax, compared in Python.
    static let check = """
        import json, math, subprocess, sys
        src, info, out = sys.argv[1], sys.argv[2], sys.argv[3]
        def tags(path, *names):
            return json.loads(subprocess.run(['exiftool', '-j', '-n'] + list(names) + [path],
                                             capture_output=True, text=True).stdout)[0]
        x = tags(src, '-Apple:HDRHeadroom', '-Apple:HDRGain')
        m33, m48 = x['HDRHeadroom'], x.get('HDRGain', 0.0)
        if m33 < 1:
            stops = -20 * m48 + 1.8 if m48 <= 0.01 else -0.101 * m48 + 1.601
        else:
            stops = -70 * m48 + 3.0 if m48 <= 0.01 else -0.303 * m48 + 2.303
        headroom = 2 ** max(stops, 0)
        fz = json.load(open(info))['gainMap']
        subprocess.run('exiftool -b -MPImage2 %s > map.jpg' % out, shell=True, check=True)
        written = tags('map.jpg', '-XMP-hdrgm:GainMapMax').get('GainMapMax')
        ok = (fz['scheme'] == 'apple' and abs(fz['appleHeadroom'] - headroom) < 1e-4
              and written is not None and abs(written - math.log2(headroom)) < 1e-4)
        print('ok' if ok else 'exiftool %r %r: headroom %r; forcezoom %r, written GainMapMax %r'
              % (m33, m48, headroom, fz.get('appleHeadroom'), written))
        """

    @Test(.enabled(if: ready), arguments: ["as-shot", "low-gain", "low", "high-gain", "high"])
    func headroomFromMakerNote(_ name: String) {
        let file = FileSystem.join(Self.made, "apple-old-\(name).jpg")
        let r = CLI.run(["info", "--json", file])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let dir = CLI.scratch()
        CLI.write(FileSystem.join(dir, "fz.json"), Array(r.stdout.utf8))
        let out = FileSystem.join(dir, "crop.jpg")
        let crop = CLI.run(["crop", file, "--at", "50%,50%", "--size", "100", "-o", out, "--json"])
        #expect(crop.status == 0 && crop.stderr.isEmpty, "\(crop.stderr)")
        #expect(jsonString(crop.stdout, "gainMap") == "kept", "\(crop.stdout)")
        let script = FileSystem.join(dir, "check.py")
        CLI.write(script, Array(Self.check.utf8))
        _ = CLI.shell(
            "cd \(CLI.quote(dir)) && /usr/bin/python3 check.py \(CLI.quote(file)) fz.json \(CLI.quote(out)) > verdict 2>&1"
        )
        let verdict = CLI.read(FileSystem.join(dir, "verdict"))
        #expect(verdict.split(separator: "\n").last == "ok", "\(name): \(verdict)")
    }

    @Test(.enabled(if: ready))
    func noMakerNoteDropsTheMapWithANote() {
        let file = FileSystem.join(Self.made, "apple-old-nonote.jpg")
        let out = FileSystem.join(CLI.scratch(), "crop.jpg")
        let r = CLI.run(["crop", file, "--at", "50%,50%", "--size", "100", "-o", out, "--json"])
        #expect(r.status == 0)
        #expect(jsonString(r.stdout, "gainMap") == "dropped", "\(r.stdout)")
        #expect(jsonString(r.stdout, "gainMapNote")?.contains("maker note") == true, "\(r.stdout)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("headroom is missing"), "\(r.stderr)")
    }
}

/// A string member of a `--json` line, nil when absent or not a string.
private func jsonString(_ line: String, _ key: String) -> String? {
    guard case .string(let s)? = JSONValue.object(line)?[key] else { return nil }
    return s
}
