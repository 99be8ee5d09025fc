// Length: over 300 lines on purpose: most of it is the one NumPy reference (`verify`) every command's
// output is checked against, kept beside the cases that feed it.

import FZGainMap
import FZSystem
import TestSupport
import Testing

/// Gain maps carried through every command (issue 39, item 2): outputs are Ultra HDR JPEGs that
/// exiftool reads (MPF with 2 images, hdrgm XMP in the map) and Debian's Pillow opens as MPO of 2
/// frames, and the map, taken from exiftool's MPImage2 bytes, equals a NumPy resample of the
/// source map over the output's geometry (read back from --json, not from our code).
///
/// The input is made here: a 128x96 JPEG and a coordinate-encoding 32x24 RGB map (R = 8x + 4,
/// G = 8y + 4, B = 128: a map shifted by half a map pixel is 4 levels off) joined by
/// `UltraHDRContainer`; GainMapMin -1 and Max 2 make "no gain" the sample 85, so padding,
/// letterbox and rotated corners are checked too. Tolerance: the mean difference inside the map
/// at most 2 levels (a map off by half a map pixel is 4 levels off everywhere; measured 0.8-1.4),
/// any one sample at most 10 (our map JPEG, quality 95 4:4:4, rings up to 9 levels next to a
/// neutral edge); a band of 2.5 map pixels inside every edge and 4 outside, where kernels and
/// JPEG's blocks meet the border, is not checked.
@Suite("Gain maps carried")
struct GainMapCarryCLITests {
    static let ready =
        CLI.shell("command -v exiftool >/dev/null && \(CLI.python) -c 'import PIL, numpy' 2>/dev/null") == 0

    static func parameters(min: Double = -1, max: Double = 2) -> GainMapParameters {
        var p = GainMapParameters(scheme: .hdrgm, version: "1.0")
        p.gainMapMin = [min]
        p.gainMapMax = [max]
        p.hdrCapacityMax = 2
        return p
    }

    /// `uhdr.jpg` in a new folder: the primary (`w` x `h`) and the map (`mw` x `mh`) made by
    /// Pillow, joined with `p`.
    static func input(
        w: Int = 128, h: Int = 96, mw: Int = 32, mh: Int = 24, orientation: Int = 1,
        _ p: GainMapParameters = parameters()
    ) throws -> String {
        let dir = CLI.scratch()
        _ = ColorCLITests.python(
            """
            from PIL import Image
            import numpy as np
            y, x = np.mgrid[0:\(h), 0:\(w)]
            ex = Image.Exif()
            ex[0x0112] = \(orientation)
            Image.fromarray(np.dstack([x * 2 % 256, y * 2 % 256, (x + y) % 256]).astype('uint8')).save(
                'p.jpg', quality=90, exif=ex.tobytes())
            y, x = np.mgrid[0:\(mh), 0:\(mw)]
            m = np.dstack([(8 * x + 4) % 256, (8 * y + 4) % 256, x * 0 + 128]).astype('uint8')
            Image.fromarray(m).save('m.jpg', quality=100, subsampling=0)
            """, in: dir)
        let bytes = try UltraHDRContainer.assemble(
            primary: CLI.bytes(FileSystem.join(dir, "p.jpg")), gainMap: CLI.bytes(FileSystem.join(dir, "m.jpg")),
            parameters: p)
        CLI.write(FileSystem.join(dir, "uhdr.jpg"), bytes)
        return dir
    }

