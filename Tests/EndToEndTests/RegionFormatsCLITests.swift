import Foundation
import TestSupport
import Testing

@testable import FZSystem

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// Regions from DNG (XMP in IFD0's tag 700) and JPEG XL (the `xml ` box before the codestream
/// as well as after it), written by exiftool and read back against exiftool's reading mapped
/// by hand (issue 49 item 4); and `thumb --crop-at attention` from its one held decode is the
/// thumbnail `--crop-at X,Y` of the point it reports makes (issue 49's speed row). Adds about 3 s.
@Suite("Regions: DNG and JPEG XL", .enabled(if: haveExiftool, "needs exiftool (libimage-exiftool-perl); skipped"))
struct RegionFormatsCLITests {
    static let mwg =
        "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=%W,H=%H,Unit=pixel},RegionList=[{Area={X=0.3,Y=0.25,W=0.2,H=0.3,Unit=normalized},Name=Alice,Type=Face}]}"

    /// info --json's first region rect as [x, y, width, height].
    static func firstRegion(_ path: String) -> (name: String?, rect: [Double]) {
        let r = CLI.run(["info", "--json", path])
        guard case .array(let list)? = JSONValue.object(r.stdout)?["regions"], case .object(let o)? = list.first,
            case .object(let rect)? = o["rect"]
        else { return (nil, []) }
        let name: String? = if case .string(let n)? = o["name"] { n } else { nil }
        return (
            name,
            ["x", "y", "width", "height"].compactMap { if case .number(let n)? = rect[$0] { n } else { nil } }
        )
    }

    /// The MWG area (centre 0.3, 0.25; 0.2 x 0.3) in pixels of a w x h picture, edges rounded.
    static func expected(_ w: Double, _ h: Double) -> [Double] {
        let x0 = ((0.3 - 0.1) * w).rounded()
        let y0 = ((0.25 - 0.15) * h).rounded()
        return [x0, y0, ((0.3 + 0.1) * w).rounded() - x0, ((0.25 + 0.15) * h).rounded() - y0]
    }

    @Test func dngRegions() throws {
        let dir = CLI.scratch()
        let tool = FileSystem.join(CLI.root, "Tools/raw/make-dng.py")
        try #require(CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(tool)) t.dng > /dev/null") == 0)
        let path = FileSystem.join(dir, "t.dng")
        #expect(Self.firstRegion(path).name == nil, "no regions before exiftool writes them")
        let tag = Self.mwg.replacing("%W", with: "600").replacing("%H", with: "400")
        try #require(CLI.shell("exiftool -q -q -overwrite_original \(CLI.quote(tag)) \(CLI.quote(path))") == 0)
        // exiftool's reading: the area as written, in the 600x400 picture (orientation 1).
        let back = CLI.shellOutput("exiftool -s3 -n -RegionAreaX -RegionAreaY -RegionName \(CLI.quote(path))")
        #expect(back.split(separator: "\n") == ["0.3", "0.25", "Alice"], "\(back)")
        let found = Self.firstRegion(path)
        #expect(found.name == "Alice")
        #expect(found.rect == Self.expected(600, 400), "\(found.rect)")
    }

