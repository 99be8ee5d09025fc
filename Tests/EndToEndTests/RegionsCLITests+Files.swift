import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// The real files written by other applications (immich's test assets: the same photo stored
/// upright and stored turned, ../shared/regions), every format that carries XMP, and what
/// `--at region:` says when a file lacks the region.
@Suite("Regions CLI: real files, formats, refusals", .enabled(if: haveExiftool, "needs exiftool; skipped"))
struct RegionsFilesCLITests {
    static let shared = FileSystem.join(CLI.root, "../shared/regions")
    static let upright = FileSystem.join(shared, "portrait.jpg")
    static let turned = FileSystem.join(shared, "portrait-orientation-6.jpg")
    static var haveShared: Bool { access(upright, R_OK) == 0 && access(turned, R_OK) == 0 }

    /// One region of `info --json`: [x, y, width, height].
    static func rect(_ path: String, _ name: String) -> [Double]? {
        let r = CLI.run(["info", "--json", path])
        guard let o = JSONValue.objects(r.stdout).first, case .array(let list)? = o["regions"] else { return nil }
        for case .object(let region) in list {
            guard case .string(name)? = region["name"], case .object(let rect)? = region["rect"] else { continue }
            return ["x", "y", "width", "height"].map { k in
                if case .number(let n)? = rect[k] { return n } else { return .nan }
            }
        }
        return nil
    }