    /// The checks, in Python: `cases` is a list of (output file, affine image -> output as
    /// [a, b, c, d, tx, ty], output size, view clip or None).
    static let verify = """
        import json, subprocess, numpy as np
        from PIL import Image
        problems = []
        src = np.asarray(Image.open('m.jpg').convert('RGB')).astype(float)
        # The map follows the primary's EXIF orientation (6: turned clockwise to be upright).
        W, H = (128, 96) if ORIENT == 1 else (96, 128)
        if ORIENT == 6: src = np.rot90(src, -1)
        mh, mw = src.shape[:2]
        sx, sy = mw / W, mh / H
        def sample(u, v):
            # Bilinear at map coordinate (u, v), pixel centres at +0.5, edges clamped.
            u, v = min(max(u - 0.5, 0), mw - 1), min(max(v - 0.5, 0), mh - 1)
            x0, y0 = int(u), int(v)
            x1, y1 = min(x0 + 1, mw - 1), min(y0 + 1, mh - 1)
            fx, fy = u - x0, v - y0
            return (src[y0, x0] * (1 - fx) * (1 - fy) + src[y0, x1] * fx * (1 - fy)
                    + src[y1, x0] * (1 - fx) * fy + src[y1, x1] * fx * fy)
        for name, t, (ow, oh), clip in CASES:
            x = json.loads(subprocess.run(['exiftool', '-j', '-n', '-MPF:all', name], capture_output=True, text=True).stdout)[0]
            if x.get('NumberOfImages') != 2: problems.append('%s: MPF images %r' % (name, x.get('NumberOfImages'))); continue
            im = Image.open(name)
            if im.format != 'MPO' or getattr(im, 'n_frames', 1) != 2 or im.size != (ow, oh):
                problems.append('%s: Pillow %s %s frames %s' % (name, im.format, getattr(im, 'n_frames', 1), im.size))
            gm = subprocess.run(['exiftool', '-b', '-MPImage2', name], capture_output=True).stdout
            open('gm.jpg', 'wb').write(gm)
            g = json.loads(subprocess.run(['exiftool', '-j', '-n', '-XMP-hdrgm:all', 'gm.jpg'], capture_output=True, text=True).stdout)[0]
            if g.get('GainMapMin') != -1 or g.get('GainMapMax') != 2: problems.append('%s: hdrgm %r' % (name, g))
            out = np.asarray(Image.open('gm.jpg').convert('RGB')).astype(float)
            oh2, ow2 = out.shape[:2]
            want = (max(1, round(ow * sx)), max(1, round(oh * sy)))
            if (ow2, oh2) != want: problems.append('%s: map %dx%d, want %dx%d' % (name, ow2, oh2, *want)); continue
            a, b, c, d, tx, ty = t
            det = a * d - b * c
            inside = outside = worst = 0
            total = np.zeros(3)
            for j in range(oh2):
                for i in range(ow2):
                    px, py = (i + 0.5) * ow / ow2, (j + 0.5) * oh / oh2
                    # Output point -> image point (the inverse affine).
                    ix = (d * (px - tx) - c * (py - ty)) / det
                    iy = (-b * (px - tx) + a * (py - ty)) / det
                    u, v = ix * sx, iy * sy
                    if clip is not None:
                        cx, cy, hw, hh, rot = clip
                        r = np.radians(-rot)
                        lx = (px - cx) * np.cos(r) - (py - cy) * np.sin(r)
                        ly = (px - cx) * np.sin(r) + (py - cy) * np.cos(r)
                        if abs(lx) > hw + 8 or abs(ly) > hh + 8: e = 85
                        elif abs(lx) < hw - 8 and abs(ly) < hh - 8: e = None
                        else: continue
                        if e is not None:
                            diff = np.abs(out[j, i] - e).max(); outside += 1; worst = max(worst, diff)
                            if diff > 10: problems.append('%s: (%d,%d) %r, want neutral 85' % (name, i, j, out[j, i]))
                            continue
                    if 2.5 <= u <= mw - 2.5 and 2.5 <= v <= mh - 2.5:
                        e = sample(u, v)
                        diff = np.abs(out[j, i] - e); inside += 1; worst = max(worst, diff.max()); total += diff
                        if diff.max() > 10: problems.append('%s: (%d,%d) %r, want %r' % (name, i, j, out[j, i], e.round(1)))
                    elif u < -4 or v < -4 or u > mw + 4 or v > mh + 4:
                        diff = np.abs(out[j, i] - 85).max(); outside += 1; worst = max(worst, diff)
                        if diff > 10: problems.append('%s: (%d,%d) %r, want neutral 85' % (name, i, j, out[j, i]))
            if inside == 0: problems.append('%s: nothing compared' % name)
            mean = (total / max(inside, 1)).max()
            # A map off by half a map pixel is 4 levels off everywhere: the mean shows it.
            if mean > 2: problems.append('%s: mean error %.2f' % (name, mean))
            print(name, 'inside', inside, 'outside', outside, 'worst', worst, 'mean', mean)
        print('ok' if not problems else '; '.join(problems[:8]))
        """

