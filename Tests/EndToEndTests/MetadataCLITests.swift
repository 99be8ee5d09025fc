import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// EXIF and XMP in outputs, read back by exiftool (an independent reader): kept by default
/// with the orientation 1 and the output's pixel dimensions and no IFD1 thumbnail, the
/// location gone with --no-location, nothing with --strip; broken or oversized blocks left
/// out with one warning. Inputs are forcezoom fixtures tagged by exiftool here.
@Suite("Metadata CLI", .enabled(if: haveExiftool, "needs exiftool (libimage-exiftool-perl); skipped"))
struct MetadataCLITests {
    static let date = "2024:05:06 07:08:09"

    /// Tagged inputs: src.jpg, src.png, src.webp (and src.heic where fixture writes it),
    /// each 240x160 upright, stored turned with orientation 6, with EXIF (camera, date,
    /// pixel dimensions, GPS; the JPEG an IFD1 thumbnail) and XMP (rating, city, GPS).
    static let dir: String = {
        let dir = CLI.scratch()
        let tags = [
            "-DateTimeOriginal=\(date)", "-Make=Acme", "-ExifImageWidth=160", "-ExifImageHeight=240",
            "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.35", "-GPSLongitudeRef=E",
            "-XMP:Rating=4", "-XMP:City=Paris", "-XMP:Country=France", "-XMP-exif:GPSLatitude=48,51.0N",
            "-XMP-tiff:Orientation#=6",
        ].map(CLI.quote).joined(separator: " ")
        for ext in ["jpg", "png", "webp", "heic"] {
            let r = CLI.run(
                ["fixture", "coords", "--size", "240x160", "--exif-orientation", "6", "-o", "src.\(ext)"], in: dir)
            guard r.status == 0 else { continue }
            let thumb = ext == "jpg" ? " '-ThumbnailImage<=src.jpg'" : ""
            _ = CLI.shell(
                "cd \(CLI.quote(dir)) && cp src.\(ext) plain.\(ext) && exiftool -q -q -overwrite_original \(tags)\(thumb) src.\(ext)"
            )
        }
        return dir
    }()

    /// The inputs made (HEIC only where the fixture writer has an encoder).
    static var inputs: [String] {
        ["jpg", "png", "webp", "heic"].filter { access(FileSystem.join(dir, "src.\($0)"), F_OK) == 0 }
    }

    /// What exiftool reads in `path`: "Group1:Tag" to value (numbers as numbers, -n).
    static func tags(_ path: String) -> [String: JSONValue] {
        let out = path + ".exiftool.json"
        _ = CLI.shell("exiftool -j -n -G1 -a \(CLI.quote(path)) > \(CLI.quote(out)) 2>/dev/null")
        let text = String(CLI.read(out).filter { !$0.isWhitespace || $0 == " " })
        guard text.hasPrefix("["), text.hasSuffix("]") else { return [:] }
        return JSONValue.object(text.dropFirst().dropLast()) ?? [:]
    }

    /// Checks what a default run keeps: the date, the rating, orientation 1, the output's
    /// size in ExifImageWidth/Height, no IFD1; `location` whether GPS and City remain.
    static func checkKept(_ path: String, location: Bool, _ label: String) {
        let t = tags(path)
        #expect(t["ExifIFD:DateTimeOriginal"] == .string(date), "\(label): \(t)")
        #expect(t["XMP-xmp:Rating"] == .number(4), "\(label)")
        #expect(t["IFD0:Orientation"] == .number(1), "\(label)")
        #expect(t["XMP-tiff:Orientation"] == .number(1), "\(label)")
        #expect(t["IFD0:Make"] == .string("Acme"), "\(label)")
        guard case .string(let size)? = t["Composite:ImageSize"] else {
            Issue.record("\(label): no size in \(t)")
            return
        }
        let wh = size.split(separator: " ").compactMap { Double($0) }
        #expect(t["ExifIFD:ExifImageWidth"] == .number(wh.first ?? -1), "\(label): \(size)")
        #expect(t["ExifIFD:ExifImageHeight"] == .number(wh.last ?? -1), "\(label): \(size)")
        #expect(!t.keys.contains { $0.hasPrefix("IFD1:") }, "\(label): IFD1 copied")
        let located = t.keys.filter { $0.contains("GPS") || $0.hasSuffix(":City") || $0.hasSuffix(":Country") }
        if location {
            #expect(t["GPS:GPSLatitude"] != nil && t["XMP-photoshop:City"] == .string("Paris"), "\(label): \(located)")
        } else {
            #expect(located.isEmpty, "\(label): \(located)")
        }
    }

    /// The extensions thumb writes (every format ImageWriter encodes).
    static var outputExtensions: [String] { OutputFormat.all.map { $0.extensions[0] } }