    /// A DNG stored turned (orientation 6, libraw develops it upright): its MWG regions are
    /// in the sensor's 600x400 raster, as MWG and exiftool's AppliedToDimensions say, and
    /// come out in the upright 400x600 pixels. By hand, 90 degrees clockwise: a stored
    /// normalized (x, y) shows at (1 - y, x), so the area centred at (0.3, 0.25), 0.2 x 0.3,
    /// is centred at (0.75, 0.3), 0.3 x 0.2: pixels 240,120 to 360,240; its centre 300,180 is
    /// where `crop --at region:Alice` looks.
    @Test func turnedDNGRegionsAreUpright() throws {
        let dir = CLI.scratch()
        let tool = FileSystem.join(CLI.root, "Tools/raw/make-dng.py")
        try #require(
            CLI.shell(
                "cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(tool)) t.dng --size 600x400 --orientation 6 > /dev/null"
            ) == 0)
        let path = FileSystem.join(dir, "t.dng")
        let tag = Self.mwg.replacing("%W", with: "600").replacing("%H", with: "400")
        try #require(CLI.shell("exiftool -q -q -overwrite_original \(CLI.quote(tag)) \(CLI.quote(path))") == 0)
        let back = CLI.shellOutput("exiftool -s3 -n -Orientation -RegionAreaX -RegionAreaY \(CLI.quote(path))")
        #expect(back.split(separator: "\n") == ["6", "0.3", "0.25"], "\(back)")
        let found = Self.firstRegion(path)
        #expect(found.name == "Alice")
        #expect(found.rect == [240, 120, 120, 120], "\(found.rect)")
        let r = CLI.run(["crop", path, "--at", "region:Alice", "--size", "64", "--geometry-only"])
        #expect(r.stdout.contains("\"point\":{\"x\":300,\"y\":180}"), "\(r.stdout) \(r.stderr)")
        // thumb reads them in the same upright picture (its own call site).
        let t = CLI.run(["thumb", path, "--crop-at", "region:Alice", "--size", "64", "-o", dir + "/t.png", "--json"])
        #expect(
            t.stdout.contains("\"rect\":{\"x\":240,\"y\":120,\"width\":120,\"height\":120}"),
            "\(t.stdout) \(t.stderr)")
    }

    @Test func jxlRegionsBeforeAndAfterTheCodestream() throws {
        let dir = CLI.scratch()
        let src = FileSystem.join(CLI.root, ".cache/jxl/jxl-exif-1.jxl")
        try #require(FileSystem.size(of: src) != nil, "no .cache/jxl: make formats")
        let after = FileSystem.join(dir, "after.jxl")
        try #require(CLI.shell("cp \(CLI.quote(src)) \(CLI.quote(after))") == 0)
        let size = CLI.shellOutput("exiftool -s3 -ImageSize \(CLI.quote(after))").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let wh = size.split(separator: "x").compactMap { Double($0) }
        try #require(wh.count == 2, "\(size)")
        let tag = Self.mwg.replacing("%W", with: "\(Int(wh[0]))").replacing("%H", with: "\(Int(wh[1]))")
        try #require(CLI.shell("exiftool -q -q -overwrite_original \(CLI.quote(tag)) \(CLI.quote(after))") == 0)
        // The same boxes with exiftool's `xml ` box moved before the codestream (where libjxl's
        // encoder, and so forcezoom's JPEG XL output, puts it).
        let before = FileSystem.join(dir, "before.jxl")
        let move = """
            import struct, sys
            d = open(sys.argv[1], 'rb').read(); boxes = []; i = 0
            while i < len(d):
                n, t = struct.unpack('>I4s', d[i:i + 8]); n = n or len(d) - i
                boxes.append((t, d[i:i + n])); i += n
            xml = [b for t, b in boxes if t == b'xml ']; rest = [(t, b) for t, b in boxes if t != b'xml ']
            k = next(j for j, (t, _) in enumerate(rest) if t in (b'jxlc', b'jxlp'))
            out = b''.join(b for _, b in rest[:k]) + b''.join(xml) + b''.join(b for _, b in rest[k:])
            assert len(xml) == 1 and out.index(b'xml ') < out.index(rest[k][0])
            open(sys.argv[2], 'wb').write(out)
            """
        let script = FileSystem.join(dir, "move.py")
        CLI.write(script, Array(move.utf8))
        try #require(CLI.shell("\(CLI.python) \(CLI.quote(script)) \(CLI.quote(after)) \(CLI.quote(before))") == 0)
        let back = CLI.shellOutput("exiftool -s3 -n -RegionName \(CLI.quote(before))")
        #expect(back.hasPrefix("Alice"), "exiftool reads the moved box: \(back)")
        for file in [after, before] {
            let found = Self.firstRegion(file)
            #expect(found.name == "Alice", "\(file)")
            #expect(found.rect == Self.expected(wh[0], wh[1]), "\(file): \(found.rect)")
        }
    }

    /// The held decode gives the pixels the file gives: `--crop-at attention`'s thumbnail is
    /// byte for byte `--crop-at X,Y` of its reported point (a JPEG, where it holds a DCT-scaled
    /// decode; the iPhone HEIC grid of ../shared, where it holds the decoder's block averages).
    @Test(arguments: ["Fixtures/photos/peek.jpg", "../shared/formats/hdr/iphone13pro_pug_hdrgainmap.heic"])
    func attentionThumbnailIsThePointsThumbnail(_ file: String) throws {
        let dir = CLI.scratch()
        let src = FileSystem.join(CLI.root, file)
        guard FileSystem.size(of: src) != nil else { return }  // ../shared absent: the JPEG case stands
        let a = CLI.run(
            ["thumb", src, "--size", "256x256", "--crop-at", "attention", "-o", "a.png", "--json"], in: dir)
        #expect(a.status == 0, "\(a.stderr)")
        guard case .object(let place)? = JSONValue.object(a.stdout)?["where"], case .number(let x)? = place["x"],
            case .number(let y)? = place["y"]
        else {
            Issue.record("no where: \(a.stdout)")
            return
        }
        let p = CLI.run(
            ["thumb", src, "--size", "256x256", "--crop-at", "\(Int(x)),\(Int(y))", "-o", "p.png"], in: dir)
        #expect(p.status == 0)
        #expect(TerminalCLITests.pixelsEqual(FileSystem.join(dir, "a.png"), FileSystem.join(dir, "p.png")))
    }
}
