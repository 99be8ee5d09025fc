import FZSystem
import TestSupport
import Testing

/// Motion photos (issue 50, item 2): a JPEG or HEIC with an MP4 inside reads as its still, and
/// `info` finds the clip exactly where exiftool does (the bytes at info's offset and length
/// are the ones `exiftool -b` extracts), with the duration, codec and size ffprobe reads from
/// the MP4 itself. The four forms Tools/formats/make-motion.py makes: Google's Container XMP,
/// the older MicroVideo XMP, Samsung's SEFT trailer, a HEIC's mpvd box. Needs ffmpeg,
/// heif-enc and exiftool; shares LivePhotoCLITests' generated folder; adds about a second.
@Suite("Motion photos")
struct MotionPhotoCLITests {
    static var motion: String { FileSystem.join(LivePhotoCLITests.made, "motion") }

    /// Each file, how exiftool extracts its clip, and the source info names.
    static let cases: [(file: String, extract: String, source: String)] = [
        ("google.jpg", "-b -ee -EmbeddedVideo", "Google motion photo XMP"),
        ("microvideo.jpg", "-b -ee -EmbeddedVideo", "Google MicroVideo XMP"),
        ("samsung.jpg", "-b -EmbeddedVideoFile", "Samsung trailer"),
        ("samsung.heic", "-b -MotionPhotoVideo", "HEIF mpvd box"),
    ]

    static func ffprobe(_ entries: String, _ path: String) -> String {
        let out = path + ".ffprobe.txt"
        _ = CLI.shell(
            "ffprobe -v error -select_streams v:0 -show_entries \(entries) -of csv=p=0 \(CLI.quote(path)) > \(CLI.quote(out))"
        )
        return CLI.read(out).split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test(.enabled(if: LivePhotoCLITests.ready), arguments: cases.map(\.file))
    func infoFindsTheClipWhereExiftoolDoes(_ file: String) throws {
        let c = try #require(Self.cases.first { $0.file == file })
        let path = FileSystem.join(Self.motion, file)
        let r = CLI.run(["info", "--json", path])
        #expect(r.status == 0, "\(r.stderr)")
        guard case .object(let clip)? = JSONValue.object(r.stdout)?["motionPhoto"],
            case .number(let offset)? = clip["offset"], case .number(let length)? = clip["length"]
        else {
            Issue.record("no motionPhoto: \(r.stdout)")
            return
        }
        #expect(clip["source"] == .string(c.source))
        let extracted = FileSystem.join(CLI.scratch(), "clip.mp4")
        _ = CLI.shell("exiftool \(c.extract) \(CLI.quote(path)) > \(CLI.quote(extracted))")
        let theirs = CLI.bytes(extracted)
        let whole = CLI.bytes(path)
        #expect(!theirs.isEmpty && theirs.count == Int(length), "exiftool: \(theirs.count) bytes, info: \(length)")
        #expect(Int(offset) + Int(length) <= whole.count)
        #expect(Array(whole[Int(offset)..<(Int(offset) + Int(length))]) == theirs, "the bytes at \(offset)")
        // The clip's own facts, as ffprobe reads the MP4 exiftool extracted.
        let size = Self.ffprobe("stream=width,height", extracted).split(separator: ",").compactMap { Double($0) }
        #expect(clip["width"] == .number(size.first ?? -1) && clip["height"] == .number(size.last ?? -1), "\(clip)")
        let duration = Double(Self.ffprobe("format=duration", extracted)) ?? -1
        guard case .number(let d)? = clip["duration"] else {
            Issue.record("no duration: \(clip)")
            return
        }
        #expect(abs(d - duration) < 0.05, "info \(d) s, ffprobe \(duration) s")
        #expect(clip["codec"] == .string(Self.ffprobe("stream=codec_tag_string", extracted)))
        // Read as its still: the text line names the clip, a thumbnail is the still's.
        let text = CLI.run(["info", path])
        #expect(text.stdout.contains("motion photo clip") && text.stdout.contains("\(Int(length)) bytes at"))
    }

    /// Every output drops the clip and says so; exiftool then finds neither the clip nor an
    /// XMP that announces one (re-encoded, and `crop --lossless`, which copies the markers).
    @Test(.enabled(if: LivePhotoCLITests.ready))
    func outputsSayTheClipIsDroppedAndDoNotAnnounceIt() throws {
        let dir = CLI.scratch()
        let google = FileSystem.join(Self.motion, "google.jpg")
        let micro = FileSystem.join(Self.motion, "microvideo.jpg")
        let runs: [(String, [String])] = [
            ("crop.jpg", ["crop", google, "--at", "50%,50%", "--size", "32"]),
            ("lossless.jpg", ["crop", google, "--at", "50%,50%", "--size", "32", "--lossless"]),
            ("micro.jpg", ["crop", micro, "--at", "50%,50%", "--size", "32", "--lossless"]),
            ("fit.jpg", ["fit", google, "--screen", "40x60"]),
        ]
        for (name, arguments) in runs {
            let out = FileSystem.join(dir, name)
            let r = CLI.run(arguments + ["-o", out, "--json"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            let record = JSONValue.object(r.stdout.split(separator: "\n").first ?? "")
            #expect(record?["motionPhoto"] == .string("dropped"), "\(name): \(r.stdout)")
            let tags = LocationAttackTests.exiftool("-a -G1 -s -xmp:all -ee -EmbeddedVideo", out)
            for announced in ["MotionPhoto", "MicroVideo", "DirectoryItem", "EmbeddedVideo"] {
                #expect(!tags.contains(announced), "\(name) still says \(announced): \(tags)")
            }
        }
        let thumbs = FileSystem.join(dir, "thumbs")
        let photos = Self.cases.map { FileSystem.join(Self.motion, $0.file) }
        let t = CLI.run(["thumb"] + photos + ["--out", thumbs, "--name", "%s-%e.png", "--size", "32", "--json"])
        #expect(t.status == 0, "\(t.stderr)")
        let made = JSONValue.objects(t.stdout).filter { $0["status"] == .string("made") }
        #expect(made.count == 4 && made.allSatisfy { $0["motionPhoto"] == .string("dropped") }, "\(t.stdout)")
    }
}
