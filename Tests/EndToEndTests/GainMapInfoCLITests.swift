import FZSystem
import TestSupport
import Testing

/// `info` on HDR gain-map photos (issue 39): the gain map's place, size, channels and XMP values
/// equal exiftool's reading of the same file (MPImageStart/Length of MPImage2, then the extracted
/// gain map's XMP-hdrgm or XMP-HDRGainMap values, ImageWidth/Height, ColorComponents), for every
/// real sample in ../shared/formats/hdr; and a gain map that lies (an MPF entry past the end, values
/// out of order or absurd) is one warning, the image still described, exit 0.
@Suite("Gain maps in info")
struct GainMapInfoCLITests {
    static let shared = FileSystem.join(CLI.root, "../shared/formats/hdr")
    static let samples = [
        "pixel6pro_ultrahdr_01.jpg", "libavif_seine_sdr_gainmap_adobe.jpg", "libavif_apple_gainmap_new.jpg",
    ]
    static let ready =
        FileSystem.kind(of: FileSystem.join(shared, samples[0])) == .regular
        && CLI.shell("command -v exiftool >/dev/null") == 0

    @Test(.enabled(if: ready), arguments: samples)
    func agreesWithExiftool(_ name: String) {
        let file = FileSystem.join(Self.shared, name)
        let r = CLI.run(["info", "--json", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        let dir = CLI.scratch()
        CLI.write(FileSystem.join(dir, "fz.json"), Array(r.stdout.utf8))
        let verdict = ColorCLITests.python(
            """
            import json, subprocess
            src = \(pythonString(file))
            fz = json.load(open('fz.json'))['gainMap']
            where = json.loads(subprocess.run(['exiftool', '-j', '-n', '-MPImageStart', '-MPImageLength', src],
                                              capture_output=True, text=True).stdout)[0]
            gm = subprocess.run(['exiftool', '-b', '-MPImage2', src], capture_output=True).stdout
            open('gm.jpg', 'wb').write(gm)
            x = json.loads(subprocess.run(['exiftool', '-j', '-n', '-XMP-hdrgm:all', '-XMP-HDRGainMap:all', '-ImageWidth',
                                           '-ImageHeight', '-ColorComponents', 'gm.jpg'], capture_output=True, text=True).stdout)[0]
            problems = []
            def want(key, a, b):
                if isinstance(b, list) or isinstance(a, list):
                    a, b = (a if isinstance(a, list) else [a]), (b if isinstance(b, list) else [b])
                    same = len(a) == len(b) and all(abs(p - q) < 1e-9 for p, q in zip(a, b))
                elif isinstance(a, float) or isinstance(b, float):
                    same = abs(a - b) < 1e-9
                else:
                    same = a == b
                if not same:
                    problems.append('%s: forcezoom %r, exiftool %r' % (key, a, b))
            want('offset', fz['offset'], where['MPImageStart'])
            want('bytes', fz['bytes'], where['MPImageLength'])
            want('width', fz['width'], x['ImageWidth'])
            want('height', fz['height'], x['ImageHeight'])
            want('channels', fz['channels'], x['ColorComponents'])
            if 'HDRGainMapHeadroom' in x:
                want('scheme', fz['scheme'], 'apple')
                want('appleHeadroom', fz['appleHeadroom'], x['HDRGainMapHeadroom'])
            else:
                want('scheme', fz['scheme'], 'hdrgm')
                for key, default in [('GainMapMin', 0), ('GainMapMax', None), ('Gamma', 1), ('OffsetSDR', 1 / 64),
                                     ('OffsetHDR', 1 / 64), ('HDRCapacityMin', 0), ('HDRCapacityMax', None)]:
                    ours = fz[key[0].lower() + key[1:]] if not key.startswith('HDR') else fz['hdr' + key[3:]]
                    want(key, ours, x.get(key, default))
                want('BaseRenditionIsHDR', fz['baseRenditionIsHDR'], bool(x.get('BaseRenditionIsHDR', False)))
            print('ok' if not problems else '; '.join(problems))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(name): \(verdict)")
        let text = CLI.run(["info", file])
        #expect(text.stdout.contains("gain map "), "\(text.stdout)")
    }

    static let heic = FileSystem.join(shared, "iphone13pro_pug_hdrgainmap.heic")
    static let heicReady =
        FileSystem.kind(of: heic) == .regular && CLI.shell("command -v exiftool >/dev/null") == 0
        && CLI.shell("PYTHONPATH=\(CLI.quote(pillowHeif)) \(CLI.python) -c 'import pillow_heif' 2>/dev/null") == 0
    /// Where `make deps` puts pillow-heif and the Pillow it needs (Makefile, PILLOW_HEIF).
    static let pillowHeif = FileSystem.join(CLI.root, ".cache/pillow-heif")

    /// Apple's HEIC: the auxiliary image pillow-heif lists under Apple's type (item, size) is the
    /// one reported, and the headroom is Apple's formula over exiftool's maker-note tags 33 and 48.
    @Test(.enabled(if: heicReady))
    func appleHEICAgreesWithPillowHeifAndExiftool() {
        let r = CLI.run(["info", "--json", Self.heic])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let dir = CLI.scratch()
        CLI.write(FileSystem.join(dir, "fz.json"), Array(r.stdout.utf8))
        let verdict = ColorCLITests.python(
            """
            import sys
            sys.path.insert(0, '\(Self.pillowHeif)')
            import json, subprocess, pillow_heif
            src = '\(Self.heic)'
            fz = json.load(open('fz.json'))['gainMap']
            h = pillow_heif.open_heif(src)
            item = h.info['aux']['urn:com:apple:photo:2020:aux:hdrgainmap'][0]
            aux = h.get_aux_image(item)
            x = json.loads(subprocess.run(['exiftool', '-j', '-n', '-Apple:HDRHeadroom', '-Apple:HDRGain', src],
                                          capture_output=True, text=True).stdout)[0]
            m33, m48 = x['HDRHeadroom'], x.get('HDRGain', 0.0)
            if m33 < 1:
                stops = -20 * m48 + 1.8 if m48 <= 0.01 else -0.101 * m48 + 1.601
            else:
                stops = -70 * m48 + 3.0 if m48 <= 0.01 else -0.303 * m48 + 2.303
            headroom = 2 ** max(stops, 0)
            got = (fz['container'], fz['item'], fz['width'], fz['height'], fz['channels'], fz['scheme'])
            want = ('HEIF auxiliary image', item, aux.size[0], aux.size[1], 1, 'apple')
            ok = got == want and abs(fz['appleHeadroom'] - headroom) < 1e-5
            print('ok' if ok else 'forcezoom %r %r, pillow-heif/exiftool %r %r' % (got, fz['appleHeadroom'], want, headroom))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }

    /// Apple's gain map said to be larger than the photo (its `ispe` edited in place): one
    /// warning, the photo still described, no gain map.
    @Test(.enabled(if: heicReady))
    func appleGainMapLargerThanThePhotoWarns() throws {
        var bytes = CLI.bytes(Self.heic)
        // ispe, version and flags, then 2016 and 1512 as 32-bit big-endian numbers.
        let ispe: [UInt8] = Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 0x07, 0xE0, 0, 0, 0x05, 0xE8]
        let at = try #require(
            (0..<(bytes.count - ispe.count)).first { bytes[$0] == 0x69 && Array(bytes[$0..<($0 + ispe.count)]) == ispe }
        )
        bytes[at + 10] = 0x17  // width 6112, over the photo's 4032 (within libheif's own limit)
        let file = FileSystem.join(CLI.scratch(), "wide-gain.heic")
        CLI.write(file, bytes)
        let r = CLI.run(["info", "--json", file])
        #expect(r.status == 0)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("larger than the image"), "\(r.stderr)")
        #expect(r.stdout.contains("\"gainMap\":null"))
    }

    /// The Pixel sample with one thing broken, by a same-length edit (so every offset holds).
    static let lies: [(name: String, find: String, replace: String, says: String)] = [
        ("max-below-min", "hdrgm:GainMapMin=\"0.000000\"", "hdrgm:GainMapMin=\"9.000000\"", "below GainMapMin"),
        ("absurd", "hdrgm:GainMapMax=\"2.656715\"", "hdrgm:GainMapMax=\"1e308   \"", "GainMapMax"),
        ("nan", "hdrgm:HDRCapacityMax=\"2.656715\"", "hdrgm:HDRCapacityMax=\"nan     \"", "HDRCapacityMax"),
        (
            "no-version", "hdrgm:Version=\"1.0\"\n   hdrgm:GainMapMin", "hdrgm:Vxxxxxx=\"1.0\"\n   hdrgm:GainMapMin",
            "Version"
        ),
    ]

    @Test(.enabled(if: ready), arguments: lies.map(\.name))
    func lyingValuesWarnOnce(_ which: String) throws {
        let lie = try #require(Self.lies.first { $0.name == which })
        var bytes = CLI.bytes(FileSystem.join(Self.shared, Self.samples[0]))
        // The gain map's XMP: the last occurrence (the primary's XMP has hdrgm:Version only).
        let find = Array(lie.find.utf8)
        let replace = Array(lie.replace.utf8)
        precondition(find.count == replace.count)
        var at: Int?
        var k = bytes.count - find.count
        while k >= 0 {
            if bytes[k] == find[0] && Array(bytes[k..<(k + find.count)]) == find {
                at = k
                break
            }
            k -= 1
        }
        let hit = try #require(at, "\(lie.find) not in the sample")
        bytes.replaceSubrange(hit..<(hit + find.count), with: replace)
        let file = FileSystem.join(CLI.scratch(), "\(which).jpg")
        CLI.write(file, bytes)
        let r = CLI.run(["info", "--json", file])
        #expect(r.status == 0)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("gain map ignored") && lines[0].contains(lie.says), "\(r.stderr)")
        #expect(r.stdout.contains("\"gainMap\":null") && r.stdout.contains("\"gainMapIgnored\""), "\(r.stdout)")
    }

    /// An MPF entry that points past the end of the file, and a file cut inside its gain map.
    @Test(.enabled(if: ready))
    func mpfPastTheEndWarns() {
        let source = CLI.bytes(FileSystem.join(Self.shared, Self.samples[0]))
        let cut = FileSystem.join(CLI.scratch(), "cut.jpg")
        CLI.write(cut, Array(source[..<(source.count - 1000)]))
        let r = CLI.run(["info", "--json", cut])
        #expect(r.status == 0)
        #expect(r.stderr.contains("gain map ignored") && r.stderr.contains("past the end"), "\(r.stderr)")
        // Without an MPF segment (renamed), there is no gain map and no warning.
        var plain = source
        // The APP2 segment's signature: FF E2, two length bytes, "MPF\0".
        let app2: [UInt8] = [0xFF, 0xE2]
        let mpf = Array("MPF\0".utf8)
        let k = (0..<(1 << 20)).first {
            Array(plain[$0..<($0 + 2)]) == app2 && Array(plain[($0 + 4)..<($0 + 8)]) == mpf
        }
        #expect(k != nil)
        if let k { plain[k + 4] = 0x58 }
        let none = FileSystem.join(CLI.scratch(), "none.jpg")
        CLI.write(none, plain)
        let n = CLI.run(["info", "--json", none])
        #expect(n.status == 0 && n.stderr.isEmpty && n.stdout.contains("\"gainMap\":null"), "\(n.stderr)")
    }

    private func pythonString(_ s: String) -> String {
        "'" + s.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
