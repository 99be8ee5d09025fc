import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom fixture kit`: the kit read back by decoders that are not forcezoom's (Pillow
/// with exif_transpose and ImageCms, heif-convert: Tools/testkit/check_kit.py) matches its own
/// manifest; `forcezoom compare` passes every file against its reference with the manifest's
/// tolerance; the manifest follows docs/json/fixture-kit.schema.json; two runs give the same
/// bytes wherever the manifest says the encoder is deterministic.
@Suite("fixture kit")
struct FixtureKitCLITests {
    static let pillow = CLI.shell("/usr/bin/python3 -c 'import PIL, numpy' 2>/dev/null") == 0
    static let heifConvert = CLI.shell("command -v heif-convert > /dev/null") == 0

    /// Two kits of every set, made once.
    static let made: (dir: String, first: CLIResult, second: CLIResult) = {
        let dir = CLI.scratch()
        return (
            dir, CLI.run(["fixture", "kit", "a"], in: dir), CLI.run(["fixture", "kit", "b", "--set", "all"], in: dir)
        )
    }()

    static var files: [[String: JSONValue]] {
        guard let m = JSONValue.object(CLI.read(FileSystem.join(made.dir, "a/MANIFEST.json"))),
            case .array(let f)? = m["files"]
        else {
            return []
        }
        return f.compactMap { if case .object(let o) = $0 { o } else { nil } }
    }

    @Test func writesEverySet() throws {
        let (dir, first, _) = Self.made
        try #require(first.status == 0, "\(first)")
        #expect(first.stdout == "a: 59 fixtures, 9 references, MANIFEST.json, MANIFEST.tsv\n")
        let files = Self.files
        #expect(files.count == 59)
        var sets: [String: Int] = [:]
        for f in files {
            guard case .string(let set)? = f["set"], case .string(let path)? = f["path"],
                case .string(let ref)? = f["reference"]
            else {
                Issue.record("\(f)")
                continue
            }
            sets[set, default: 0] += 1
            #expect(!CLI.bytes(FileSystem.join(dir, "a/" + path)).isEmpty, "\(path)")
            #expect(
                CLI.bytes(FileSystem.join(dir, "a/" + ref)).starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(ref) is a PNG")
        }
        // MANIFEST.tsv: the same files and references, in the same order, after its header.
        let rows = CLI.read(FileSystem.join(dir, "a/MANIFEST.tsv")).split(separator: "\n").map {
            $0.split(separator: "\t").map(String.init)
        }
        #expect(rows.first == ["path", "reference", "metric", "threshold", "icc", "why"])
        #expect(
            rows.dropFirst().map { [$0[0], $0[1]] }
                == files.map { [$0["path"], $0["reference"]].map { if case .string(let s)? = $0 { s } else { "" } } })
        // 8 JPEG + 8 PNG + 8 WebP EXIF, 8 irot x imir, 3 wrongly tagged, EXIF+XMP, HEIF EXIF ignored.
        #expect(sets == ["orientation": 37, "formats": 7, "colour": 5, "deep": 3, "alpha": 4, "hdr": 3])
        let only = CLI.run(["fixture", "kit", "o", "--set", "orientation"], in: dir)
        #expect(
            only.status == 0 && only.stdout == "o: 37 fixtures, 2 references, MANIFEST.json, MANIFEST.tsv\n", "\(only)")
        let bad = CLI.run(["fixture", "kit", "x", "--set", "colours"], in: dir)
        #expect(
            bad.status == 2 && bad.stderr.contains("--set") && bad.stderr.split(separator: "\n").count == 1, "\(bad)")
        #expect(bad.stderr.contains("forcezoom fixture kit --help"), "\(bad)")
        let empty = CLI.run(["fixture", "kit", ""], in: dir)
        #expect(empty.status == 2 && empty.stderr.contains("empty"), "\(empty)")
        CLI.write(FileSystem.join(dir, "file"), [1])
        let notFolder = CLI.run(["fixture", "kit", "file"], in: dir)
        #expect(notFolder.status == 1 && notFolder.stderr.split(separator: "\n").count == 1, "\(notFolder)")
    }

    @Test func byteIdenticalWhereDeterministic() throws {
        let (dir, first, second) = Self.made
        try #require(first.status == 0 && second.status == 0, "\(first) \(second)")
        #expect(
            CLI.bytes(FileSystem.join(dir, "a/MANIFEST.json")) == CLI.bytes(FileSystem.join(dir, "b/MANIFEST.json")))
        var compared = 0
        for f in Self.files {
            guard case .string(let path)? = f["path"], case .string(let ref)? = f["reference"] else { continue }
            #expect(
                CLI.bytes(FileSystem.join(dir, "a/" + ref)) == CLI.bytes(FileSystem.join(dir, "b/" + ref)), "\(ref)")
            if f["deterministic"] == .bool(true) {
                #expect(
                    CLI.bytes(FileSystem.join(dir, "a/" + path)) == CLI.bytes(FileSystem.join(dir, "b/" + path)),
                    "\(path)")
                compared += 1
            }
        }
        // all but the 9 HEIC of orientation, HEIC and AVIF of formats, the HEIC of deep, AVIF of alpha
        // (the hdr set's Ultra HDR JPEGs are compared)
        #expect(compared == 46)
    }

    @Test(.enabled(if: pillow && heifConvert)) func independentDecodersMatchTheManifest() throws {
        let dir = Self.made.dir
        try #require(Self.made.first.status == 0)
        let script = CLI.quote(FileSystem.join(CLI.root, "Tools/testkit/check_kit.py"))
        let log = FileSystem.join(dir, "check.jsonl")
        let err = FileSystem.join(dir, "check.err")
        let code = CLI.shell("/usr/bin/python3 \(script) a > \(CLI.quote(log)) 2> \(CLI.quote(err))", in: dir)
        #expect(code == 0, "\(CLI.read(err))")
        let lines = CLI.read(log).split(separator: "\n").compactMap { JSONValue.object($0) }
        #expect(lines.count == Self.files.count)
        #expect(lines.allSatisfy { $0["pass"] == .bool(true) }, "\(CLI.read(log))")
        // It can fail: the wrongly tagged files checked against the upright pattern (what a
        // reader that ignores the tag shows) are named with their `why`.
        let manifest = CLI.read(FileSystem.join(dir, "a/MANIFEST.json")).replacing(
            "\"reference\":\"reference/orientation-tagged-6.png\"", with: "\"reference\":\"reference/orientation.png\"")
        #expect(CLI.shell("rm -rf w && cp -r a w", in: dir) == 0)
        CLI.write(FileSystem.join(dir, "w/MANIFEST.json"), Array(manifest.utf8))
        let wrong = CLI.shell("/usr/bin/python3 \(script) w > /dev/null 2> \(CLI.quote(err))", in: dir)
        let named = CLI.read(err).split(separator: "\n")
        #expect(
            wrong == 1 && named.count == 3
                && named.allSatisfy { $0.contains("tagged-6-upright") && $0.contains("Wrongly tagged") }, "\(named)")
    }

    @Test func compareAgainstEachReferencePasses() throws {
        let dir = FileSystem.join(Self.made.dir, "a")
        try #require(Self.made.first.status == 0)
        for f in Self.files {
            guard case .string(let path)? = f["path"], case .string(let ref)? = f["reference"],
                case .object(let t)? = f["tolerance"],
                case .object(let tags)? = f["tags"]
            else {
                Issue.record("\(f)")
                continue
            }
            let (metric, threshold): (String, String) =
                switch (t["pae"], t["psnr"]) {
                case (.number(let n)?, _): ("pae", "\(Int(n))")
                case (_, .number(let db)?): ("psnr", "\(db)")
                default: ("?", "?")
                }
            let icc = tags["icc"] == .null ? [] : ["--icc", "srgb"]
            let r = CLI.run(["compare", path, ref, "--metric", metric, "--threshold", threshold] + icc, in: dir)
            #expect(r.status == 0, "\(path): \(r.stdout) \(r.stderr)")
        }
        // A reader that ignores the profile is far outside: the P3 PNG compared as stored.
        let ignored = CLI.run(
            [
                "compare", "colour/png-display-p3.png", "reference/colour-display-p3.png", "--metric", "pae",
                "--threshold", "2",
            ], in: dir)
        #expect(ignored.status == 1, "\(ignored)")
    }

    @Test func manifestFollowsItsSchema() throws {
        try #require(Self.made.first.status == 0)
        guard CLI.canCheckJSON else { return }  // checked where installed
        let schema = FileSystem.join(CLI.root, "docs/json/fixture-kit.schema.json")
        let check =
            "import json, jsonschema, sys; s = json.load(open(sys.argv[1])); jsonschema.Draft202012Validator.check_schema(s); jsonschema.Draft202012Validator(s).validate(json.load(open(sys.argv[2])))"
        let out = FileSystem.join(Self.made.dir, "schema.err")
        let code = CLI.shell(
            "\(CLI.python) -c \(CLI.quote(check)) \(CLI.quote(schema)) \(CLI.quote(FileSystem.join(Self.made.dir, "a/MANIFEST.json"))) > \(CLI.quote(out)) 2>&1"
        )
        #expect(code == 0, "\(CLI.read(out))")
    }

    @Test func heifBoxesSayIrotThenImir() throws {
        // The imir box is where HEIF wants it (after irot) and says the axis written.
        let dir = FileSystem.join(Self.made.dir, "a")
        try #require(Self.made.first.status == 0)
        let r = CLI.run(["info", "--json", "orientation/heic-irot-90-imir-1.heic"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("irot 90") && r.stdout.contains("imir left-right"), "\(r)")
    }
}

extension CLI {
    /// A shell command run in `directory`.
    static func shell(_ command: String, in directory: String) -> Int32 {
        shell("cd \(quote(directory)) && \(command)")
    }
}
