import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// Videos on the built binary (issue 50.1), against ffmpeg as the independent decoder: the frame
/// at a time (`--time`, at full size) equals `ffmpeg -ss T -i V -frames:v 1` (its autorotation,
/// its colour conversion) within 1 level for every codec and container Debian's FFmpeg has and
/// for rotated and mirrored display matrices; HDR frames equal Tools/video/tone-ref.py's mapping
/// of ffmpeg's 16-bit decode; a video that starts black gets a poster that is not; non-square
/// pixels come out in proportion; info --json reports what ffprobe does; a batch with broken
/// videos goes on. Test files: Tools/video/make-videos.sh (.cache/videos, `make videos`).
/// Adds about 20 s (some 60 short runs of the binary and of ffmpeg).
@Suite(.serialized)
struct VideoCLITests {
    static let dir = CLI.scratch()
    static func video(_ name: String) -> String { FileSystem.join(CLI.root, ".cache/videos/\(name)") }
    static func out(_ name: String) -> String { FileSystem.join(dir, name) }
    static let haveVideos = FileSystem.kind(of: video("h264.mp4")) == .regular

    /// ffmpeg's frame of `file` at `seconds` (autorotated), as a PNG at `path`.
    static func ffmpegFrame(_ file: String, _ seconds: String, _ path: String, filter: String? = nil) -> Bool {
        let vf = filter.map { " -vf \(CLI.quote($0))" } ?? ""
        return CLI.shell(
            "ffmpeg -nostdin -v error -y -ss \(seconds) -i \(CLI.quote(file))\(vf) -frames:v 1 -pix_fmt rgb24 "
                + CLI.quote(path)) == 0
    }

