import TestSupport
import Testing

@testable import FZSystem

/// No file skipped without its name (issue 35): a messy photo folder made here, with videos
/// in containers forcezoom does not read (Flash, Windows Media, MPEG program streams: MP4,
/// MOV, Matroska and AVI are read since issue 50, VideoCLITests),
/// sidecars, formats forcezoom does not read, text, an empty file and misnamed images; every
/// file is either thumbnailed or named, in the summary, `--json` (checked against
/// docs/json/thumb.schema.json by `CLI.run`), the journal and `--verbose`.
@Suite("Skipped files CLI")
struct SkippedFilesCLITests {
    /// ISO media: size, `ftyp`, major brand, minor version, compatible brands, then padding.
    static func ftyp(_ brand: String, _ compatible: [String]) -> [UInt8] {
        let body = Array(brand.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        let size = UInt8(8 + body.count)
        return [0, 0, 0, size] + Array("ftyp".utf8) + body + [0, 0, 0, 8] + Array("free".utf8)
            + [UInt8](repeating: 0, count: 64)
    }

    /// Video containers forcezoom does not read, named as phones and cameras name videos.
    static let flv = Array("FLV".utf8) + [1, 5, 0, 0, 0, 9] + [UInt8](repeating: 0, count: 64)
    static let asf = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9] + [UInt8](repeating: 0, count: 64)
    static let mpegPS: [UInt8] = [0, 0, 1, 0xBA, 0x44] + [UInt8](repeating: 0, count: 64)

    /// Every file of the folder (relative) and what becomes of it: "made", "failed", or the
    /// skipped record's category.
    static let expected: [String: String] = [
        "a.jpg": "made", "b.png": "made", "sub/c.webp": "made", "sub/deep/fake.png": "made",
        "IMG_1.MOV": "video", "sub/clip.MP4": "video", "sub/deep/clip2.mp4": "video", "video.jpg": "video",
        "IMG_1.AAE": "sidecar", "sub/IMG_2.XMP": "sidecar", "layers.psd": "image", "pic.jp2": "image",
        "notes.txt": "other", "sub/empty": "other", "page.jpg": "failed",
    ]

