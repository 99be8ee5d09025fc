import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// One JSON contract: every command that prints JSON has a draft 2020-12 schema in
/// docs/json/, and `CLI.run` checks every JSON output the tests see against it (with no
/// duplicate key at any depth). Here each command runs once on a tagged photo and on each
/// format, so every schema is exercised even where no other test asks for --json.
@Suite("JSON contract", .enabled(if: CLI.canCheckJSON, "needs python3-jsonschema; skipped"))
struct JSONContractCLITests {
    static let dir: String = {
        let dir = CLI.scratch()
        for name in ["a.jpg", "a.png", "a.webp", "a.heic", "a.avif"] {
            _ = CLI.run(["fixture", "coords", "--size", "96x64", "--exif-orientation", "6", "-o", name], in: dir)
        }
        _ = CLI.shell("cd \(CLI.quote(dir)) && exiftool -q -q -overwrite_original -XMP:Rating=2 a.jpg 2>/dev/null")
        return dir
    }()

    static let runs: [[String]] = [
        ["info", "--json", "a.jpg", "a.png", "a.webp", "a.heic", "a.avif", "missing.png"],
        [
            "crop", "a.jpg", "--at", "10,10", "--at", "50%,50%", "--size", "32", "--view", "390x844", "--json", "-o",
            "c-%d.png",
        ],
        ["crop", "a.jpg", "--at", "10,10", "--geometry-only"],
        ["crop", "a.jpg", "--at", "10,10", "--size", "16", "--lossless", "--json", "-o", "l.jpg"],
        ["fit", "a.png", "--screen", "100x80", "--json", "-o", "f.png"],
        ["frame", "a.png", "--at", "50%,50%", "--view", "100x80", "--json", "-o", "fr.png"],
        ["transform", "a.png", "--rotate", "90", "--json", "-o", "t.png"],
        ["animate", "a.png", "--screen", "120x90", "--from", "10,10,40,30", "--frames", "3", "--json"],
        [
            "thumb", "a.jpg", "a.webp", "missing.png", "--size", "32", "-o", "th", "--name", "%s-%e.png", "--json",
            "--quiet",
        ],
        ["thumb", "a.jpg", "--size", "32", "-o", "th2", "--json", "--dry-run", "--quiet"],
        ["fixture", "grid", "--size", "32x32", "--json", "-o", "fx.png"],
        ["compare", "a.png", "a.png", "--json"],
    ]

    @Test(arguments: runs)
    func everyJSONCommandFollowsItsSchema(arguments: [String]) {
        // CLI.run checks the output; here only that there was some.
        let r = CLI.run(arguments, in: Self.dir)
        #expect(!r.stdout.isEmpty, "\(r)")
        for line in r.stdout.split(separator: "\n") {
            #expect(JSONValue.object(line)?["schemaVersion"] == .number(Double(JSON.schemaVersion)), "\(line)")
        }
    }

    @Test func infoFieldsMeanOneThing() throws {
        let r = CLI.run(["info", "--json", "a.jpg", "a.png", "a.webp", "a.heic", "a.avif"], in: Self.dir)
        let records = r.stdout.split(separator: "\n").compactMap { JSONValue.object($0) }
        let formats = records.map { $0["format"] }
        var expected: [JSONValue?] = [.string("JPEG"), .string("PNG"), .string("WebP")]
        if access(FileSystem.join(Self.dir, "a.heic"), F_OK) == 0 { expected.append(.string("HEIC")) }
        if access(FileSystem.join(Self.dir, "a.avif"), F_OK) == 0 { expected.append(.string("AVIF")) }
        #expect(formats == expected)
        for record in records {
            #expect(record["icc"] != nil, "\(record)")
            // Stored 64x96 turned by orientation 6 (JPEG, PNG, WebP) or coded 96x64 with irot (HEIF): upright 96x64.
            #expect(record["uprightWidth"] == .number(96) && record["uprightHeight"] == .number(64), "\(record)")
            #expect(record["colorType"] == nil, "colorType meant two things; now pngColorType and colorBox")
        }
    }

