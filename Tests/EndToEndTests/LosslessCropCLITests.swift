import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `crop --lossless`: the delivered rectangle is the source's blocks, bit for bit (djpeg
/// decodes the source and each crop; the crop's pixels equal the source's there), its
/// geometry is honest (on the block grid, holding the requested square and the touch
/// point), and exiftool finds the source's EXIF and ICC profile in it.
@Suite("crop --lossless")
struct LosslessCropCLITests {
    /// A numpy check run by `python3`: decodes with djpeg (smoothing on, or off with
    /// -nosmooth), cuts the source's stored rectangle and compares. Prints one line per
    /// crop: "ok" or what differs.
    static let checker = """
        import json, subprocess, sys
        import numpy as np
        def ppm(path, *flags):
            data = subprocess.run(['djpeg', *flags, '-pnm', path], check=True, capture_output=True).stdout
            parts = data.split(maxsplit=4)
            w, h = int(parts[1]), int(parts[2])
            return np.frombuffer(parts[4][:w * h * 3], dtype=np.uint8).reshape(h, w, 3)
        src = sys.argv[1]
        for line in open(sys.argv[2]):
            r = json.loads(line)
            s = r['storedDeliveredRect']
            for flags, margin in (((['-nosmooth'], 0)), (([], 4))):
                a = ppm(src, *flags)[s['y']:s['y'] + s['height'], s['x']:s['x'] + s['width']]
                b = ppm(r['output'], *flags)
                if a.shape != b.shape:
                    print(r['output'], 'shape', a.shape, b.shape); break
                # With smoothing, chroma upsampling at the crop's own edges sees no
                # neighbours: compare away from them.
                h, w = a.shape[:2]
                ia, ib = a[margin:h - margin, margin:w - margin], b[margin:h - margin, margin:w - margin]
                if not np.array_equal(ia, ib):
                    print(r['output'], flags, int((ia != ib).sum()), 'samples differ'); break
            else:
                print('ok')
        """