    /// forcezoom's whole frame of `file` at `seconds`: a thumbnail whose longest side is the
    /// frame's own (no resampling).
    static func ourFrame(_ file: String, _ seconds: String, side: Int, name: String) throws -> Image {
        let r = CLI.run(["thumb", file, "--time", seconds, "--size", "\(side)", "--out", dir, "--name", name, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        return try ImageReader(path: out(name)).readImage()
    }

    static func read(_ path: String) throws -> Image { try ImageReader(path: path).readImage() }

    /// Mean luma (0-255) and its standard deviation over an RGB image.
    static func lumaStats(_ image: Image) -> (mean: Double, deviation: Double) {
        var sum = 0.0
        var squares = 0.0
        let n = image.pixels.count / 3
        for i in 0..<n {
            let y =
                0.299 * Double(image.pixels[3 * i]) + 0.587 * Double(image.pixels[3 * i + 1]) + 0.114
                * Double(image.pixels[3 * i + 2])
            sum += y
            squares += y * y
        }
        let mean = sum / Double(n)
        return (mean, (squares / Double(n) - mean * mean).squareRoot())
    }

    static func meanDifference(_ a: Image, _ b: Image) -> Double {
        var total = 0
        for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    /// Every codec and container, and every display matrix: (file, shown width, shown height).
    static let frames: [(String, Int, Int)] = [
        ("h264.mp4", 320, 240), ("h264.mov", 320, 240), ("h264.3gp", 320, 240), ("h264.mkv", 320, 240),
        ("hevc8.mp4", 320, 240), ("hevc10.mp4", 320, 240), ("vp9.webm", 320, 240), ("av1.mkv", 320, 240),
        ("mpeg4.avi", 320, 240), ("full-range.mp4", 320, 240), ("r90.mp4", 240, 320), ("r180.mp4", 320, 240),
        ("r270.mp4", 240, 320), ("mirror.mp4", 320, 240), ("transpose.mp4", 240, 320),
    ]

    @Test(.enabled(if: haveVideos, "make videos"), arguments: frames)
    func frameAtATimeEqualsFFmpeg(_ file: String, _ width: Int, _ height: Int) throws {
        // 1.52 s: between two frames at 30 fps (1.5 and 1.533), so both tools take the same one.
        let ref = Self.out("ref-\(file).png")
        #expect(Self.ffmpegFrame(Self.video(file), "1.52", ref))
        let ffmpeg = try Self.read(ref)
        let ours = try Self.ourFrame(Self.video(file), "1.52", side: max(width, height), name: "f-\(file).png")
        #expect(ours.size == PixelSize(width: width, height: height), "\(file): \(ours.size)")
        #expect(ours.size == ffmpeg.size, "\(file): ours \(ours.size), ffmpeg \(ffmpeg.size)")
        guard ours.size == ffmpeg.size else { return }
        #expect(TestSupport.maxDifference(ours, ffmpeg) <= 1, "\(file)")
    }

    /// The same frame through crop (a 64-pixel square around a point) and a thumbnail: the
    /// video's equals the same command on ffmpeg's PNG of the frame. The crop within 1 level;
    /// the thumbnail, which the video path decodes through swscale at the size it needs
    /// (here half) before resampling, within a mean of 1.5 levels.
    @Test(.enabled(if: haveVideos, "make videos"), arguments: ["h264.mp4", "r90.mp4"])
    func cropAndThumbnailEqualTheSameOnFFmpegsFrame(_ file: String) throws {
        let ref = Self.out("cref-\(file).png")
        #expect(Self.ffmpegFrame(Self.video(file), "2.02", ref))
        let crop = ["crop", "--at", "100,90", "--size", "64", "--time", "2.02"]
        let a = CLI.run(crop + [Self.video(file), "-o", Self.out("ca.png")])
        let b = CLI.run(Array(crop.dropLast(2)) + [ref, "-o", Self.out("cb.png")])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(TestSupport.maxDifference(try Self.read(Self.out("ca.png")), try Self.read(Self.out("cb.png"))) <= 1)
        let thumb = ["thumb", "--size", "128", "--out", Self.dir, "-q"]
        let ta = CLI.run(thumb + [Self.video(file), "--time", "2.02", "--name", "ta.png"])
        let tb = CLI.run(thumb + [ref, "--name", "tb.png"])
        #expect(ta.status == 0 && tb.status == 0, "\(ta.stderr) \(tb.stderr)")
        let x = try Self.read(Self.out("ta.png"))
        let y = try Self.read(Self.out("tb.png"))
        #expect(x.size == y.size)
        if x.size == y.size { #expect(Self.meanDifference(x, y) <= 1.5, "\(file)") }
    }

    /// HDR: PQ and HLG frames map to SDR as docs/thumbnails.md says (tone-ref.py computes it
    /// from ffmpeg's 16-bit decode), within 1 level.
    @Test(.enabled(if: haveVideos, "make videos"), arguments: ["pq.mp4", "hlg.mp4"])
    func hdrMapsToSDRAsDocumented(_ file: String) throws {
        let ref = Self.out("tone-\(file).png")
        let tool = FileSystem.join(CLI.root, "Tools/video/tone-ref.py")
        #expect(CLI.shell("/usr/bin/python3 \(CLI.quote(tool)) \(CLI.quote(Self.video(file))) 1.52 \(ref)") == 0)
        let ours = try Self.ourFrame(Self.video(file), "1.52", side: 320, name: "hdr-\(file).png")
        let expected = try Self.read(ref)
        #expect(ours.size == expected.size)
        if ours.size == expected.size { #expect(TestSupport.maxDifference(ours, expected) <= 1, "\(file)") }
        // Not the signal shown as if SDR: the mapping changed the picture.
        let plain = Self.out("plain-\(file).png")
        #expect(Self.ffmpegFrame(Self.video(file), "1.52", plain))
        #expect(Self.meanDifference(ours, try Self.read(plain)) > 5)
    }

    /// 2 s of black, then picture: the poster is not black; the frame at 0.5 s is.
    @Test(.enabled(if: haveVideos, "make videos"))
    func posterOfAVideoThatStartsBlackIsNotBlack() throws {
        let r = CLI.run(["thumb", Self.video("black-start.mp4"), "--out", Self.dir, "--name", "poster.png", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let poster = Self.lumaStats(try Self.read(Self.out("poster.png")))
        #expect(poster.mean > 40 && poster.deviation > 20, "\(poster)")
        let black = Self.lumaStats(try Self.ourFrame(Self.video("black-start.mp4"), "0.5", side: 320, name: "b.png"))
        #expect(black.mean < 5 && black.deviation < 2, "\(black)")
    }

    /// 240x240 stored with 4:3 pixels is shown 320x240: in proportion, and like ffmpeg's
    /// `scale=iw*sar:ih` of the frame (two bicubic scalers: within a mean of 2 levels).
    @Test(.enabled(if: haveVideos, "make videos"))
    func nonSquarePixelsComeOutInProportion() throws {
        let ours = try Self.ourFrame(Self.video("sar.mp4"), "1.02", side: 320, name: "sar.png")
        #expect(ours.size == PixelSize(width: 320, height: 240))
        let ref = Self.out("sar-ref.png")
        #expect(Self.ffmpegFrame(Self.video("sar.mp4"), "1.02", ref, filter: "scale=iw*sar:ih"))
        let ffmpeg = try Self.read(ref)
        #expect(ffmpeg.size == ours.size)
        if ffmpeg.size == ours.size { #expect(Self.meanDifference(ours, ffmpeg) <= 2) }
    }

    /// info --json: what ffprobe says (duration, codec, frame rate, coded size, rotation,
    /// transfer), and the upright size the matrix gives.
    @Test(.enabled(if: haveVideos, "make videos"))
    func infoReportsTheStream() throws {
        let cases: [(String, [String])] = [
            (
                "r90.mp4",
                [
                    "\"codec\":\"h264\"", "\"rotation\":90", "\"orientation\":6", "\"uprightWidth\":240",
                    "\"frameRate\":30", "\"duration\":3", "\"transfer\":\"sdr\"", "\"format\":\"MP4\"",
                ]
            ),
            ("hevc10.mp4", ["\"codec\":\"hevc\"", "\"sampleBits\":10", "\"codedPixelFormat\":\"yuv420p10le\""]),
            ("pq.mp4", ["\"transfer\":\"pq\""]), ("hlg.mp4", ["\"transfer\":\"hlg\""]),
            ("mirror.mp4", ["\"mirrored\":true", "\"orientation\":2"]),
            ("sar.mp4", ["\"sampleAspectRatio\":\"4:3\"", "\"width\":320", "\"codedWidth\":240"]),
            ("vp9.webm", ["\"format\":\"WebM\"", "\"codec\":\"vp9\""]), ("mpeg4.avi", ["\"format\":\"AVI\""]),
            ("h264.mkv", ["\"format\":\"Matroska\""]),
        ]
        for (file, fields) in cases {
            let r = CLI.run(["info", "--json", Self.video(file)])
            #expect(r.status == 0, "\(file): \(r.stderr)")
            for field in fields { #expect(r.stdout.contains(field), "\(file): \(field) in \(r.stdout)") }
        }
        // ffprobe's duration and frame count for one of them.
        let probe = Self.out("probe")
        _ = CLI.shell(
            "ffprobe -v error -select_streams v -show_entries stream=nb_frames -of csv=p=0 "
                + "\(CLI.quote(Self.video("h264.mp4"))) > \(probe)")
        let frames = CLI.read(probe).split(separator: "\n").first.map(String.init) ?? "?"
        #expect(CLI.run(["info", "--json", Self.video("h264.mp4")]).stdout.contains("\"frames\":\(frames)"))
    }

    /// A folder of videos with broken ones among them: each broken one is one error line, the
    /// others are made, exit 1.
    @Test(.enabled(if: haveVideos, "make videos"))
    func aBatchWithBrokenVideosGoesOn() throws {
        let folder = Self.out("batch")
        let hostile = FileSystem.join(CLI.root, "Fixtures/hostile")
        _ = CLI.shell("rm -rf \(folder) && mkdir -p \(folder)")
        for (from, to) in [
            (Self.video("h264.mp4"), "a.mp4"), (Self.video("vp9.webm"), "b.webm"), (Self.video("mpeg4.avi"), "c.avi"),
            (FileSystem.join(hostile, "video-moov-missing.mp4"), "d.mp4"),
            (FileSystem.join(hostile, "video-audio-only.mp4"), "e.mp4"),
            (FileSystem.join(hostile, "video-cut-in-mdat.mp4"), "f.mov"),
        ] {
            _ = CLI.shell("cp \(CLI.quote(from)) \(folder)/\(to)")
        }
        let r = CLI.run(["thumb", folder, "--out", Self.out("batch-out"), "--size", "64"])
        #expect(r.status == 1, "\(r.stderr)")
        let made = try FileSystem.list(Self.out("batch-out")).sorted()
        #expect(made == ["a.thumb.png", "b.thumb.png", "c.thumb.png"], "\(made): \(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("forcezoom: error: ") }
        #expect(errors.count == 3, "\(r.stderr)")
        #expect(r.stderr.contains("3 thumbnails, 3 failed"), "\(r.stderr)")
    }

    /// --time past the end and a negative --time: one line each.
    @Test(.enabled(if: haveVideos, "make videos"))
    func timesOutsideTheVideo() {
        let past = CLI.run(["crop", Self.video("h264.mp4"), "--time", "99", "--at", "10,10", "-o", Self.out("p.png")])
        #expect(past.status == 1 && past.stderr.contains("--time 99") && past.stderr.contains("lasts 3 s"))
        #expect(past.stderr.split(separator: "\n").count == 1, "\(past.stderr)")
        let negative = CLI.run(["crop", Self.video("h264.mp4"), "--time=-1", "--at", "10,10", "-o", Self.out("n.png")])
        #expect(negative.status == 2 && negative.stderr.contains("--time"), "\(negative.stderr)")
    }

    /// Without FFmpeg (/dev/null bound over libavformat.so.59 in a mount namespace of its own,
    /// as MissingLibraryCLITests hides the others): the PNG beside the video is made, the video
    /// is one line naming the library and the packages dpkg says hold FFmpeg's four.
    @Test(.enabled(if: haveVideos && MissingLibraryCLITests.canHide, "make videos; unshare -m needs root"))
    func withoutFFmpegOnlyVideosFail() throws {
        let folder = Self.out("nolib")
        _ = CLI.shell(
            "rm -rf \(folder) && mkdir -p \(folder)/in && cp \(CLI.quote(Self.video("h264.mp4"))) \(folder)/in/v.mp4")
        #expect(CLI.run(["fixture", "coords", "--size", "64x48", "-o", "\(folder)/in/p.png"]).status == 0)
        let r = MissingLibraryCLITests.run(hiding: "libavformat.so.59", ["thumb", "in", "--out", "out"], in: folder)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(try FileSystem.list(FileSystem.join(folder, "out")) == ["p.thumb.png"])
        let line = r.stderr.split(separator: "\n").first { $0.contains("in/v.mp4") }.map(String.init) ?? ""
        #expect(line.contains("needs libavformat.so.59") && line.contains("file too short"), "\(r.stderr)")
        let packages = ["libavformat.so.59", "libavcodec.so.59", "libswscale.so.6", "libavutil.so.57"].map {
            MissingLibraryCLITests.package(of: $0)
        }
        #expect(line.hasSuffix("apt-get install " + packages.joined(separator: " ")), "\(line) \(packages)")
    }
}
