import TestSupport
import Testing

@testable import FZSystem

/// `crop --lossless` copies the JPEG's markers, and moves the XMP's regions into the square it
/// cut (the blocks' rectangle, `deliveredRect`), as the re-encoding crop does. About 3 s.
extension RegionsCarryCLITests {
    /// The rectangle a lossless crop's record names (`deliveredRect` or `storedDeliveredRect`).
    static func rect(_ record: [String: JSONValue], _ key: String) -> [Double]? {
        guard case .object(let r)? = record[key] else { return nil }
        let v = ["x", "y", "width", "height"].compactMap { k -> Double? in
            if case .number(let n)? = r[k] { return n } else { return nil }
        }
        return v.count == 4 ? v : nil
    }

    @Test("crop --lossless: the regions move into the blocks' rectangle, a cut one clipped, one outside dropped")
    func losslessCrop() throws {
        let (dir, src) = try Self.tagged()
        let r = CLI.run(
            ["crop", src, "--at", "100,80", "--size", "100", "--lossless", "-o", "l.jpg", "--json"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("whole picture"), "no warning that the regions stayed: \(r.stderr)")
        let o = try #require(JSONValue.objects(r.stdout).first)
        // The square 50,30 100x100 widened to the fixture's 8-pixel blocks (4:4:4): 48,24 to 152,136.
        let d = try #require(Self.rect(o, "deliveredRect"), "\(r.stdout)")
        #expect(d == [48, 24, 104, 112])
        #expect(o["block"] == .object(["width": .number(8), "height": .number(8)]), "\(r.stdout)")
        // Dan (10..50 across) is cut to 48..50; Alice, Bob and Carol whole or clipped inside.
        let kept = Self.check(dir + "/l.jpg", size: (d[2], d[3]), "crop --lossless") { x, y in (x - d[0], y - d[1]) }
        #expect(kept == 4)
        // Every other marker as it was: the EXIF (its orientation) is the input's.
        #expect(CLI.shell("exiftool -n -s3 -Orientation \(CLI.quote(dir + "/l.jpg")) | grep -qx 1") == 0)
    }

    @Test(
        "crop --lossless of a file stored turned: the tag is kept, MWG and IPTC in the stored crop, Microsoft upright")
    func losslessCropOfTurned() throws {
        let path = try #require(RegionsCLITests.tagged(6), "could not tag a fixture with exiftool")
        let dir = FileSystem.directory(of: path)
        let r = CLI.run(
            ["crop", path, "--at", "120,70", "--size", "150", "--lossless", "-o", "t.jpg", "--json"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let o = try #require(JSONValue.objects(r.stdout).first)
        let up = try #require(Self.rect(o, "deliveredRect"), "\(r.stdout)")
        let st = try #require(Self.rect(o, "storedDeliveredRect"), "\(r.stdout)")
        #expect(CLI.shell("exiftool -n -s3 -Orientation \(CLI.quote(dir + "/t.jpg")) | grep -qx 6") == 0)
        // By hand: a stored-frame region (MWG, IPTC) in input stored pixels (160x240) less the
        // stored rectangle's origin, over its size; Bob's Microsoft rectangle in upright pixels
        // (240x160) less the upright rectangle's origin, over its size; each clipped to 0...1.
        let before = RegionsCLITests.exiftoolRegions(path, stored: (160, 240))
        let after = RegionsCLITests.exiftoolRegions(dir + "/t.jpg", stored: (st[2], st[3]))
        #expect(after.count == 4, "\(after)")
        for (name, b) in before {
            let a = try #require(after[name], "\(name) missing: \(after)")
            #expect(a.upright == b.upright)
            let (whole, cut) = b.upright ? ((240.0, 160.0), up) : ((160.0, 240.0), st)
            let x0 = min(max(b.rect[0] * whole.0 - cut[0], 0), cut[2])
            let x1 = min(max((b.rect[0] + b.rect[2]) * whole.0 - cut[0], 0), cut[2])
            let y0 = min(max(b.rect[1] * whole.1 - cut[1], 0), cut[3])
            let y1 = min(max((b.rect[1] + b.rect[3]) * whole.1 - cut[1], 0), cut[3])
            let want = [x0 / cut[2], y0 / cut[3], (x1 - x0) / cut[2], (y1 - y0) / cut[3]]
            for (i, (h, w)) in zip(a.rect, want).enumerated() {
                let pixel = 1 / (i % 2 == 0 ? cut[2] : cut[3])
                #expect(abs(h - w) <= pixel, "\(name): \(a.rect) against \(want)")
            }
        }
    }
}