    @Test func theCheckerCanFail() {
        let dir = CLI.scratch()
        let file = FileSystem.join(dir, "dup.jsonl")
        CLI.write(file, Array(#"{"schemaVersion":2,"file":"x","error":"a","error":"b"}"#.utf8) + [10])
        #expect(CLI.jsonProblem(file: file, command: "info")?.contains("duplicate") == true)
        CLI.write(file, Array(#"{"schemaVersion":1,"file":"x","error":"a"}"#.utf8) + [10])
        #expect(CLI.jsonProblem(file: file, command: "info") != nil)
    }

    /// What `info` says of a file's coding follows the file (issue 40): an animated WebP's
    /// `compression` is its first frame's (within the schema's enum, `animated`/`frames`
    /// tell the rest); a SOF1 JPEG is "extended", as exiftool's EncodingProcess says, not
    /// "baseline"; a WebP whose decoding the memory limit refuses is still described, with
    /// the refusal as a note (exit 0), while crop still refuses it.
    @Test func infoTellsTheCodingTheFileHas() throws {
        let dir = CLI.scratch()
        let script = """
            python3 -c 'import sys; sys.stdout.buffer.write(b"P6 64 48 255\\n" + bytes((x * 7 + y * 3 + c * 50) % 256 for y in range(48) for x in range(64) for c in range(3)))' > s.ppm
            cjpeg -quality 1 s.ppm > sof1.jpg 2>/dev/null; cjpeg -baseline s.ppm > sof0.jpg; cjpeg -progressive s.ppm > sof2.jpg
            for j in sof0 sof1 sof2; do echo "$j=$(exiftool -s3 -EncodingProcess $j.jpg)"; done > exiftool.txt
            \(CLI.quote(CLI.binary)) fixture coords --size 64x48 -o f1.png && \(CLI.quote(CLI.binary)) fixture grid --size 64x48 -o f2.png
            img2webp -loop 0 -lossy f1.png f2.png -o anim.webp > /dev/null 2>&1
            cp \(CLI.quote(FileSystem.join(CLI.root, "Fixtures/hostile/vp8l-16384x16384.webp"))) big.webp
            """
        _ = CLI.shell("cd \(CLI.quote(dir)) && bash -c \(CLI.quote(script))")
        let r = CLI.run(["info", "--json", "sof0.jpg", "sof1.jpg", "sof2.jpg", "anim.webp", "big.webp"], in: dir)
        #expect(r.status == 0, "\(r)")
        let records = r.stdout.split(separator: "\n").compactMap { JSONValue.object($0) }
        try #require(records.count == 5, "\(r)")
        let exiftool = CLI.read(FileSystem.join(dir, "exiftool.txt"))
        #expect(exiftool.contains("sof1=Extended sequential DCT"), "\(exiftool)")
        #expect(exiftool.contains("sof0=Baseline DCT"), "\(exiftool)")
        #expect(
            records.map { $0["coding"] }.prefix(3) == [
                .string("baseline"), .string("extended"), .string("progressive"),
            ])
        #expect(records[3]["compression"] == .string("lossy"), "\(records[3])")
        #expect(records[3]["animated"] == .bool(true) && records[3]["frames"] == .number(2), "\(records[3])")
        #expect(records[4]["width"] == .number(16384), "\(records[4])")
        guard case .string(let refused)? = records[4]["decodingRefused"] else {
            Issue.record("no decodingRefused: \(records[4])")
            return
        }
        #expect(refused.contains("decoding would need about 1025 MiB"), "\(refused)")
        let text = CLI.run(["info", "sof1.jpg", "big.webp"], in: dir)
        #expect(text.stdout.contains("extended sequential") && !text.stdout.contains("baseline"), "\(text)")
        #expect(text.stdout.contains("decoding would be refused: decoding would need about 1025 MiB"), "\(text)")
        let crop = CLI.run(["crop", "big.webp", "--at", "50%,50%", "-o", "c.png"], in: dir)
        #expect(crop.status == 1 && crop.stderr.contains("decoding would need about 1025 MiB"), "\(crop)")
    }
}
