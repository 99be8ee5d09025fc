import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom thumb` end to end on the built binary: batches with broken files, upright
/// outputs checked by their pixels, JSON Lines, --from -0, --skip-existing, Ctrl-C.
@Suite(.serialized)
struct ThumbCLITests {
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    /// A folder of inputs: good (EXIF-rotated JPEG and PNG fixtures, a real photo), broken
    /// (truncated JPEG, corrupt PNG) and a text file the folder walk must ignore.
    static func library() -> String {
        let dir = CLI.scratch()
        let lib = FileSystem.join(dir, "photos")
        #expect(CLI.shell("mkdir -p \(CLI.quote(lib))") == 0)
        #expect(
            CLI.run([
                "fixture", "orientation", "--size", "600x400", "--exif-orientation", "6", "-o",
                FileSystem.join(lib, "o6.jpg"),
            ]).status == 0)
        #expect(
            CLI.run([
                "fixture", "orientation", "--size", "300x500", "--exif-orientation", "8", "-o",
                FileSystem.join(lib, "o8.png"),
            ]).status == 0)
        let jpeg = CLI.bytes(photo)
        CLI.write(FileSystem.join(lib, "peek.jpg"), jpeg)
        CLI.write(FileSystem.join(lib, "truncated.jpg"), Array(jpeg[0..<(jpeg.count / 2)]))
        var png = CLI.bytes(FileSystem.join(lib, "o8.png"))
        for i in (png.count / 2)..<(png.count / 2 + 64) { png[i] ^= 0x5A }
        CLI.write(FileSystem.join(lib, "corrupt.png"), png)
        CLI.write(FileSystem.join(lib, "notes.txt"), Array("not a photo\n".utf8))
        return dir
    }

    /// Checks the corner colours of an orientation fixture, read back upright: red
    /// top-left, green top-right, blue bottom-left, yellow bottom-right.
    static func expectUpright(_ path: String, size: PixelSize, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let image = try ImageReader(path: path).readImage()
        #expect(image.size == size, sourceLocation: sourceLocation)
        let w = image.width
        let h = image.height
        let corners: [(Int, Int, String)] = [
            (3, 3, "red"), (w - 4, 3, "green"), (3, h - 4, "blue"), (w - 4, h - 4, "yellow"),
        ]
        for (x, y, name) in corners {
            let c = image.rgba(x: x, y: y)
            let ok: Bool
            switch name {
            case "red": ok = c.r > 180 && c.g < 60 && c.b < 60
            case "green": ok = c.g > 150 && c.r < 60 && c.b < 60
            case "blue": ok = c.b > 150 && c.r < 60 && c.g < 60
            default: ok = c.r > 180 && c.g > 150 && c.b < 60
            }
            #expect(ok, "\(path) (\(x),\(y)) should be \(name), is \(c)", sourceLocation: sourceLocation)
        }
    }

    static func leftovers(_ dir: String) -> String {
        let find = FileSystem.join(CLI.scratch(), "found")
        _ = CLI.shell("find \(CLI.quote(dir)) -name '*.fz-*' > \(CLI.quote(find))")
        return CLI.read(find)
    }

    @Test func aFolderWithBrokenFilesBecomesUprightThumbnailsAndExitsOne() throws {
        let dir = Self.library()
        let r = CLI.run(["thumb", "photos", "--size", "128", "--out", "small", "-j", "2"], in: dir)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        // Each broken file on its own line, named as found; then the summary.
        #expect(
            lines.filter { $0.hasPrefix("forcezoom: error: photos/truncated.jpg: file is truncated") }.count == 1,
            "\(r.stderr)")
        #expect(lines.filter { $0.hasPrefix("forcezoom: error: photos/corrupt.png: ") }.count == 1, "\(r.stderr)")
        #expect(lines.count == 3, "\(r.stderr)")
        #expect(lines.last?.hasPrefix("forcezoom: 3 thumbnails, 2 failed, ") == true)
        // notes.txt is named in the summary, not attempted.
        #expect(lines.last?.hasSuffix(" s; skipped 1: 1 not image (.txt)") == true, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(!r.stderr.contains("\u{1B}["), "no progress line when stderr is not a terminal")
        // 600x400 upright: 128x85 (400 * 128/600 = 85.3); 300x500 upright: 77x128 (76.8).
        try Self.expectUpright(FileSystem.join(dir, "small/o6.thumb.png"), size: PixelSize(width: 128, height: 85))
        try Self.expectUpright(FileSystem.join(dir, "small/o8.thumb.png"), size: PixelSize(width: 77, height: 128))
        // peek.jpg is stored 900x1600 with orientation 6: upright 1600x900 -> 128x72.
        #expect(
            try ImageReader(path: FileSystem.join(dir, "small/peek.thumb.png")).header.storedSize
                == PixelSize(width: 128, height: 72))
        #expect(FileSystem.kind(of: FileSystem.join(dir, "small/truncated.thumb.png")) == .missing)
        #expect(FileSystem.kind(of: FileSystem.join(dir, "small/corrupt.thumb.png")) == .missing)
        #expect(FileSystem.kind(of: FileSystem.join(dir, "small/notes.thumb.png")) == .missing)
        #expect(Self.leftovers(dir).isEmpty)
    }

    @Test func allGoodExitsZeroAndJPEGOutputsAreUprightToo() throws {
        let dir = Self.library()
        let good = ["photos/o6.jpg", "photos/o8.png"]
        let r = CLI.run(
            ["thumb"] + good + ["--size", "64", "--out", "t", "--name", "%s-%i.jpg", "--quality", "95"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("forcezoom: 2 thumbnails, 0 failed, "))
        #expect(try ImageReader(path: FileSystem.join(dir, "t/o6-1.jpg")).header.format == .jpeg)
        // 600x400 -> 64x43 (42.7); 300x500 -> 38x64 (38.4).
        try Self.expectUpright(FileSystem.join(dir, "t/o6-1.jpg"), size: PixelSize(width: 64, height: 43))
        try Self.expectUpright(FileSystem.join(dir, "t/o8-2.jpg"), size: PixelSize(width: 38, height: 64))
    }

    @Test func cropAtKeepsThePartAroundThePoint() throws {
        let dir = Self.library()
        // Upright 600x400 filled into 100x100: the kept window is 400x400. At the left
        // edge it holds the red and blue corners, at the right the green and yellow ones.
        let left = CLI.run(["thumb", "photos/o6.jpg", "--size", "100", "--crop-at", "0,0", "--out", "l"], in: dir)
        let right = CLI.run(
            ["thumb", "photos/o6.jpg", "--size", "100", "--crop-at", "100%,50%", "--out", "r"], in: dir)
        let centre = CLI.run(["thumb", "photos/o6.jpg", "--size", "100", "--crop", "--out", "c"], in: dir)
        #expect(left.status == 0 && right.status == 0 && centre.status == 0)
        let l = try ImageReader(path: FileSystem.join(dir, "l/o6.thumb.png")).readImage()
        let r = try ImageReader(path: FileSystem.join(dir, "r/o6.thumb.png")).readImage()
        let c = try ImageReader(path: FileSystem.join(dir, "c/o6.thumb.png")).readImage()
        #expect(l.size == PixelSize(width: 100, height: 100) && r.size == l.size && c.size == l.size)
        #expect(l.rgba(x: 3, y: 3).r > 180 && l.rgba(x: 3, y: 3).g < 60)  // red
        #expect(l.rgba(x: 3, y: 96).b > 150 && l.rgba(x: 3, y: 96).r < 60)  // blue
        #expect(r.rgba(x: 96, y: 3).g > 150 && r.rgba(x: 96, y: 3).r < 60)  // green
        #expect(r.rgba(x: 96, y: 96).r > 180 && r.rgba(x: 96, y: 96).g > 150 && r.rgba(x: 96, y: 96).b < 60)  // yellow
        // Centred, the window (100..500) misses every corner patch (80 px wide): light grey.
        for (x, y) in [(3, 3), (96, 3), (3, 96), (96, 96)] {
            let p = c.rgba(x: x, y: y)
            #expect(p.r > 200 && p.g > 200 && p.b > 200, "(\(x),\(y)) is \(p)")
        }
        // A point outside the image fails that input, named, with the image size.
        let outside = CLI.run(
            ["thumb", "photos/o6.jpg", "--size", "100", "--crop-at", "700,10", "--out", "x"], in: dir)
        #expect(outside.status == 1)
        #expect(outside.stderr.hasPrefix("forcezoom: error: photos/o6.jpg: point 700,10 is outside the 600x400 image"))
    }

    @Test func jsonLinesHaveOneRecordPerInput() throws {
        let dir = Self.library()
        let r = CLI.run(["thumb", "photos", "--size", "100", "--out", "t", "--json", "-j", "1"], in: dir)
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // The file passed over comes first (found by the walk, before any work).
        #expect(
            lines.first
                == #"{"schemaVersion":2,"input":"photos/notes.txt","output":null,"status":"skipped","category":"other","reason":"not an image (text)"}"#
        )
        let records = Array(lines.dropFirst())
        #expect(records.count == 5)
        // -j 1 finishes in input order: corrupt.png, o6.jpg, o8.png, peek.jpg, truncated.jpg.
        #expect(
            records[0].hasPrefix(
                #"{"schemaVersion":2,"input":"photos/corrupt.png","output":null,"status":"failed","sourceSize":{"width":300,"height":500},"outputSize":null,"bytes":null,"milliseconds":"#
            ))
        #expect(
            records[0].contains(#""skipped":false,"error":"corrupt image data"#)
                || records[0].contains(#""error":"file is truncated"#))
        #expect(
            records[1].hasPrefix(
                #"{"schemaVersion":2,"input":"photos/o6.jpg","output":"t/o6.thumb.png","status":"made","sourceSize":{"width":600,"height":400},"outputSize":{"width":100,"height":67},"bytes":"#
            ))
        // 600/2 = 300 >= 2 x 100; /4 = 150 is not
        #expect(records[1].hasSuffix(#""dctScale":2,"skipped":false,"error":null,"embeddedThumbnail":false}"#))
        let bytes = FileSystem.size(of: FileSystem.join(dir, "t/o6.thumb.png")) ?? -1
        #expect(records[1].contains(#""bytes":\#(bytes),"#))
        #expect(
            records[3].contains(
                #""input":"photos/peek.jpg","output":"t/peek.thumb.png","status":"made","sourceSize":{"width":1600,"height":900},"outputSize":{"width":100,"height":56}"#
            ))
        #expect(records[4].contains(#""input":"photos/truncated.jpg","output":null"#))
        #expect(records[4].contains(#""error":"file is truncated"#))
    }

    @Test func fromAListWithNULSeparators() throws {
        let dir = Self.library()
        // A name with a space and one with a newline: only -0 keeps them whole.
        #expect(
            CLI.shell(
                "cd \(CLI.quote(dir)) && cp photos/o6.jpg 'photos/with space.jpg' && cp photos/o8.png \"$(printf 'photos/new\\nline.png')\""
            )
                == 0)
        let list = FileSystem.join(dir, "list")
        CLI.write(
            list,
            Array("photos/with space.jpg".utf8) + [0] + Array("photos/new\nline.png".utf8) + [0]
                + Array("photos/peek.jpg".utf8) + [0])
        let r = CLI.run(["thumb", "--from", "-", "-0", "--size", "50", "--out", "t", "--json"], in: dir, stdin: list)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 3)
        #expect(r.stdout.contains(#""output":"t/with space.thumb.png""#))
        #expect(r.stdout.contains(#""output":"t/new\nline.thumb.png""#))
        try Self.expectUpright(FileSystem.join(dir, "t/with space.thumb.png"), size: PixelSize(width: 50, height: 33))
        // Without -0 the same bytes are one line per path: the newline splits a name, the
        // NULs are part of names, and what does not exist fails with a reason.
        let lines = FileSystem.join(dir, "lines")
        CLI.write(lines, Array("photos/o6.jpg\nphotos/missing.jpg\n".utf8))
        let l = CLI.run(["thumb", "--from", lines, "--size", "50", "--out", "u"], in: dir)
        #expect(l.status == 1)
        #expect(l.stderr.contains("forcezoom: error: photos/missing.jpg: cannot open: no such file or directory"))
        #expect(FileSystem.kind(of: FileSystem.join(dir, "u/o6.thumb.png")) == .regular)
    }

    @Test func recursiveWalkMirrorsTheTreeWithPercentD() throws {
        let dir = Self.library()
        #expect(
            CLI.shell("cd \(CLI.quote(dir)) && mkdir -p photos/2024/june && cp photos/o6.jpg photos/2024/june/o6.jpg")
                == 0)
        // A flat name: photos/2024/june/o6.jpg (walked first: names sort "2024" < "o6.jpg")
        // and photos/o6.jpg meet in t/o6.thumb.png: refused up front. (The default name
        // under --recursive has %d/, so it mirrors the tree: ThumbBulkCLITests.)
        let flat = CLI.run(
            ["thumb", "photos", "--recursive", "--size", "40", "--out", "t", "--name", "%s.thumb.png"], in: dir)
        #expect(flat.status == 2)
        #expect(
            flat.stderr.contains(
                "forcezoom: error: t/o6.thumb.png: photos/2024/june/o6.jpg, photos/o6.jpg would both be written here"))
        #expect(
            FileSystem.kind(of: FileSystem.join(dir, "t")) == .missing, "nothing is done before the plan is checked")
        let tree = CLI.run(
            ["thumb", "photos", "-r", "--size", "40", "--out", "t", "--name", "%d/%s.png", "-q"], in: dir)
        #expect(tree.status == 1)  // the broken files
        #expect(FileSystem.kind(of: FileSystem.join(dir, "t/2024/june/o6.png")) == .regular)
        #expect(FileSystem.kind(of: FileSystem.join(dir, "t/o6.png")) == .regular)
        // -q: errors, but no summary.
        #expect(!tree.stderr.contains("thumbnails,"))
        #expect(tree.stderr.contains("photos/truncated.jpg"))
    }
}