    @Test func thumbKeepsMetadataInEveryFormat() throws {
        for input in Self.inputs {
            for ext in Self.outputExtensions {
                let out = "t-\(input)-\(ext)"
                let r = CLI.run(
                    ["thumb", "--quiet", "src.\(input)", "--size", "64", "-o", out, "--name", "%s.\(ext)"], in: Self.dir
                )
                try #require(r.status == 0, "\(input) -> \(ext): \(r)")
                #expect(r.stderr.isEmpty, "\(input) -> \(ext): \(r.stderr)")
                Self.checkKept(FileSystem.join(Self.dir, "\(out)/src.\(ext)"), location: true, "\(input) -> \(ext)")
            }
        }
    }

    /// Every command that writes a picture of its input, by default and with --no-location.
    static let commands: [[String]] = [
        ["crop", "--at", "50%,50%", "--size", "60"], ["fit", "--screen", "120x90"],
        ["frame", "--at", "50%,50%", "--view", "120x90", "--size", "40"], ["transform", "--rotate", "90"],
        ["transform", "--rotate=10"],
    ]

    @Test(arguments: commands)
    func commandsKeepMetadata(command: [String]) throws {
        for (flag, location) in [([String](), true), (["--no-location"], false)] {
            let label = (command + flag).joined(separator: " ")
            // One name per case: the cases run in parallel in one folder (two transforms
            // sharing "transform-false.png" read each other's half-written outputs).
            let name = command.joined(separator: "_").filter { $0.isLetter || $0.isNumber || $0 == "_" }
            let out = "\(name)-\(location).png"
            let r = CLI.run(command + ["src.jpg", "-o", out] + flag, in: Self.dir)
            try #require(r.status == 0, "\(label): \(r)")
            #expect(r.stderr.isEmpty, "\(label): \(r.stderr)")
            Self.checkKept(FileSystem.join(Self.dir, out), location: location, label)
        }
    }

    @Test func animateFramesKeepMetadata() throws {
        let r = CLI.run(
            [
                "animate", "src.jpg", "--screen", "120x90", "--from", "10,10,40,30", "--frames", "3", "-o",
                "frame-%d.png", "--no-location",
            ],
            in: Self.dir)
        try #require(r.status == 0, "\(r)")
        Self.checkKept(FileSystem.join(Self.dir, "frame-1.png"), location: false, "animate frame 1")
    }

