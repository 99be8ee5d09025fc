import FZSystem
import TestSupport
import Testing

/// Live Photos as one item (issue 50, item 2): the pairs Tools/formats/make-motion.py makes
/// (HEIC and JPEG stills, MOVs from ffmpeg, identifiers written with exiftool) give one
/// thumbnail and one named `live-photo motion` skip each; a pair by name where neither has an
/// identifier; by identifier across names; no pair for two identifiers or a movie alone (those
/// stay videos). `info` reports the identifier on both sides, as exiftool reads it. Needs
/// ffmpeg, heif-enc and exiftool; adds about 3 s (the generator), the runs well under a second.
@Suite("Live Photo pairs")
struct LivePhotoCLITests {
    static let ready = CLI.shell("command -v ffmpeg >/dev/null && command -v heif-enc >/dev/null") == 0
    static let made: String = {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/formats/make-motion.py")
        _ = CLI.shell("/usr/bin/python3 \(CLI.quote(script)) \(CLI.quote(dir)) >/dev/null")
        return dir
    }()
    static var live: String { FileSystem.join(made, "live") }

    /// exiftool's value of `tag` in `path` ("" when absent).
    static func exiftool(_ tag: String, _ path: String) -> String {
        LocationAttackTests.exiftool("-s3 -\(tag)", path).split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test(.enabled(if: ready))
    func aBatchPairsStillsWithTheirMoviesAndThumbnailsEachStillOnce() throws {
        let out = FileSystem.join(CLI.scratch(), "thumbs")
        // %e: IMG_0004.HEIC and its unpaired IMG_0004.MOV (a video, read as its poster) would
        // otherwise share IMG_0004.thumb.png.
        let r = CLI.run(["thumb", Self.live, "--out", out, "--size", "32", "--name", "%s-%e.png", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        var made: [String] = []
        var skipped: [String: (category: String, of: String?)] = [:]
        for record in JSONValue.objects(r.stdout) {
            guard case .string(let input)? = record["input"], case .string(let status)? = record["status"] else {
                continue
            }
            let name = FileSystem.basename(input)
            if status == "made" { made.append(name) }
            if status == "skipped", case .string(let category)? = record["category"] {
                var of: String?
                if case .string(let s)? = record["of"] { of = FileSystem.basename(s) }
                skipped[name] = (category, of)
            }
        }
        // The stills, and the two movies that pair with nothing: videos, each its own poster.
        #expect(
            made.sorted() == [
                "IMG_0001.HEIC", "IMG_0002.JPG", "IMG_0003.HEIC", "IMG_0004.HEIC", "IMG_0004.MOV", "lonely.MOV",
            ], "\(r.stdout)")
        // The pairs: shared identifier, by name (no identifiers), by identifier across names.
        for (movie, still) in [
            ("IMG_0001.MOV", "IMG_0001.HEIC"), ("IMG_0002.MOV", "IMG_0002.JPG"), ("clip-0003.MOV", "IMG_0003.HEIC"),
        ] {
            #expect(skipped[movie]?.category == "live-photo motion", "\(movie): \(r.stdout)")
            #expect(skipped[movie]?.of == still, "\(movie): \(r.stdout)")
        }
        // Two identifiers under one name, and a movie with no still: videos, not paired (made above).
        #expect(skipped["IMG_0004.MOV"] == nil && skipped["lonely.MOV"] == nil, "\(r.stdout)")
        #expect(r.stderr.contains("3 Live Photo motion parts"), "\(r.stderr)")
        // What was read agrees with exiftool: the pairs by identifier share exiftool's value.
        let a = Self.exiftool("MediaGroupUUID", FileSystem.join(Self.live, "IMG_0001.HEIC"))
        #expect(!a.isEmpty && a == Self.exiftool("ContentIdentifier", FileSystem.join(Self.live, "IMG_0001.MOV")))
        let c = Self.exiftool("MediaGroupUUID", FileSystem.join(Self.live, "IMG_0003.HEIC"))
        #expect(!c.isEmpty && c == Self.exiftool("ContentIdentifier", FileSystem.join(Self.live, "clip-0003.MOV")))
    }

    @Test(.enabled(if: ready))
    func aMovieNamedBesideItsStillIsPairedAndAMovieAloneIsNot() throws {
        let out = FileSystem.join(CLI.scratch(), "thumbs")
        let still = FileSystem.join(Self.live, "IMG_0001.HEIC")
        let movie = FileSystem.join(Self.live, "IMG_0001.MOV")
        let r = CLI.run(["thumb", still, movie, "--out", out, "--size", "32", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let records = JSONValue.objects(r.stdout)
        #expect(records.count == 2, "\(r.stdout)")
        let skip = records.first { $0["input"] == .string(movie) }
        #expect(skip?["category"] == .string("live-photo motion") && skip?["of"] == .string(still), "\(r.stdout)")
        // Without its still the movie is attempted as named (a video: failed until videos are
        // read, a poster after), never passed over as a motion part.
        let alone = CLI.run(["thumb", movie, "--out", out, "--size", "32", "--json"])
        let record = JSONValue.objects(alone.stdout).first
        #expect(record?["input"] == .string(movie) && record?["status"] != .string("skipped"), "\(alone.stdout)")
    }

    @Test(.enabled(if: ready))
    func infoReportsTheIdentifierOfBothParts() throws {
        let still = FileSystem.join(Self.live, "IMG_0001.HEIC")
        let movie = FileSystem.join(Self.live, "IMG_0001.MOV")
        let expected = Self.exiftool("MediaGroupUUID", still)
        #expect(expected.count == 36)
        let s = CLI.run(["info", "--json", still])
        #expect(s.status == 0, "\(s.stderr)")
        let sLive = JSONValue.object(s.stdout)?["livePhoto"]
        #expect(sLive == .object(["role": .string("still"), "contentIdentifier": .string(expected)]), "\(s.stdout)")
        let m = CLI.run(["info", "--json", movie])
        #expect(m.status == 0, "\(m.stderr)")
        let record = JSONValue.object(m.stdout)
        #expect(
            record?["livePhoto"] == .object(["role": .string("motion"), "contentIdentifier": .string(expected)]),
            "\(m.stdout)")
        // The movie's facts as ffmpeg made it: 1.5 s of 64x48 H.264, read as a video (FZVideo).
        #expect(record?["codec"] == .string("h264") && record?["width"] == .number(64), "\(m.stdout)")
        #expect(record?["height"] == .number(48) && record?["duration"] == .number(1.5), "\(m.stdout)")
        let text = CLI.run(["info", movie])
        #expect(text.stdout.contains("Live Photo motion part, content identifier \(expected)"), "\(text.stdout)")
        // A movie without an identifier is no Live Photo part to info (a video, whatever info
        // says of videos).
        let plain = CLI.run(["info", "--json", FileSystem.join(Self.live, "IMG_0002.MOV")])
        #expect(JSONValue.object(plain.stdout)?["livePhoto"] == nil, "\(plain.stdout)")
        #expect(!plain.stdout.isEmpty, "info --json prints a record for every file")
    }
}