    /// The output's affine (image -> output) from a crop record: the window at the zoom.
    static func cropAffine(_ r: JSONValue) -> [Double] {
        let z = r["zoom"]!.number!
        return [z, 0, 0, z, -r["window"]!["x"]!.number! * z, -r["window"]!["y"]!.number! * z]
    }

    @Test(.enabled(if: ready))
    func everyCommandCarriesTheMapAligned() throws {
        let dir = try Self.input()
        var cases: [String] = []
        func run(_ args: [String]) -> JSONValue? {
            let r = CLI.run(args + ["--json"], in: dir)
            // thumb says its summary on stderr: nothing else may be there.
            let said = r.stderr.split(separator: "\n").filter { !$0.contains(" thumbnail, 0 failed") }
            #expect(r.status == 0 && said.isEmpty, "\(args): \(r.stderr)")
            let last = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let record = JSONValue.parse(last)
            if let record, args[0] != "animate" { #expect(record["gainMap"]?.string == "kept", "\(args): \(last)") }
            return record
        }
        for (name, extra) in [
            ("c1", ["--size", "40"]), ("c2", ["--size", "40", "--zoom", "2"]),
            ("c15", ["--size", "41", "--zoom", "1.5"]),
            ("cpad", ["--size", "160"]), ("cedge", ["--size", "40", "--zoom", "0.5", "--at", "4,4"]),
        ] {
            let at = extra.contains("--at") ? [] : ["--at", "61,45"]
            guard let r = run(["crop", "uhdr.jpg"] + at + extra + ["-o", "\(name).jpg"]) else { continue }
            let side = Int(r["side"]!.number!)
            cases.append("('\(name).jpg', \(Self.cropAffine(r)), (\(side), \(side)), None)")
        }
        if let r = run(["fit", "uhdr.jpg", "--screen", "60x100", "-o", "fit.jpg"]) {
            cases.append("('fit.jpg', \(r["transform"]!.numbers!), (60, 100), None)")
        }
        if let r = run(["transform", "uhdr.jpg", "--rotate", "15", "-o", "rot.jpg"]) {
            let canvas = r["canvas"]!
            cases.append(
                "('rot.jpg', \(r["transform"]!.numbers!), (\(Int(canvas["width"]!.number!)), \(Int(canvas["height"]!.number!))), None)"
            )
        }
        if let r = run(["thumb", "uhdr.jpg", "--size", "48", "-o", "th.jpg"]) {
            let o = r["outputSize"]!
            let (w, h) = (o["width"]!.number!, o["height"]!.number!)
            cases.append("('th.jpg', [\(w / 128), 0, 0, \(h / 96), 0, 0], (\(Int(w)), \(Int(h))), None)")
        }
        // A ladder (one decode, the map read once): every size carries its own reduction of it.
        let ladder = CLI.run(
            ["thumb", "uhdr.jpg", "--size", "64,32", "--out", "lad", "--name", "%s-%z.jpg", "--json"], in: dir)
        #expect(ladder.status == 0, "\(ladder.stderr)")
        for line in ladder.stdout.split(separator: "\n") {
            guard let r = JSONValue.parse(String(line)), let o = r["outputSize"], let z = r["size"]?.string else {
                continue
            }
            #expect(r["gainMap"]?.string == "kept", "\(line)")
            let (w, h) = (o["width"]!.number!, o["height"]!.number!)
            cases.append("('lad/uhdr-\(z).jpg', [\(w / 128), 0, 0, \(h / 96), 0, 0], (\(Int(w)), \(Int(h))), None)")
        }
        if let r = run(["frame", "uhdr.jpg", "--view", "100x100", "--at", "50%,50%", "-o", "fr.jpg"]) {
            let ir = r["imageRect"]!
            let (x, y, w, h) = (ir["x"]!.number!, ir["y"]!.number!, ir["width"]!.number!, ir["height"]!.number!)
            cases.append("('fr.jpg', [\(w / 128), 0, 0, \(h / 96), \(x), \(y)], (100, 100), None)")
        }
        if let r = run([
            "animate", "uhdr.jpg", "--from", "10,10,40,30", "--screen", "80x120", "--frames", "3",
            "-o", "an%d.jpg",
        ]) {
            let rect = r["rect"]!
            let (x, y, w, h) = (rect["x"]!.number!, rect["y"]!.number!, rect["width"]!.number!, rect["height"]!.number!)
            cases.append(
                "('an3.jpg', \(r["transform"]!.numbers!), (80, 120), (\(x + w / 2), \(y + h / 2), \(w / 2), \(h / 2), \(r["rotation"]!.number!)))"
            )
        }
        let verdict = ColorCLITests.python(
            "ORIENT = 1\nCASES = [\(cases.joined(separator: ", "))]\n" + Self.verify, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }

    /// An input with EXIF orientation 6: the map is turned with the primary (Ultra HDR gives
    /// the map no orientation of its own), so a crop and a thumbnail of the upright photo carry
    /// the upright map.
    @Test(.enabled(if: ready))
    func theMapFollowsTheEXIFOrientation() throws {
        let dir = try Self.input(orientation: 6)
        var cases: [String] = []
        let c = CLI.run(["crop", "uhdr.jpg", "--at", "40%,60%", "--size", "40", "-o", "c.jpg", "--json"], in: dir)
        #expect(c.status == 0 && c.stderr.isEmpty, "\(c.stderr)")
        if let r = JSONValue.parse(c.stdout) {
            #expect(r["uprightSize"]?["width"]?.number == 96)
            cases.append("('c.jpg', \(Self.cropAffine(r)), (40, 40), None)")
        }
        let t = CLI.run(["thumb", "uhdr.jpg", "--size", "48", "-o", "t.jpg", "--json"], in: dir)
        if let r = JSONValue.parse(t.stdout), let o = r["outputSize"] {
            let (w, h) = (o["width"]!.number!, o["height"]!.number!)
            cases.append("('t.jpg', [\(w / 96), 0, 0, \(h / 128), 0, 0], (\(Int(w)), \(Int(h))), None)")
        }
        let verdict = ColorCLITests.python(
            "ORIENT = 6\nCASES = [\(cases.joined(separator: ", "))]\n" + Self.verify, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }

    /// `--gain-map drop`, and outputs in formats without a gain-map form: SDR, the input's
    /// hdrgm XMP left out, --json saying why.
    @Test(.enabled(if: ready))
    func droppedWhereAskedOrNotWritable() throws {
        let dir = try Self.input()
        for (args, note) in [
            (
                ["crop", "uhdr.jpg", "--at", "50%,50%", "--size", "40", "--gain-map", "drop", "-o", "d.jpg"],
                "--gain-map drop"
            ),
            (["fit", "uhdr.jpg", "--screen", "60x100", "-o", "d.png"], "PNG has no gain-map form"),
        ] {
            let r = CLI.run(args + ["--json"], in: dir)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            #expect(r.stdout.contains("\"gainMap\":\"dropped\"") && r.stdout.contains(note), "\(r.stdout)")
        }
        let x = CLI.run(["info", "--json", "d.jpg"], in: dir)
        #expect(x.stdout.contains("\"gainMap\":null"), "\(x.stdout)")
        #expect(CLI.shell("cd \(CLI.quote(dir)) && exiftool -XMP-hdrgm:all d.jpg | grep -q .") != 0)
    }

    /// A gain map that lies: one warning, the SDR image written, exit 0.
    @Test(.enabled(if: ready))
    func hostileMapsLeaveSDR() throws {
        // Values out of order (Max below Min), a map larger than the image, an MPF entry past the end.
        let disorder = try Self.input(Self.parameters(min: 2, max: -1))
        let larger = try Self.input(w: 24, h: 16, mw: 32, mh: 24)
        let cut = try Self.input()
        let whole = CLI.bytes(FileSystem.join(cut, "uhdr.jpg"))
        CLI.write(FileSystem.join(cut, "uhdr.jpg"), Array(whole.dropLast(200)))
        for (dir, words) in [(disorder, "below GainMapMin"), (larger, "larger than the image"), (cut, "past the end")] {
            let r = CLI.run(["crop", "uhdr.jpg", "--at", "50%,50%", "--size", "16", "-o", "o.jpg", "--json"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(words), "\(r.stderr)")
            #expect(r.stdout.contains("\"gainMap\":\"dropped\""), "\(r.stdout)")
            let info = CLI.run(["info", "--json", "o.jpg"], in: dir)
            #expect(info.status == 0 && info.stdout.contains("\"gainMap\":null"), "\(info.stdout)")
        }
    }

    static let shared = FileSystem.join(CLI.root, "../shared/formats/hdr")
    static let samplesReady =
        ready && FileSystem.kind(of: FileSystem.join(shared, "pixel6pro_ultrahdr_01.jpg")) == .regular

    /// Every real container (Pixel Ultra HDR, Adobe 3-channel, Apple JPEG, iPhone HEIC) through a
    /// crop (and the Adobe one through a thumbnail): Ultra HDR JPEGs exiftool and Pillow read, the map the output's size
    /// times the source's scale, and its values stated as hdrgm (Apple's headroom as GainMapMax).
    @Test(
        .enabled(if: samplesReady),
        arguments: [
            "pixel6pro_ultrahdr_01.jpg", "libavif_seine_sdr_gainmap_adobe.jpg", "libavif_apple_gainmap_new.jpg",
            "iphone13pro_pug_hdrgainmap.heic",
        ])
    func realSamples(_ name: String) {
        let file = FileSystem.join(Self.shared, name)
        let dir = CLI.scratch()
        let source = CLI.run(["info", "--json", file])
        guard let gm = JSONValue.parse(source.stdout)?["gainMap"] else {
            Issue.record("\(name): no gain map in info: \(source.stdout)")
            return
        }
        let (mw, mh) = (gm["width"]!.number!, gm["height"]!.number!)
        let max = gm["scheme"]?.string == "apple" ? "math.log2(\(gm["appleHeadroom"]!.number!))" : "None"
        // A thumbnail decodes the whole photo (DCT-scaled): only of the small Adobe sample.
        var runs = [("c.jpg", ["crop", file, "--at", "50%,50%", "--size", "64", "-o"])]
        if name.contains("adobe") { runs.append(("t.jpg", ["thumb", file, "--size", "96", "-o"])) }
        for (out, args) in runs {
            let r = CLI.run(args + [FileSystem.join(dir, out), "--json"])
            let said = r.stderr.split(separator: "\n").filter { !$0.contains(" thumbnail, 0 failed") }
            #expect(r.status == 0 && said.isEmpty && r.stdout.contains("\"gainMap\":\"kept\""), "\(r.stderr)")
        }
        let verdict = ColorCLITests.python(
            """
            import json, math, subprocess
            from PIL import Image
            problems = []
            info = json.loads(subprocess.run([\(pythonString(CLI.binary)), 'info', '--json', \(pythonString(file))],
                                             capture_output=True, text=True).stdout)
            uw, uh = info['uprightWidth'], info['uprightHeight']
            sx, sy = \(mw) / uw, \(mh) / uh
            if (uw < uh) != (\(mw) < \(mh)): sx, sy = \(mh) / uw, \(mw) / uh
            for name in \(runs.map(\.0)):
                im = Image.open(name)
                if im.format != 'MPO' or getattr(im, 'n_frames', 1) != 2: problems.append('%s: Pillow %s' % (name, im.format))
                gm = subprocess.run(['exiftool', '-b', '-MPImage2', name], capture_output=True).stdout
                open('gm.jpg', 'wb').write(gm)
                g = json.loads(subprocess.run(['exiftool', '-j', '-n', '-XMP-hdrgm:all', '-ImageWidth', '-ImageHeight', 'gm.jpg'],
                                              capture_output=True, text=True).stdout)[0]
                want = (max(1, round(im.size[0] * sx)), max(1, round(im.size[1] * sy)))
                if (g.get('ImageWidth'), g.get('ImageHeight')) != want: problems.append('%s: map %r, want %r' % (name, g, want))
                if \(max) is not None and abs(g.get('GainMapMax', 0) - \(max)) > 1e-4: problems.append('%s: GainMapMax %r' % (name, g))
                if 'Version' not in g: problems.append('%s: no hdrgm in the map' % name)
            print('ok' if not problems else '; '.join(problems))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(name): \(verdict)")
    }
}

private func pythonString(_ s: String) -> String {
    "'" + s.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
}

extension JSONValue {
    fileprivate static func parse(_ line: String) -> JSONValue? { object(line).map { .object($0) } }

    fileprivate subscript(_ key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    fileprivate var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    fileprivate var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    fileprivate var numbers: [Double]? {
        guard case .array(let a) = self else { return nil }
        return a.compactMap(\.number)
    }
}