    @Test func stripWritesNone() throws {
        for ext in Self.outputExtensions {
            let r = CLI.run(
                [
                    "thumb", "--quiet", "src.jpg", "--size", "64", "-o", "strip-\(ext)", "--name", "%s.\(ext)",
                    "--strip",
                ], in: Self.dir)
            try #require(r.status == 0, "\(r)")
            let t = Self.tags(FileSystem.join(Self.dir, "strip-\(ext)/src.\(ext)"))
            let meta = t.keys.filter { ["IFD0:", "ExifIFD:", "GPS:", "IFD1:", "XMP"].contains(where: $0.hasPrefix) }
            #expect(meta.isEmpty, "\(ext): \(meta)")
        }
        let r = CLI.run(
            ["crop", "src.jpg", "--at", "50%,50%", "--size", "40", "-o", "strip.png", "--strip"], in: Self.dir)
        try #require(r.status == 0, "\(r)")
        #expect(
            !Self.tags(FileSystem.join(Self.dir, "strip.png")).keys.contains {
                $0.hasPrefix("IFD0:") || $0.hasPrefix("XMP")
            })
    }

    /// IPTC goes from JPEG to JPEG (APP13), its location datasets out with --no-location;
    /// PNG has no place for it.
    @Test func iptcGoesFromJPEGToJPEG() throws {
        let dir = Self.dir
        try #require(
            CLI.shell(
                "cd \(CLI.quote(dir)) && cp plain.jpg iptc.jpg && exiftool -q -q -overwrite_original -IPTC:Keywords=cat -IPTC:City=Paris -IPTC:Country-PrimaryLocationName=France iptc.jpg"
            ) == 0)
        for (flag, location) in [([String](), true), (["--no-location"], false)] {
            let out = "iptc-\(location)"
            let r = CLI.run(
                ["thumb", "--quiet", "iptc.jpg", "--size", "40", "-o", out, "--name", "%s.jpg"] + flag, in: dir)
            try #require(r.status == 0, "\(r)")
            let t = Self.tags(FileSystem.join(dir, "\(out)/iptc.jpg"))
            #expect(t["IPTC:Keywords"] == .string("cat"), "\(t)")
            #expect((t["IPTC:City"] == .string("Paris")) == location, "\(t)")
            #expect((t["IPTC:Country-PrimaryLocationName"] != nil) == location, "\(t)")
        }
        let png = CLI.run(
            ["thumb", "--quiet", "iptc.jpg", "--size", "40", "-o", "iptc-png", "--name", "%s.png"], in: dir)
        try #require(png.status == 0, "\(png)")
        #expect(png.stderr.isEmpty, "no place for IPTC in PNG is not a warning: \(png.stderr)")
        let strip = CLI.run(
            ["thumb", "--quiet", "iptc.jpg", "--size", "40", "-o", "iptc-strip", "--name", "%s.jpg", "--strip"], in: dir
        )
        try #require(strip.status == 0, "\(strip)")
        #expect(!Self.tags(FileSystem.join(dir, "iptc-strip/iptc.jpg")).keys.contains { $0.hasPrefix("IPTC:") })
    }

    /// A lossless crop copies every marker as it is: --strip and --no-location are usage errors there.
    @Test(arguments: ["--strip", "--no-location"])
    func losslessCropRefusesMetadataFlags(flag: String) {
        let r = CLI.run(["crop", "src.jpg", "--at", "8,8", "--lossless", "-o", "lossless.jpg", flag], in: Self.dir)
        #expect(r.status == 2 && r.stderr.contains(flag), "\(r)")
    }

    /// A JPEG input whose APP1 EXIF has a TIFF header pointing IFD0 outside the block, and
    /// valid XMP: one warning, the output carries the XMP and no EXIF.
    @Test func malformedEXIFIsLeftOutWithOneWarning() throws {
        let dir = Self.dir
        let plain = CLI.bytes(FileSystem.join(dir, "plain.jpg"))
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 0xF0, 0xFF, 0, 0] + [UInt8](repeating: 0, count: 16)
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        CLI.write(FileSystem.join(dir, "bad-exif.jpg"), Array(plain.prefix(2)) + segment + Array(plain.dropFirst(2)))
        #expect(CLI.shell("cd \(CLI.quote(dir)) && exiftool -q -q -overwrite_original -XMP:Rating=3 bad-exif.jpg") == 0)
        let r = CLI.run(["crop", "bad-exif.jpg", "--at", "50%,50%", "--size", "40", "-o", "bad.png"], in: dir)
        try #require(r.status == 0, "\(r)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("EXIF") && lines[0].contains("left out"), "\(r.stderr)")
        let t = Self.tags(FileSystem.join(dir, "bad.png"))
        #expect(t["XMP-xmp:Rating"] == .number(3), "\(t)")
        #expect(!t.keys.contains { $0.hasPrefix("IFD0:") || $0.hasPrefix("ExifIFD:") }, "\(t)")
    }

    /// PNG's eXIf has no 64 KiB limit, JPEG's APP1 has: a 70 KB EXIF block goes into a PNG
    /// thumbnail and is left out of a JPEG one, with one warning.
    @Test func exifOverJPEGLimitIsLeftOut() throws {
        let dir = Self.dir
        #expect(
            CLI.shell(
                "cd \(CLI.quote(dir)) && cp src.png big.png && head -c 70000 /dev/zero | tr '\\0' 'x' > note.txt && exiftool -q -q -overwrite_original '-UserComment<=note.txt' big.png"
            ) == 0)
        let png = CLI.run(
            ["thumb", "big.png", "--quiet", "--size", "32", "-o", "big-png", "--name", "%s.png"], in: dir)
        try #require(png.status == 0, "\(png)")
        #expect(Self.tags(FileSystem.join(dir, "big-png/big.png"))["ExifIFD:DateTimeOriginal"] == .string(Self.date))
        let jpg = CLI.run(["thumb", "big.png", "--size", "32", "-o", "big-jpg", "--name", "%s.jpg"], in: dir)
        try #require(jpg.status == 0, "\(jpg)")
        #expect(jpg.stderr.contains("64 KiB"), "\(jpg.stderr)")
        let t = Self.tags(FileSystem.join(dir, "big-jpg/big.jpg"))
        #expect(t["ExifIFD:DateTimeOriginal"] == nil && t["XMP-xmp:Rating"] == .number(4), "\(t)")
    }

    @Test func infoListsMetadata() throws {
        let r = CLI.run(["info", "--json", "src.jpg", "plain.png"], in: Self.dir)
        try #require(r.status == 0, "\(r)")
        let records = r.stdout.split(separator: "\n").compactMap { JSONValue.object($0) }
        try #require(records.count == 2)
        guard case .object(let m)? = records[0]["metadata"], case .object(let exif)? = m["exif"],
            case .object(let xmp)? = m["xmp"]
        else {
            Issue.record("no metadata: \(r.stdout)")
            return
        }
        #expect(exif["valid"] == .bool(true) && exif["location"] == .bool(true))
        #expect(xmp["valid"] == .bool(true) && xmp["location"] == .bool(true))
        guard case .object(let plain)? = records[1]["metadata"] else { return }
        #expect(plain["xmp"] == .null)
        let text = CLI.run(["info", "src.jpg"], in: Self.dir)
        #expect(text.stdout.contains("EXIF block") && text.stdout.contains("XMP block"), "\(text.stdout)")
    }
}
