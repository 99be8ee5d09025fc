// Length: one suite of hand-stated mappings, one per command that writes an image.
import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// Regions follow every output (issue 49 item 4): files tagged by exiftool with MWG ("Alice"),
/// Microsoft ("Bob") and IPTC ("Carol", "Dan") regions (`RegionsCLITests.tagged`, upright
/// 240x160) go through crop, thumb (and a ladder), transform, frame, fit and animate, and
/// exiftool reads the output's regions back: each points at the pixels the test maps by hand
/// from the input's (within one output pixel), a region outside the output is gone, a cut
/// one clipped. `--strip` leaves none; `--no-names` keeps the regions without their names.
/// Adds about 40 s on the shared 2-core machine (two dozen small files, an exiftool run for each;
/// the tests run in parallel, so less on a free one).
@Suite("Regions follow outputs", .enabled(if: haveExiftool, "needs exiftool (libimage-exiftool-perl); skipped"))
struct RegionsCarryCLITests {
    /// The input's regions in upright pixels [x, y, width, height], from the tags written by
    /// `RegionsCLITests.tagged` (upright 240x160, orientation 1): Alice's MWG centre 0.3,0.25
    /// size 0.2x0.3; Bob's Microsoft rectangle 0.1,0.2 0.3x0.4; Carol's IPTC relative 0.5,0.6
    /// 0.25x0.2; Dan's IPTC pixels 10,20 40x30.
    static let input: [String: [Double]] = [
        "Alice": [48, 16, 48, 48], "Bob": [24, 32, 72, 64], "Carol": [120, 96, 60, 32], "Dan": [10, 20, 40, 30],
    ]

    /// One region as exiftool reads it from an output, in output pixels.
    struct Found {
        var name: String?
        var rect: [Double]
    }

    /// exiftool's reading of `path`: per form ("mwg", "mp", "iptc") its regions in pixels of
    /// the output (MWG's centre and size and IPTC's relative rectangle times the image's size,
    /// Microsoft's rectangle times it too: every output here is upright), the applied
    /// dimensions, the size, and the people named by PersonInImage.
    static func read(_ path: String) -> (regions: [String: [Found]], applied: [Double], size: [Double], people: Int) {
        let out = path + ".exif.json"
        _ = CLI.shell(
            "exiftool -j -n -struct -ImageWidth -ImageHeight -Orientation -XMP-mwg-rs:all -XMP-MP:all -XMP-iptcExt:all \(CLI.quote(path)) | \(CLI.python) -c 'import json,sys; print(json.dumps(json.load(sys.stdin)[0]))' > \(CLI.quote(out))"
        )
        guard let top = JSONValue.object(CLI.read(out)) else { return ([:], [], [], 0) }
        func num(_ o: [String: JSONValue], _ k: String) -> Double {
            if case .number(let n)? = o[k] { return n }
            return .nan
        }
        let size = [num(top, "ImageWidth"), num(top, "ImageHeight")]
        var regions: [String: [Found]] = [:]
        var applied: [Double] = []
        if case .object(let info)? = top["RegionInfo"] {
            if case .object(let d)? = info["AppliedToDimensions"] { applied = [num(d, "W"), num(d, "H")] }
            if case .array(let list)? = info["RegionList"] {
                for case .object(let r) in list {
                    guard case .object(let a)? = r["Area"] else { continue }
                    let (w, h) = (num(a, "W") * size[0], num(a, "H") * size[1])
                    let rect = [num(a, "X") * size[0] - w / 2, num(a, "Y") * size[1] - h / 2, w, h]
                    regions["mwg", default: []].append(Found(name: r["Name"]?.string, rect: rect))
                }
            }
        }
        if case .object(let info)? = top["RegionInfoMP"], case .array(let list)? = info["Regions"] {
            for case .object(let r) in list {
                guard case .string(let text)? = r["Rectangle"] else { continue }
                let v = text.split(separator: ",").compactMap { Double(String($0.filter { $0 != " " })) }
                guard v.count == 4 else { continue }
                let rect = [v[0] * size[0], v[1] * size[1], v[2] * size[0], v[3] * size[1]]
                regions["mp", default: []].append(Found(name: r["PersonDisplayName"]?.string, rect: rect))
            }
        }
        if case .array(let list)? = top["ImageRegion"] {
            for case .object(let r) in list {
                guard case .object(let b)? = r["RegionBoundary"] else { continue }
                let rect = [
                    num(b, "RbX") * size[0], num(b, "RbY") * size[1], num(b, "RbW") * size[0], num(b, "RbH") * size[1],
                ]
                regions["iptc", default: []].append(Found(name: r["Name"]?.string, rect: rect))
            }
        }
        var people = 0
        if case .array(let list)? = top["PersonInImage"] { people = list.count }
        if case .string? = top["PersonInImage"] { people = 1 }
        return (regions, applied, size, people)
    }

