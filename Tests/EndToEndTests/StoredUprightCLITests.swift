import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Stored and upright sizes mean one thing in every command (issue 40): stored is the size
/// as the file stores the pixels, before the orientation (HEIF's coded `ispe` size, before
/// `irot`/`imir`/`clap`), upright the size as displayed. An HEIF with `irot` was told three
/// ways: `info` text led with the upright size, `info --json` gave the coded one, and
/// `crop --json` gave the upright one as `storedSize` (with `storedRect` in upright pixels).
/// Each rotated HEIF is checked against a JPEG of the same orientation, whose path already
/// meant it this way (irot 90 turns as EXIF 8; irot 90 then a left-right imir as EXIF 7).
@Suite("Stored and upright sizes", .serialized)
struct StoredUprightCLITests {
    struct Case: Sendable, CustomTestStringConvertible {
        let heif: String
        let exifOrientation: Int
        let stored: (Int, Int)
        let upright: (Int, Int)
        var testDescription: String { heif }
    }

    static let cases = [
        Case(heif: "formats/heic-irot-90.heic", exifOrientation: 8, stored: (64, 96), upright: (96, 64)),
        Case(heif: "heicgrid/orient-90-1.heic", exifOrientation: 7, stored: (250, 180), upright: (180, 250)),
    ]

    /// What one file's three reports say.
    struct Reports {
        let text: String
        let info: [String: JSONValue]
        let crop: [String: JSONValue]
    }

    static func reports(_ path: String, in dir: String) throws -> Reports {
        let text = CLI.run(["info", path], in: dir)
        let info = CLI.run(["info", "--json", path], in: dir)
        let crop = CLI.run(
            ["crop", path, "--at", "10,20", "--size", "16", "--json", "-o", path + ".crop.png"], in: dir)
        for r in [text, info, crop] {
            #expect(r.status == 0 && r.stderr.isEmpty, "\(path): \(r)")
        }
        return Reports(
            text: text.stdout, info: try #require(JSONValue.object(info.stdout)),
            crop: try #require(JSONValue.object(crop.stdout)))
    }

    static func size(_ w: Int, _ h: Int) -> JSONValue {
        .object(["width": .number(Double(w)), "height": .number(Double(h))])
    }

    @Test(arguments: cases)
    func infoTextInfoJSONAndCropAgree(_ c: Case) throws {
        let source = FileSystem.join(CLI.root, ".cache/" + c.heif)
        try #require(access(source, R_OK) == 0, "make formats / heicgrid data: \(source)")
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let (w, h) = c.upright
        #expect(CLI.shell("cp \(CLI.quote(source)) \(CLI.quote(dir))/a.heic") == 0)
        let made = CLI.run(
            [
                "fixture", "orientation", "--size", "\(w)x\(h)", "--exif-orientation", "\(c.exifOrientation)", "-o",
                "a.jpg",
            ],
            in: dir)
        #expect(made.status == 0, "\(made)")
        let before = CLI.bytes(FileSystem.join(dir, "a.heic"))
        let heif = try Self.reports("a.heic", in: dir)
        let jpeg = try Self.reports("a.jpg", in: dir)
        let stored = "\(c.stored.0)x\(c.stored.1)"
        let upright = "\(w)x\(h)"
        for (name, r) in [("HEIF", heif), ("JPEG", jpeg)] {
            // The text leads with the stored size and gives the upright one after the orientation.
            #expect(r.text.contains(": \(name == "HEIF" ? "HEIC" : "JPEG") \(stored), "), "\(r.text)")
            #expect(r.text.contains("upright \(upright)"), "\(r.text)")
            #expect(!r.text.contains("coded"), "\(r.text)")
            #expect(r.info["width"] == .number(Double(c.stored.0)) && r.info["height"] == .number(Double(c.stored.1)))
            #expect(r.info["uprightWidth"] == .number(Double(w)) && r.info["uprightHeight"] == .number(Double(h)))
            #expect(r.crop["storedSize"] == Self.size(c.stored.0, c.stored.1), "\(name): \(r.crop)")
            #expect(r.crop["uprightSize"] == Self.size(w, h), "\(name): \(r.crop)")
            #expect(r.crop["orientation"] == r.info["orientationApplied"], "\(name): one meaning in both")
        }
        // The same square lies at the same stored pixels, whichever way the file turns them.
        #expect(heif.crop["cropRect"] == jpeg.crop["cropRect"])
        #expect(heif.crop["storedRect"] == jpeg.crop["storedRect"], "\(heif.crop) vs \(jpeg.crop)")
        #expect(heif.crop["storedRect"] != heif.crop["cropRect"], "a turned file's stored square differs")
        #expect(jpeg.crop["orientation"] == .number(Double(c.exifOrientation)))
        #expect(heif.crop["orientation"] == .number(1), "HEIF's turn is its transformations, not EXIF")
        #expect(CLI.bytes(FileSystem.join(dir, "a.heic")) == before, "the input is unchanged")
    }
}