    /// photos/ as `expected` says, plus a hidden video (passed over without a word).
    static func messyFolder() -> String {
        let dir = CLI.scratch()
        let p = dir + "/photos"
        _ = CLI.shell("mkdir -p \(CLI.quote(p))/sub/deep")
        for (name, kind) in [("a.jpg", "a"), ("b.png", "b"), ("sub/c.webp", "c"), ("fake.jpg", "d")] {
            let r = CLI.run(["fixture", "coords", "--size", "96x64", "-o", "photos/" + name], in: dir)
            #expect(r.status == 0, "\(kind): \(r.stderr)")
        }
        // A JPEG named .png, in a deeper folder.
        _ = CLI.shell("mv \(CLI.quote(p))/fake.jpg \(CLI.quote(p))/sub/deep/fake.png")
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>adjustmentFormatIdentifier</key><string>com.apple.photo</string></dict></plist>
            """
        let xmp = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>
            """
        let files: [(String, [UInt8])] = [
            ("IMG_1.MOV", flv), ("sub/clip.MP4", asf), ("sub/deep/clip2.mp4", mpegPS), ("video.jpg", flv),
            ("IMG_1.AAE", Array(plist.utf8)), ("sub/IMG_2.XMP", Array(xmp.utf8)),
            ("layers.psd", Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 64, 0, 0, 0, 96, 0, 8, 0, 3]),
            ("pic.jp2", [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A] + ftyp("jp2 ", ["jp2 "])),
            ("notes.txt", Array("shopping: film, batteries\n".utf8)), ("sub/empty", []),
            ("page.jpg", Array("<html><body>404 Not Found</body></html>\n".utf8)), (".hidden.MOV", flv),
        ]
        for (name, bytes) in files { CLI.write(p + "/" + name, bytes) }
        return dir
    }

    static func relative(_ path: String) -> String {
        path.hasPrefix("photos/") ? String(path.dropFirst("photos/".count)) : path
    }

    @Test func everyFileIsThumbnailedOrNamed() throws {
        let dir = Self.messyFolder()
        let r = CLI.run(["thumb", "photos", "-r", "--json", "--journal", "j.jsonl", "--verbose", "-o", "out"], in: dir)
        #expect(r.status == 1, "page.jpg (text named .jpg) fails: \(r.stderr)")
        // --json: one record per file, none for the hidden one.
        var seen: [String: String] = [:]
        for record in JSONValue.objects(r.stdout) {
            guard case .string(let input)? = record["input"], case .string(let status)? = record["status"] else {
                Issue.record("record without input or status: \(record)")
                continue
            }
            var outcome = status
            if status == "skipped" {
                guard case .string(let category)? = record["category"], case .string(let reason)? = record["reason"]
                else {
                    Issue.record("skipped record without category or reason: \(record)")
                    continue
                }
                outcome = category
                #expect(!reason.isEmpty && record["output"] == .null && record["skipped"] == nil)
            }
            #expect(seen.updateValue(outcome, forKey: Self.relative(input)) == nil, "\(input) twice")
        }
        #expect(seen == Self.expected, "\(r.stdout)")
        // The summary: grouped, each group with the extensions (or formats) it held.
        let summary = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("forcezoom: 4 thumbnails, 1 failed, "), "\(r.stderr)")
        #expect(summary.contains("; skipped 10: 4 videos ("), "\(summary)")
        for ext in [".MOV", ".MP4", ".mp4", ".jpg"] { #expect(summary.contains(ext), "\(ext): \(summary)") }
        #expect(
            summary.contains("2 sidecars (.AAE, .XMP)") || summary.contains("2 sidecars (.XMP, .AAE)"), "\(summary)")
        #expect(summary.contains("2 images in formats forcezoom does not read ("), "\(summary)")
        #expect(summary.contains("Photoshop PSD") && summary.contains("JPEG 2000"), "\(summary)")
        #expect(summary.contains("2 not images ("), "\(summary)")
        // --verbose: each skipped file named with its reason; the failure is an error line.
        #expect(
            r.stderr.contains("forcezoom: photos/IMG_1.MOV: skipped: a Flash video\n"), "\(r.stderr)")
        #expect(r.stderr.contains("forcezoom: photos/video.jpg: skipped: a Flash video\n"))
        #expect(r.stderr.contains("forcezoom: photos/sub/IMG_2.XMP: skipped: an XMP sidecar\n"))
        #expect(
            r.stderr.contains("forcezoom: photos/layers.psd: skipped: Photoshop PSD, which forcezoom does not read\n"))
        #expect(r.stderr.contains("forcezoom: photos/sub/empty: skipped: an empty file\n"))
        #expect(r.stderr.contains("photos/page.jpg: not an image (the file is text)"), "\(r.stderr)")
        #expect(!r.stderr.contains(".hidden"))
        // The fake .png was read as the JPEG it is.
        #expect(FileSystem.kind(of: dir + "/out/sub/deep/fake.thumb.png") == .regular)
        // The journal: a line for every file, skipped ones with their reason.
        let journal = CLI.read(dir + "/j.jsonl").split(separator: "\n").compactMap { JSONValue.object($0) }
        var journaled: [String: String] = [:]
        for line in journal {
            guard case .string(let input)? = line["input"], case .string(let status)? = line["status"] else { continue }
            if status == "skipped" {
                #expect(line["output"] == .null && line["reason"] != nil, "\(line)")
            }
            journaled[Self.relative(input)] = status
        }
        #expect(journaled.count == Self.expected.count, "\(journaled)")
        #expect(journaled.values.filter { $0 == "skipped" }.count == 10)
        #expect(journaled["a.jpg"] == "ok" && journaled["page.jpg"] == "failed")

        // --resume: the made ones are done, the skipped ones skipped again (never done), the
        // failed one attempted again.
        let again = CLI.run(
            ["thumb", "photos", "-r", "--json", "--journal", "j.jsonl", "--resume", "-o", "out"], in: dir)
        #expect(again.status == 1, "\(again.stderr)")
        let statuses = JSONValue.objects(again.stdout).compactMap { record -> String? in
            if case .string(let s)? = record["status"] { return s }
            return nil
        }
        #expect(
            statuses.sorted() == ["failed", "kept", "kept", "kept", "kept"] + Array(repeating: "skipped", count: 10))
        #expect(again.stderr.contains("forcezoom: 0 thumbnails, 4 already done, 1 failed, "), "\(again.stderr)")
        #expect(again.stderr.contains("; skipped 10: "))
        #expect(!again.stderr.contains("skipped: a Flash"), "no --verbose, no per-file lines")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// Sharded, each task names only its own share of the skipped files: together once each.
    @Test func shardsNameEachSkippedFileOnce() {
        let dir = Self.messyFolder()
        var names: [String] = []
        for k in 1...2 {
            let r = CLI.run(["thumb", "photos", "-r", "--json", "--shard", "\(k)/2", "-o", "out", "-q"], in: dir)
            for record in JSONValue.objects(r.stdout) where record["status"] == .string("skipped") {
                #expect(record["shard"] == .string("\(k)/2"), "\(record)")
                if case .string(let input)? = record["input"] { names.append(Self.relative(input)) }
            }
        }
        let skipped = Self.expected.filter { !["made", "failed"].contains($0.value) }.keys
        #expect(names.sorted() == skipped.sorted(), "\(names)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// A file named on the command line is always attempted: one that cannot be read is an
    /// error line saying what it is, and the exit code is 1.
    @Test func namedFilesThatCannotBeReadAreErrors() {
        let dir = Self.messyFolder()
        let r = CLI.run(
            ["thumb", "photos/IMG_1.MOV", "photos/layers.psd", "photos/notes.txt", "photos/sub/empty", "-o", "out"],
            in: dir)
        #expect(r.status == 1)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("forcezoom: error: ") }
        #expect(errors.count == 4, "\(r.stderr)")
        #expect(r.stderr.contains("photos/IMG_1.MOV: not an image (a Flash video)"), "\(r.stderr)")
        #expect(r.stderr.contains("photos/layers.psd: Photoshop PSD is not supported"))
        #expect(r.stderr.contains("photos/notes.txt: not an image (the file is text)"))
        #expect(r.stderr.contains("photos/sub/empty: file is empty"))
        #expect(!r.stderr.contains("skipped"), "\(r.stderr)")
        // A --from list is sorted like a folder: the video is named as skipped, not an error.
        CLI.write(dir + "/list", Array("photos/IMG_1.MOV\nphotos/a.jpg\n".utf8))
        let listed = CLI.run(["thumb", "--from", "list", "-o", "out2", "--json"], in: dir)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(
            listed.stderr.contains("1 thumbnail, 0 failed, ") && listed.stderr.contains("; skipped 1: 1 video (.MOV)"))
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// `info` says what each file is.
    @Test func infoNamesEveryFormat() {
        let dir = Self.messyFolder()
        let cases: [(String, String)] = [
            ("photos/IMG_1.MOV", "not an image (a Flash video)"),
            ("photos/sub/clip.MP4", "not an image (a Windows Media video)"),
            ("photos/layers.psd", "Photoshop PSD is not supported"), ("photos/pic.jp2", "JPEG 2000 is not supported"),
            ("photos/IMG_1.AAE", "not an image (a .aae sidecar, XML property list)"),
            ("photos/sub/IMG_2.XMP", "not an image (an XMP sidecar)"),
            ("photos/notes.txt", "not an image (the file is text)"),
        ]
        for (file, says) in cases {
            let r = CLI.run(["info", file], in: dir)
            #expect(r.status == 1 && r.stderr.contains("\(file): \(says)"), "\(file): \(r.stderr)")
        }
        let json = CLI.run(["info", "--json", "photos/IMG_1.MOV"], in: dir)
        #expect(json.stdout.contains("a Flash video"), "\(json.stdout)")
        let fake = CLI.run(["info", "photos/sub/deep/fake.png"], in: dir)
        #expect(fake.status == 0 && fake.stdout.contains("JPEG"), "\(fake.stdout)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }
}