    @Test("The turned file's MWG regions (stored pixels, orientation 6) mapped by hand are the upright file's")
    func realFilesAgree() throws {
        try #require(Self.haveShared, "no ../shared/regions")
        // exiftool's reading of the turned file: Marie Curie's centre and size in the stored
        // 700x840 pixels. Orientation 6 turns it a quarter clockwise: upright x = 1 - stored y,
        // upright y = stored x, the sides exchanged (upright 840x700).
        let out = CLI.scratch() + "/mwg.txt"
        _ = CLI.shell(
            "exiftool -n -p '$RegionAreaX $RegionAreaY $RegionAreaW $RegionAreaH' \(CLI.quote(Self.turned)) > \(CLI.quote(out))"
        )
        let v = CLI.read(out).split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }).compactMap { Double($0) }
        try #require(v.count >= 8, "exiftool read \(CLI.read(out))")
        // First region: Marie Curie (exiftool lists the X values of both, then Y...).
        let (sx, sy, sw, sh) = (v[0], v[2], v[4], v[6])
        let ux = (1 - sy) * 840
        let uy = sx * 700
        let uw = sh * 840
        let uh = sw * 700
        let expected = [ux - uw / 2, uy - uh / 2, uw, uh]
        for path in [Self.upright, Self.turned] {
            let got = try #require(Self.rect(path, "Marie Curie"))
            for (g, e) in zip(got, expected) { #expect(abs(g - e) <= 1, "\(path): \(got) against \(expected)") }
        }
    }

    @Test("crop --at region:\"Marie Curie\" of the upright and the turned file is the same face")
    func sameFace() throws {
        try #require(Self.haveShared, "no ../shared/regions")
        let dir = CLI.scratch()
        for (path, out) in [(Self.upright, "a.png"), (Self.turned, "b.png")] {
            let r = CLI.run(["crop", path, "--at", "region:marie curie", "-o", out, "--json"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let o = try #require(JSONValue.objects(r.stdout).first)
            guard case .object(let w)? = o["where"] else {
                Issue.record("no where in \(r.stdout)")
                continue
            }
            #expect(w["by"] == .string("region"))
            #expect(w["name"] == .string("Marie Curie"))
        }
        // Pillow: the same size, and the same picture (the turned file is gray: compare luminance).
        let script = """
            from PIL import Image, ImageChops, ImageStat
            a = Image.open('a.png').convert('L'); b = Image.open('b.png').convert('L')
            assert a.size == b.size, (a.size, b.size)
            print(ImageStat.Stat(ImageChops.difference(a, b)).mean[0])
            """
        let out = FileSystem.join(dir, "diff.txt")
        #expect(CLI.shell("cd \(CLI.quote(dir)) && \(CLI.python) -c \(CLI.quote(script)) > diff.txt") == 0)
        let diff = try #require(Double(CLI.read(out).trimmingCharacters))
        // JPEG noise of two encodings only; a crop off by a few pixels differs by 10 and more.
        #expect(diff < 3, "mean difference \(diff)")
    }

    @Test("--at region:NOPE exits 2 and names the regions the file has, or says it has none")
    func missingRegion() throws {
        let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")
        let none = CLI.run(["crop", photo, "--at", "region:NOPE", "-o", CLI.scratch() + "/x.png"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("has no region NOPE") && none.stderr.contains("no regions in its metadata"))
        let face = CLI.run(["crop", photo, "--at", "face", "-o", CLI.scratch() + "/x.png"])
        #expect(face.status == 2 && face.stderr.contains("has no face regions"), "\(face.stderr)")
        try #require(Self.haveShared, "no ../shared/regions")
        let named = CLI.run(["crop", Self.upright, "--at", "region:NOPE", "-o", CLI.scratch() + "/x.png"])
        #expect(named.status == 2)
        #expect(named.stderr.contains("\"Marie Curie\", \"Pierre Curie\""), "\(named.stderr)")
        // By position: the second region.
        let second = CLI.run(["crop", Self.upright, "--at", "region:2", "--geometry-only"])
        #expect(second.stdout.contains("\"name\":\"Pierre Curie\""), "\(second.stdout)")
    }

    static let tag =
        "-XMP-mwg-rs:RegionInfo={RegionList=[{Area={X=0.5,Y=0.25,W=0.2,H=0.3,Unit=normalized},Name=Alice,Type=Face}]}"

    @Test(
        "Regions are read from the XMP of PNG, WebP, HEIC, AVIF, TIFF and JPEG XL",
        arguments: ["png", "webp", "heic", "avif", "tiff", "jxl"])
    func formats(_ ext: String) throws {
        let dir = CLI.scratch()
        let made: Int32
        switch ext {
        case "tiff":
            _ = CLI.run(["fixture", "coords", "--size", "240x160", "-o", "src.png"], in: dir)
            made = CLI.shell("cd \(CLI.quote(dir)) && convert src.png src.tiff")
        case "jxl":
            // cjxl carries the PNG's XMP into its container (after the codestream). exiftool
            // writing into a bare codestream puts the XMP box first, which the JPEG XL
            // reader does not see yet (reported with issue 49).
            _ = CLI.run(["fixture", "coords", "--size", "240x160", "-o", "src.png"], in: dir)
            _ = CLI.shell("cd \(CLI.quote(dir)) && exiftool -q -q -overwrite_original \(CLI.quote(Self.tag)) src.png")
            made = CLI.shell("cd \(CLI.quote(dir)) && cjxl src.png src.jxl > /dev/null 2>&1")
        default:
            made = CLI.run(["fixture", "coords", "--size", "240x160", "-o", "src.\(ext)"], in: dir).status
        }
        try #require(made == 0, "could not make src.\(ext) here")
        try #require(
            CLI.shell("cd \(CLI.quote(dir)) && exiftool -q -q -m -overwrite_original \(CLI.quote(Self.tag)) src.\(ext)")
                == 0)
        // By hand: centre (0.5, 0.25) and size 0.2 x 0.3 of 240x160 -> 48x48 at (96, 16).
        let got = try #require(Self.rect(FileSystem.join(dir, "src.\(ext)"), "Alice"))
        for (g, e) in zip(got, [96.0, 16, 48, 48]) { #expect(abs(g - e) <= 1, "\(ext): \(got)") }
    }
}

extension String {
    fileprivate var trimmingCharacters: String {
        String(drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
    }
}