    @Test(arguments: [("420", "6"), ("422", "1"), ("444", "3"), ("420", "8")])
    func deliveredBlocksAreTheSources(_ subsampling: String, _ orientation: String) throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let icc = "/usr/share/color/icc/ghostscript/a98.icc"
        try #require(
            CLI.shell("test -f \(icc) && command -v exiftool >/dev/null && command -v djpeg >/dev/null") == 0,
            "needs libgs-common, libimage-exiftool-perl and libjpeg-turbo-progs (make deps)")
        let made = CLI.run(
            [
                "fixture", "noise", "--size", "301x203", "--quality", "92", "--subsampling", subsampling,
                "--exif-orientation", orientation, "--embed-icc", icc, "-o", "src.jpg",
            ], in: dir)
        try #require(made.status == 0, "\(made.stderr)")
        try #require(
            CLI.shell(
                "cd \(CLI.quote(dir)) && exiftool -q -overwrite_original -Artist=forcezoom -Copyright=issue28 src.jpg")
                == 0)
        // Points inside, at a corner, at the far edge: three squares from one read.
        let r = CLI.run(
            [
                "crop", "src.jpg", "--at", "100,77", "--at", "0,0", "--at", "300,202", "--size", "41", "--lossless",
                "-o", "d-%d.jpg", "--json",
            ], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let records = r.stdout.split(separator: "\n")
        #expect(records.count == 3)
        CLI.write(FileSystem.join(dir, "records.jsonl"), Array(r.stdout.utf8))
        CLI.write(FileSystem.join(dir, "check.py"), Array(Self.checker.utf8))
        let out = FileSystem.join(dir, "out.txt")
        _ = CLI.shell("cd \(CLI.quote(dir)) && python3 check.py src.jpg records.jsonl > out.txt 2>&1")
        #expect(CLI.read(out) == "ok\nok\nok\n", "\(CLI.read(out))")

        let block = subsampling == "444" ? (8, 8) : subsampling == "422" ? (16, 8) : (16, 16)
        for line in records {
            let o = try #require(JSONValue.object(line))
            let crop = try rect(o["cropRect"])
            let up = try rect(o["deliveredRect"])
            let stored = try rect(o["storedDeliveredRect"])
            #expect(
                up.x <= crop.x && up.y <= crop.y && up.x + up.w >= crop.x + crop.w && up.y + up.h >= crop.y + crop.h,
                "\(line)")
            // On the grid in stored pixels: left and top on it, right and bottom on it or at the edge.
            let (sw, sh) = ["1", "3"].contains(orientation) ? (301, 203) : (203, 301)
            #expect(stored.x % block.0 == 0 && stored.y % block.1 == 0, "\(line)")
            #expect((stored.x + stored.w) % block.0 == 0 || stored.x + stored.w == sw, "\(line)")
            #expect((stored.y + stored.h) % block.1 == 0 || stored.y + stored.h == sh, "\(line)")
            #expect(stored.w * stored.h == up.w * up.h)
            guard case .object(let p)? = o["point"], case .object(let q)? = o["pointInDelivered"],
                case .number(let px)? = p["x"], case .number(let py)? = p["y"], case .number(let qx)? = q["x"],
                case .number(let qy)? = q["y"]
            else {
                Issue.record("no point in \(line)")
                continue
            }
            #expect(
                qx == px - Double(up.x) && qy == py - Double(up.y) && qx >= 0 && qx < Double(up.w) && qy < Double(up.h))
            #expect(o["outputOrientation"] == .number(Double(orientation)!))
        }
        // The metadata is the source's: every EXIF tag and the ICC profile's description.
        let tags = "-EXIF:all -ICC_Profile:ProfileDescription -s -s"
        _ = CLI.shell("cd \(CLI.quote(dir)) && exiftool \(tags) src.jpg > src.txt && exiftool \(tags) d-1.jpg > d1.txt")
        let (want, got) = (CLI.read(FileSystem.join(dir, "src.txt")), CLI.read(FileSystem.join(dir, "d1.txt")))
        #expect(want.contains("Artist: forcezoom") && want.contains("ProfileDescription"), "\(want)")
        #expect(got == want)
    }

    /// The decoder forcezoom uses sees the crop upright: its pixels equal the upright
    /// source's inside deliveredRect (forcezoom compare against a 1:1 crop of the same square).
    @Test func uprightViewMatchesTheRenderedCrop() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        try #require(
            CLI.run(
                [
                    "fixture", "coords", "--size", "320x240", "--quality", "95", "--exif-orientation", "6", "-o",
                    "c6.jpg",
                ], in: dir
            ).status == 0)
        let r = CLI.run(
            ["crop", "c6.jpg", "--at", "101,99", "--size", "40", "--lossless", "-o", "l.jpg", "--json"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let o = try #require(JSONValue.object(r.stdout))
        let up = try rect(o["deliveredRect"])
        // The same rectangle rendered from the decoded source (a square of its side centred in it).
        #expect(up.w == up.h, "a square away from the edges stays square: \(r.stdout)")
        let at = "\(up.x + up.w / 2),\(up.y + up.h / 2)"
        let ref = CLI.run(["crop", "c6.jpg", "--at", at, "--size", "\(up.w)", "-o", "ref.png"], in: dir)
        try #require(ref.status == 0)
        let c = CLI.run(["compare", "ref.png", "l.jpg", "--metric", "pae"], in: dir)
        #expect(c.status == 0 && c.stdout == "0\n", "\(c)")
    }

    @Test(arguments: [
        (["crop", "src.png", "--at", "5,5", "--lossless", "-o", "x.jpg"], "JPEG files only"),
        (["crop", "src.jpg", "--at", "5,5", "--lossless", "--zoom", "2", "-o", "x.jpg"], "--zoom"),
        (["crop", "src.jpg", "--at", "5,5", "--lossless", "-o", "x.png"], ".jpg"),
        (["crop", "src.jpg", "--at", "5,5", "--lossless", "--marker", "5,5", "-o", "x.jpg"], "pins"),
        (["crop", "src.jpg", "--at", "5,5", "--lossless", "--icc", "srgb", "-o", "x.jpg"], "--icc"),
    ])
    func refusedIsExitTwo(_ args: [String], _ says: String) throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        for name in ["src.png", "src.jpg"] {
            try #require(CLI.run(["fixture", "coords", "--size", "64x64", "-o", name], in: dir).status == 0)
        }
        let r = CLI.run(args, in: dir)
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(says), "\(r)")
        #expect(CLI.shell("test -e \(CLI.quote(dir))/x.jpg") != 0, "nothing written")
    }

    func rect(_ v: JSONValue?) throws -> (x: Int, y: Int, w: Int, h: Int) {
        guard case .object(let o)? = v, case .number(let x)? = o["x"], case .number(let y)? = o["y"],
            case .number(let w)? = o["width"], case .number(let h)? = o["height"]
        else { throw RectMissing() }
        return (Int(x), Int(y), Int(w), Int(h))
    }

    struct RectMissing: Error {}
}
