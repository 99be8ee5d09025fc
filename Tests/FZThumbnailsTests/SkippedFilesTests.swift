import TestSupport
import Testing

@testable import FZCodecs
@testable import FZSystem
@testable import FZThumbnails

#if canImport(Glibc)
import Glibc
#endif

/// What a batch passes over and how it says so: the content classifier (`FileContent`), the
/// walker's choice between attempting and skipping, the summary's groups, the journal's
/// skipped records.
struct SkippedFilesTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

    /// An ISO media head: size, `ftyp`, the major brand, a minor version, compatible brands.
    static func ftyp(_ brand: String, _ compatible: [String] = []) -> [UInt8] {
        let body = Array(brand.utf8) + [0, 0, 2, 0] + compatible.flatMap { Array($0.utf8) }
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array("ftyp".utf8) + body + [UInt8](repeating: 0, count: 16)
    }

    static let plist = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>adjustmentFormatIdentifier</key></dict></plist>
        """.utf8)
    static let xmp = Array("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<x:xmpmeta".utf8)

    /// A Flash video's head: a video container forcezoom does not read.
    static let flv = Array("FLV".utf8) + [1, 5, 0, 0, 0, 9] + [UInt8](repeating: 0, count: 16)

    static func kind(_ head: [UInt8], _ name: String) -> FileContent { FileContent.classify(head: head, name: name) }

    @Test func readableFormatsWinOverTheName() {
        #expect(Self.kind(Self.jpeg, "fake.png") == .image(.jpeg))
        #expect(Self.kind(Self.png, "x.MOV") == .image(.png))
        // The HEIF decoder's brands are images, whatever the extension.
        #expect(Self.kind(Self.ftyp("heic", ["mif1", "heic"]), "IMG_1.MOV") == .image(.heif))
    }

    @Test func videosByContentFirst() {
        // MP4/MOV/3GP, Matroska/WebM and AVI are read (issue 50: the video decoder), whatever
        // the name; audio brands stay audio.
        for (brand, name) in [
            ("qt  ", "IMG_1.MOV"), ("isom", "clip.MP4"), ("mp42", "a.jpg"), ("M4V ", "x"),
            ("3gp4", "y.3gp"),
        ] {
            #expect(Self.kind(Self.ftyp(brand, ["isom"]), name) == .image(.video), "\(brand) \(name)")
        }
        #expect(
            Self.kind(Self.ftyp("M4A ", ["isom"]), "a.m4a") == .skipped(.init(.other, "audio, ISO media brand 'M4A'")))
        #expect(Self.kind([0x1A, 0x45, 0xDF, 0xA3, 1, 0, 0, 0], "a.webm") == .image(.video))
        #expect(Self.kind(Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8), "a.avi") == .image(.video))
        #expect(Self.kind(Array("FLV".utf8) + [1, 5, 0, 0, 0, 9], "a.flv") == .skipped(.init(.video, "a Flash video")))
        // An MPEG transport stream: sync bytes 188 apart.
        var ts = [UInt8](repeating: 0xFF, count: 200)
        (ts[0], ts[188]) = (0x47, 0x47)
        #expect(Self.kind(ts, "00001.MTS") == .skipped(.init(.video, "an MPEG transport stream video")))
        // Unknown bytes: the name is the hint (a name the video decoder claims is its to judge).
        #expect(Self.kind([1, 2, 3, 4, 5, 6, 7, 8], "x.wmv") == .skipped(.init(.video, "a video by its name, .wmv")))
        #expect(Self.kind([1, 2, 3, 4, 5, 6, 7, 8], "x.mkv") == .unidentified("unrecognised content"))
        // Audio and camera raws in ISO media are not videos (a CR3 is the RAW decoder's).
        #expect(Self.kind(Self.ftyp("M4A "), "song.m4a") == .skipped(.init(.other, "audio, ISO media brand 'M4A'")))
        #expect(Self.kind(Self.ftyp("crx "), "IMG_1.CR3") == .image(.raw))
    }

    @Test func sidecarsByContentAndName() {
        #expect(Self.kind(Self.plist, "IMG_0001.AAE") == .skipped(.init(.sidecar, "a .aae sidecar, XML property list")))
        #expect(Self.kind(Self.xmp, "IMG_0001.XMP") == .skipped(.init(.sidecar, "an XMP sidecar")))
        #expect(Self.kind(Self.xmp, "IMG_0001.xml") == .skipped(.init(.sidecar, "XMP metadata, a sidecar")))
        #expect(
            Self.kind(Array("[Version]\nAppVersion=5.8\n".utf8), "a.pp3")
                == .skipped(.init(.sidecar, "a .pp3 sidecar, text")))
        // A plist not named like a sidecar is no sidecar.
        #expect(Self.kind(Self.plist, "Info.plist") == .skipped(.init(.other, "an XML property list")))
        // A .THM that is a JPEG (old cameras' video thumbnails) is an image.
        #expect(Self.kind(Self.jpeg, "MVI_1.THM") == .image(.jpeg))
    }

    @Test func otherFormatsAreNamedByTheSniffer() {
        let psd = Self.kind(Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0, 0, 3], "a.psd")
        #expect(psd == .skipped(.init(.image, "Photoshop PSD")))
        #expect(psd.skipReason == "Photoshop PSD, which forcezoom does not read")
        let jp2: [UInt8] = [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        #expect(Self.kind(jp2, "a.jp2") == .skipped(.init(.image, "JPEG 2000")))
        #expect(Self.kind(Array("%PDF-1.7\n".utf8), "a.pdf") == .skipped(.init(.other, "a PDF document")))
        #expect(
            Self.kind(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "a.svg")
                == .skipped(.init(.image, "SVG")))
        #expect(Self.kind(Array("just words\n".utf8), "a.txt") == .unidentified("text"))
        #expect(Self.kind([], "a.jpg") == .unidentified("empty"))
        #expect(Self.kind([0, 1, 2, 3, 200, 201], "a.bin") == .unidentified("unrecognised content"))
        // A camera raw the RAW decoder knows by its bytes is read; one whose bytes nothing
        // here knows is named as an image by its extension, unless a decoder claims the
        // extension (then the decoder judges it).
        #expect(Self.kind(Array("FUJIFILMCCD-RAW 0201FF383501".utf8), "DSCF1.RAF") == .image(.raw))
        #expect(Self.kind([0, 1, 2, 3, 200, 201], "DSCF1.RAF") == .unidentified("unrecognised content"))
        let mos = Self.kind([0, 1, 2, 3, 200, 201], "CF000.MOS")
        #expect(mos == .skipped(.init(.image, "a camera raw file by its name, .mos")))
        #expect(Self.kind([0, 1, 2, 3, 200, 201], "a.webp") == .unidentified("unrecognised content"))
    }

    /// The walker: identified content is skipped with its reason whatever the name; bytes that
    /// say nothing are attempted when the name says image (a broken download fails, named),
    /// else skipped as not an image; hidden files are passed over silently.
    @Test func walkerAttemptsOrNamesEveryFile() {
        let root = TestSupport.scratch()
        defer { TestSupport.shell("rm -rf '\(root)'") }
        TestSupport.shell("mkdir -p '\(root)/sub'")
        let files: [(String, [UInt8])] = [
            ("a.jpg", Self.jpeg), ("fake.png", Self.jpeg), ("page.jpg", Array("<html>404</html>\n".utf8)),
            // Video containers forcezoom does not read (MP4/MOV are read since issue 50).
            ("empty.jpg", []), ("IMG_1.MOV", Self.flv),
            ("video.jpg", [0, 0, 1, 0xBA, 0x44] + [UInt8](repeating: 0, count: 16)),
            ("IMG_1.AAE", Self.plist), ("sub/IMG_2.XMP", Self.xmp), ("notes.txt", Array("hello\n".utf8)),
            ("sub/empty", []), (".hidden.MOV", Self.flv),
        ]
        for (name, bytes) in files { BatchSupportTests.write(root + "/" + name, bytes) }
        let found = InputWalker(recursive: true).collectAll([root])
        #expect(found.failures.isEmpty)
        #expect(
            Set(found.inputs.map { FileSystem.basename($0.path) }) == ["a.jpg", "fake.png", "page.jpg", "empty.jpg"])
        let skipped = Dictionary(uniqueKeysWithValues: found.skipped.map { (FileSystem.basename($0.path), $0.skip) })
        #expect(skipped["IMG_1.MOV"]?.category == .video)
        #expect(skipped["video.jpg"]?.category == .video)
        #expect(skipped["IMG_1.AAE"]?.category == .sidecar)
        #expect(skipped["IMG_2.XMP"]?.category == .sidecar)
        #expect(skipped["notes.txt"] == .init(.other, "not an image (text)"))
        #expect(skipped["empty"] == .init(.other, "an empty file"))
        #expect(skipped.count == 6, "\(skipped.keys.sorted())")
        #expect(found.skipped.first { $0.path.hasSuffix("IMG_2.XMP") }?.input.folder == "sub")
        // Named on the command line, every file is attempted (an unreadable one fails, named).
        let named = InputWalker().collectAll([root + "/IMG_1.MOV", root + "/notes.txt"])
        #expect(named.inputs.count == 2 && named.skipped.isEmpty)
        // In a --from list, files are sorted as in a folder.
        let listed = InputWalker().collectAll([], listed: [root + "/IMG_1.MOV", root + "/a.jpg"])
        #expect(listed.inputs.map(\.path) == [root + "/a.jpg"] && listed.skipped.count == 1)
    }

    @Test func summaryGroupsWhatWasSkipped() {
        func file(_ path: String, _ category: FileContent.Skip.Category, _ what: String = "x") -> SkippedFile {
            SkippedFile(input: .init(path: path), skip: .init(category, what))
        }
        var tally = SkipTally()
        #expect(tally.summary == nil)
        for p in ["a.MOV", "b.MOV", "c.MP4", "d.MOV"] { tally.add(file(p, .video)) }
        tally.add(file("a.AAE", .sidecar))
        tally.add(file("a.XMP", .sidecar))
        tally.add(file("a.psd", .image, "Photoshop PSD"))
        tally.add(file("notes.txt", .other))
        tally.add(file("README", .other))
        #expect(
            tally.summary
                == "skipped 9: 4 videos (.MOV, .MP4), 2 sidecars (.AAE, .XMP), 1 image in a format forcezoom does not read (Photoshop PSD), 2 not images (.txt, no extension)"
        )
        var p = BatchProgress(total: 3)
        p.record(.made)
        p.skippedFiles = tally
        #expect(p.summary(elapsed: 1.04).hasPrefix("1 thumbnail, 0 failed, 1.0 s; skipped 9: 4 videos (.MOV, .MP4), "))
        // Many extensions: the first four, then "...".
        var many = SkipTally()
        for e in ["a", "b", "c", "d", "e"] { many.add(file("x." + e, .other)) }
        #expect(many.summary == "skipped 5: 5 not images (.a, .b, .c, .d, ...)")
        // An image known only by its name is listed by its extension.
        let raws = SkipTally([
            file("a.CRW", .image, "a camera raw file by its name, .crw"), file("b.psd", .image, "Photoshop PSD"),
        ])
        #expect(raws.summary == "skipped 2: 2 images in formats forcezoom does not read (.CRW, Photoshop PSD)")
    }

    /// A skipped record round-trips, and never makes an input done: a later `skipped` line for
    /// an input takes it out of the table as a `failed` one does; `ok` lines are unchanged.
    @Test func journalRecordsSkippedFilesWithoutMakingThemDone() throws {
        let skipped = JournalRecord(
            input: "p/IMG_1.MOV", output: "", status: .skipped, bytes: nil, sha256: nil, shard: "1/1",
            reason: "a QuickTime video, brand 'qt'")
        let line = skipped.json.description
        #expect(line.contains(#""output":null"#) && line.contains(#""status":"skipped""#))
        #expect(line.hasSuffix(#""reason":"a QuickTime video, brand 'qt'"}"#))
        #expect(JournalRecord(line: line) == skipped)
        let ok = JournalRecord(
            input: "p/a.jpg", output: "t/a.png", status: .ok, bytes: 3, sha256: String(repeating: "0", count: 64),
            shard: "1/1")
        #expect(!ok.json.description.contains("reason"))
        // A null output is only a skipped record's.
        #expect(JournalRecord(line: line.replacing(#""status":"skipped""#, with: #""status":"failed""#)) == nil)
        let dir = TestSupport.scratch()
        let path = dir + "/j.jsonl"
        let later = JournalRecord(
            input: "p/a.jpg", output: "", status: .skipped, bytes: nil, sha256: nil, shard: "1/1", reason: "r")
        let text = [ok.json, skipped.json, later.json].map(\.description).joined(separator: "\n") + "\n"
        BatchSupportTests.write(path, Array(text.utf8))
        let done = try Journal.read(path)
        #expect(done.isEmpty, "\(done)")
    }
}

extension FileContent {
    /// The batch's reason for a skipped file (nil otherwise).
    fileprivate var skipReason: String? {
        if case .skipped(let s) = self { return s.reason }
        return nil
    }
}