    /// The rectangle through `map` (a point map: both corners, then ordered), clipped to
    /// `size`; nil when under half a pixel of it is left along a side (the region is dropped).
    static func expected(_ r: [Double], size: (Double, Double), _ map: (Double, Double) -> (Double, Double))
        -> [Double]?
    {
        let a = map(r[0], r[1])
        let b = map(r[0] + r[2], r[1] + r[3])
        let x0 = min(max(min(a.0, b.0), 0), size.0)
        let x1 = min(max(max(a.0, b.0), 0), size.0)
        let y0 = min(max(min(a.1, b.1), 0), size.1)
        let y1 = min(max(max(a.1, b.1), 0), size.1)
        guard x1 - x0 >= 0.5, y1 - y0 >= 0.5 else { return nil }
        return [x0, y0, x1 - x0, y1 - y0]
    }

    /// Checks that exiftool reads from `path` every input region mapped by `map` into an output
    /// of `size`: in MWG form all of them, Bob also in Microsoft form, Carol and Dan also in
    /// IPTC form, each within a pixel; the dropped ones in none. Returns how many were kept.
    @discardableResult
    static func check(
        _ path: String, size: (Double, Double), _ label: String, inputs: [String: [Double]] = input,
        _ map: (Double, Double) -> (Double, Double)
    ) -> Int {
        let got = read(path)
        #expect(got.size == [size.0, size.1], "\(label): size \(got.size)")
        var kept = 0
        let forms: [(String, Set<String>)] = [
            ("mwg", ["Alice", "Bob", "Carol", "Dan"]), ("mp", ["Bob"]), ("iptc", ["Carol", "Dan"]),
        ]
        for (form, names) in forms {
            let found = got.regions[form] ?? []
            for name in names.sorted() {
                guard let r = inputs[name] else { continue }
                let want = expected(r, size: size, map)
                let have = found.first { $0.name == name }
                if let want {
                    guard let have else {
                        Issue.record(
                            "\(label): \(form) region \(name) missing (want \(want)); exiftool read \(got.regions)")
                        continue
                    }
                    for (h, w) in zip(have.rect, want) {
                        #expect(abs(h - w) <= 1, "\(label): \(form) \(name) \(have.rect) against \(want)")
                    }
                    if form == "mwg" { kept += 1 }
                } else {
                    #expect(have == nil, "\(label): \(form) \(name) should be dropped, read \(have?.rect ?? [])")
                }
            }
            #expect(found.count == names.filter { inputs[$0].flatMap { expected($0, size: size, map) } != nil }.count)
        }
        if kept > 0 { #expect(got.applied == [size.0, size.1], "\(label): AppliedToDimensions \(got.applied)") }
        return kept
    }

    static func tagged() throws -> (dir: String, path: String) {
        let path = try #require(RegionsCLITests.tagged(1), "could not tag a fixture with exiftool")
        return (FileSystem.directory(of: path), path)
    }

    @Test("crop: the window's regions at 1:1, a cut one clipped, one outside it dropped")
    func crop() throws {
        let (dir, src) = try Self.tagged()
        let r = CLI.run(["crop", src, "--at", "100,80", "--size", "100", "-o", "c.png", "--json"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        // The window starts 50 before the point: 50,30; Dan (10..50 across) is outside it.
        let kept = Self.check(dir + "/c.png", size: (100, 100), "crop") { x, y in (x - 50, y - 30) }
        #expect(kept == 3)
        // The record says so (checked against docs/json/crop.schema.json by CLI.run).
        let o = try #require(JSONValue.objects(r.stdout).first)
        #expect(o["regions"] == .object(["kept": .number(3), "dropped": .number(1)]), "\(r.stdout)")
    }

    @Test("crop --zoom 2: the window's origin from --json, the regions scaled by the zoom")
    func cropZoom() throws {
        let (dir, src) = try Self.tagged()
        let r = CLI.run(
            ["crop", src, "--at", "60,40", "--size", "80", "--zoom", "2", "-o", "z.jpg", "--json"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let o = try #require(JSONValue.objects(r.stdout).first)
        guard case .object(let w)? = o["window"], case .number(let wx)? = w["x"], case .number(let wy)? = w["y"] else {
            Issue.record("no window in \(r.stdout)")
            return
        }
        Self.check(dir + "/z.jpg", size: (80, 80), "crop --zoom 2") { x, y in ((x - wx) * 2, (y - wy) * 2) }
    }

    @Test("thumb and a ladder: every size carries the regions scaled")
    func thumbLadder() throws {
        let (dir, src) = try Self.tagged()
        let r = CLI.run(["thumb", src, "--size", "120x80,60x40", "--out", "t", "--name", "%s-%w.jpg"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(Self.check(dir + "/t/src-120.jpg", size: (120, 80), "thumb 120x80") { x, y in (x / 2, y / 2) } == 4)
        #expect(Self.check(dir + "/t/src-60.jpg", size: (60, 40), "thumb 60x40") { x, y in (x / 4, y / 4) } == 4)
    }

    @Test("thumb --crop: the centre of the scaled picture, the cut regions clipped")
    func thumbCrop() throws {
        let (dir, src) = try Self.tagged()
        let r = CLI.run(["thumb", src, "--size", "80x80", "--crop", "-o", "sq.png", "--json"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        // Every region keeps a part inside (Dan's 5 pixels), and the record says so.
        let o = try #require(JSONValue.objects(r.stdout).first)
        #expect(o["regions"] == .object(["kept": .number(4), "dropped": .number(0)]), "\(r.stdout)")
        // Scaled by 0.5 to 120x80 to cover the box, 20 cut off each side.
        Self.check(dir + "/sq.png", size: (80, 80), "thumb --crop") { x, y in (x / 2 - 20, y / 2) }
    }

    @Test("transform --rotate 90 and --flop: the regions turn and mirror with the pixels")
    func transform() throws {
        let (dir, src) = try Self.tagged()
        var r = CLI.run(["transform", src, "--rotate", "90", "-o", "r.png", "--json"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let o = try #require(JSONValue.objects(r.stdout).first)
        #expect(o["regions"] == .object(["kept": .number(4), "dropped": .number(0)]), "\(r.stdout)")
        // A quarter turn clockwise of 240x160: (x, y) goes to (160 - y, x).
        #expect(Self.check(dir + "/r.png", size: (160, 240), "rotate 90") { x, y in (160 - y, x) } == 4)
        r = CLI.run(["transform", src, "--flop", "-o", "f.webp"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(Self.check(dir + "/f.webp", size: (240, 160), "flop") { x, y in (240 - x, y) } == 4)
    }

    @Test("frame and fit: the regions in the view, scaled by its fit")
    func frameAndFit() throws {
        let (dir, src) = try Self.tagged()
        var r = CLI.run(["frame", src, "--view", "480x320", "--at", "50%,50%", "--size", "40", "-o", "v.png"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(Self.check(dir + "/v.png", size: (480, 320), "frame") { x, y in (x * 2, y * 2) } == 4)
        r = CLI.run(["fit", src, "--screen", "480x400", "-o", "fit.png"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        // Scaled by 2 to 480x320, letterboxed 40 from the top.
        #expect(Self.check(dir + "/fit.png", size: (480, 400), "fit") { x, y in (x * 2, y * 2 + 40) } == 4)
    }

    @Test("animate: each frame file carries the regions through its frame's transform")
    func animateFrames() throws {
        let (dir, src) = try Self.tagged()
        let r = CLI.run(
            [
                "animate", src, "--screen", "480x320", "--from", "60,40,120,80", "--frames", "3", "-o", "a%d.png",
                "--json",
            ],
            in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let frames = JSONValue.objects(r.stdout)
        try #require(frames.count == 3, "\(r.stdout)")
        for (k, f) in frames.enumerated() {
            guard case .array(let t)? = f["transform"], t.count == 6 else {
                Issue.record("frame \(k + 1): no transform in \(f)")
                continue
            }
            // [a, b, c, d, tx, ty]: (x, y) -> (a x + c y + tx, b x + d y + ty), image to screen.
            let m = t.map { v -> Double in if case .number(let n) = v { return n } else { return .nan } }
            Self.check(dir + "/a\(k + 1).png", size: (480, 320), "animate frame \(k + 1)") { x, y in
                (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
            }
        }
    }

    @Test("A file stored turned (orientation 6): the output is upright and so are its regions")
    func turnedInput() throws {
        let path = try #require(RegionsCLITests.tagged(6), "could not tag a fixture with exiftool")
        let dir = FileSystem.directory(of: path)
        // The input's regions mapped by hand to upright pixels (RegionsCLITests' mapping of
        // the stored frame through orientation 6; Microsoft's is upright already).
        let theirs = RegionsCLITests.exiftoolRegions(path, stored: (160, 240))
        var upright: [String: [Double]] = [:]
        for (name, v) in theirs {
            upright[name] =
                v.upright
                ? [v.rect[0] * 240, v.rect[1] * 160, v.rect[2] * 240, v.rect[3] * 160]
                : RegionsCLITests.uprightRect(v.rect, orientation: 6)
        }
        try #require(upright.count == 4, "exiftool read \(theirs)")
        let r = CLI.run(["thumb", path, "--size", "120x80", "-o", "up.jpg"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(Self.read(dir + "/up.jpg").size == [120, 80])
        #expect(
            Self.check(dir + "/up.jpg", size: (120, 80), "thumb of orientation 6", inputs: upright) { ($0 / 2, $1 / 2) }
                == 4)
    }

    @Test("--no-auto-orient keeps the stored pixels and orientation 6: MWG and IPTC stay stored, Microsoft upright")
    func storedOutput() throws {
        let path = try #require(RegionsCLITests.tagged(6), "could not tag a fixture with exiftool")
        let dir = FileSystem.directory(of: path)
        let r = CLI.run(["transform", path, "--no-auto-orient", "--scale", "0.5", "-o", "n.jpg"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        // Halved, the normalised areas are the input's, each in its own frame (exiftoolRegions
        // keeps the last form of a name: Bob's Microsoft rectangle, Carol's and Dan's IPTC).
        let before = RegionsCLITests.exiftoolRegions(path, stored: (160, 240))
        let after = RegionsCLITests.exiftoolRegions(dir + "/n.jpg", stored: (80, 120))
        #expect(after.count == 4, "\(after)")
        for (name, b) in before {
            let a = try #require(after[name], "\(name) missing: \(after)")
            #expect(a.upright == b.upright)
            for (x, y) in zip(a.rect, b.rect) {
                #expect(abs(x - y) <= 1.0 / 80, "\(name): \(a.rect) against \(b.rect)")
            }
        }
        // Bob's new MWG copy is his upright rectangle turned into the stored frame by hand:
        // orientation 6 shows stored (x, y) at upright (1 - y, x), so stored x = upright y and
        // stored y = 1 - upright x - width.
        let got = Self.read(dir + "/n.jpg")
        let bob = try #require(got.regions["mwg"]?.first { $0.name == "Bob" })
        let u = try #require(before["Bob"]).rect
        let want = [u[1] * 80, (1 - u[0] - u[2]) * 120, u[3] * 80, u[2] * 120]
        for (h, w) in zip(bob.rect, want) { #expect(abs(h - w) <= 1, "\(bob.rect) against \(want)") }
        #expect(CLI.shell("exiftool -n -s3 -Orientation \(CLI.quote(dir + "/n.jpg")) | grep -qx 6") == 0)
    }

    @Test("--strip leaves no regions; --no-names keeps them without names or PersonInImage")
    func stripAndNames() throws {
        let (dir, src) = try Self.tagged()
        #expect(CLI.shell("exiftool -q -q -overwrite_original -XMP-iptcExt:PersonInImage=Alice \(CLI.quote(src))") == 0)
        #expect(Self.read(src).people == 1)
        var r = CLI.run(["thumb", src, "--size", "120x80", "--strip", "-o", "s.jpg"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let stripped = Self.read(dir + "/s.jpg")
        #expect(stripped.regions.isEmpty, "\(stripped.regions)")
        r = CLI.run(["crop", src, "--at", "100,80", "--size", "100", "--no-names", "-o", "n.png"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let anonymous = Self.read(dir + "/n.png")
        #expect(anonymous.regions["mwg"]?.count == 3)
        #expect(anonymous.regions["mp"]?.count == 1)
        #expect(anonymous.regions["iptc"]?.count == 1)
        let names = anonymous.regions.values.flatMap { $0 }.compactMap(\.name)
        #expect(names.isEmpty, "names left: \(names)")
        #expect(anonymous.people == 0)
        // Alice's area is still where it was (the crop's window starts at 50,30).
        let alice = try #require(
            anonymous.regions["mwg"]?.first { abs($0.rect[2] - 46) <= 1 && abs($0.rect[3] - 34) <= 1 })
        #expect(abs(alice.rect[0]) <= 1 && abs(alice.rect[1]) <= 1, "\(alice.rect)")
        let info = CLI.run(["info", dir + "/n.png", "--json"])
        #expect(info.status == 0 && !info.stdout.contains("Alice"), "\(info.stdout)")
    }

    @Test("Names with &, <, quotes and accents survive as exiftool wrote them; the XMP stays well-formed")
    func escapedNames() throws {
        let (dir, src) = try Self.tagged()
        let name = "Zoë \"Z\" & <Co> l'été"
        let tag =
            "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=240,H=160,Unit=pixel},RegionList=[{Area={X=0.5,Y=0.5,W=0.2,H=0.2,Unit=normalized},Name=\(name),Type=Face}]}"
        #expect(CLI.shell("exiftool -q -q -overwrite_original \(CLI.quote(tag)) \(CLI.quote(src))") == 0)
        let r = CLI.run(["crop", src, "--at", "120,80", "--size", "100", "-o", "e.jpg"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let got = Self.read(dir + "/e.jpg")
        let region = try #require(got.regions["mwg"]?.first, "\(got.regions)")
        #expect(region.name == name)
        // The region is 96..144 across and 64..96 down (0.2 of 240x160 about the centre), less
        // the window's 70,30 (120 - 50, 80 - 50).
        for (h, w) in zip(region.rect, [26.0, 34, 48, 32]) { #expect(abs(h - w) <= 1, "\(region.rect)") }
        // The packet parses as XML (exiftool extracts it whole; Python's parser reads it).
        let xml = dir + "/e.xmp"
        _ = CLI.shell("exiftool -b -XMP \(CLI.quote(dir + "/e.jpg")) > \(CLI.quote(xml))")
        #expect(
            CLI.shell(
                "\(CLI.python) -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' \(CLI.quote(xml))")
                == 0)
    }

    @Test("immich's two files: crop --at region:\"Marie Curie\" carries the face at the same place in both")
    func realFiles() throws {
        try #require(RegionsFilesCLITests.haveShared, "no ../shared/regions")
        let dir = CLI.scratch()
        var rects: [[Double]] = []
        for (path, out) in [(RegionsFilesCLITests.upright, "a.jpg"), (RegionsFilesCLITests.turned, "b.jpg")] {
            let r = CLI.run(["crop", path, "--at", "region:Marie Curie", "-o", out, "--json"], in: dir)
            try #require(r.status == 0, "\(r.stderr)")
            let o = try #require(JSONValue.objects(r.stdout).first)
            guard case .object(let w)? = o["window"], case .number(let wx)? = w["x"], case .number(let wy)? = w["y"],
                case .number(let side)? = o["side"]
            else {
                Issue.record("no window in \(r.stdout)")
                continue
            }
            // The face in the input's upright pixels (info, checked against exiftool by
            // RegionsFilesCLITests), less the window's origin.
            let face = try #require(RegionsFilesCLITests.rect(path, "Marie Curie"))
            let got = Self.read(dir + "/" + out)
            let found = try #require(got.regions["mwg"]?.first { $0.name == "Marie Curie" }, "\(got.regions)")
            let want = [face[0] - wx, face[1] - wy, face[2], face[3]]
            for (h, e) in zip(found.rect, want) { #expect(abs(h - e) <= 1, "\(out): \(found.rect) against \(want)") }
            #expect(got.size == [side, side])
            rects.append(found.rect)
        }
        if rects.count == 2 {
            for (a, b) in zip(rects[0], rects[1]) { #expect(abs(a - b) <= 2, "\(rects)") }
        }
    }
}

extension JSONValue {
    fileprivate var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
