import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem
@testable import Geometry

/// `thumb --size 320,640,1280` through the binary (issue 38): the sizes and names, one
/// decode per input, --json per output, --dry-run, the journal and --resume after a run
/// that left one size out, --skip-existing, and the usage errors.
@Suite
struct ThumbLadderCLITests {
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    /// A scratch folder holding `one.jpg` and `two.jpg` (peek.jpg: upright 1600x900).
    static func folder() -> String {
        let dir = CLI.scratch()
        CLI.write(FileSystem.join(dir, "one.jpg"), CLI.bytes(photo))
        CLI.write(FileSystem.join(dir, "two.jpg"), CLI.bytes(photo))
        return dir
    }

    static func size(_ path: String) throws -> PixelSize { try ImageReader(path: path).header.uprightSize }

    static func string(_ record: [String: JSONValue], _ key: String) -> String? {
        if case .string(let s)? = record[key] { return s }
        return nil
    }

    @Test func aLadderMakesEverySizeOfEveryInputFromOneDecode() throws {
        let dir = Self.folder()
        let r = CLI.run(["thumb", "one.jpg", "two.jpg", "--size", "320,640x480,1280", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // The default name of a ladder: %s-%z.thumb.png.
        let expected: [(String, PixelSize)] = [
            ("320", PixelSize(width: 320, height: 180)), ("640x480", PixelSize(width: 640, height: 360)),
            ("1280", PixelSize(width: 1280, height: 720)),
        ]
        for stem in ["one", "two"] {
            for (typed, size) in expected {
                #expect(try Self.size(FileSystem.join(dir, "thumbs/\(stem)-\(typed).thumb.png")) == size)
            }
        }
        let records = JSONValue.objects(r.stdout)
        #expect(records.count == 6)
        for input in ["one.jpg", "two.jpg"] {
            let mine = records.filter { Self.string($0, "input") == input }
            #expect(mine.count == 3)
            // One decode for the three: every record says so. The decode is the full
            // 1600x900 (twice 1280 is more): 1280 and 640x480 (2.5 times smaller) come from
            // it, 320 (5 times) from 640x480, twice its size.
            #expect(mine.allSatisfy { $0["decodes"] == .number(1) && Self.string($0, "status") == "made" })
            let from = Dictionary(
                uniqueKeysWithValues: mine.map { (Self.string($0, "size")!, Self.string($0, "madeFrom")!) })
            #expect(from == ["1280": "decode", "640x480": "decode", "320": "640x480"], "\(from)")
        }
        #expect(r.stderr.contains("6 thumbnails, 0 failed"), "\(r.stderr)")
    }

    /// The densest size is what `--size 1280` alone makes, pixel for pixel (same decode,
    /// same Lanczos pass), and the smaller ones equal within rounding of the cascade.
    @Test func theLargestSizeIsTheSameAsMadeAlone() throws {
        let dir = Self.folder()
        let ladder = CLI.run(["thumb", "one.jpg", "--size", "320,1280", "--out", "l", "--name", "%w.png"], in: dir)
        let alone = CLI.run(["thumb", "one.jpg", "--size", "1280", "--out", "a", "--name", "%w.png"], in: dir)
        #expect(ladder.status == 0 && alone.status == 0, "\(ladder.stderr)\(alone.stderr)")
        let l = try ImageReader(path: FileSystem.join(dir, "l/1280.png")).readImage()
        let a = try ImageReader(path: FileSystem.join(dir, "a/1280.png")).readImage()
        #expect(l.size == a.size)
        let differ = zip(l.pixels, a.pixels).filter { abs(Int($0) - Int($1)) > 1 }.count
        #expect(differ * 1000 <= l.pixels.count, "\(differ) of \(l.pixels.count) samples differ by more than 1")
    }

    @Test func namesTakeTheSizeAsTypedAndItsSides() throws {
        let dir = Self.folder()
        let r = CLI.run(
            ["thumb", "one.jpg", "--size", "200x100,x50", "--out", "t", "--name", "%s/%wx%h-%z.jpg"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.size(FileSystem.join(dir, "t/one/200x100-200x100.jpg")) == PixelSize(width: 178, height: 100))
        #expect(try Self.size(FileSystem.join(dir, "t/one/x50-x50.jpg")) == PixelSize(width: 89, height: 50))
    }

    @Test func dryRunListsEveryOutputWithItsSize() {
        let dir = Self.folder()
        let r = CLI.run(["thumb", "one.jpg", "--size", "320,640", "--dry-run", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let records = JSONValue.objects(r.stdout)
        #expect(records.map { Self.string($0, "output") } == ["thumbs/one-320.thumb.png", "thumbs/one-640.thumb.png"])
        #expect(records.map { Self.string($0, "size") } == ["320", "640"])
        #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs")) == .missing)
    }

    /// A run that left one size out (removed here, as a cancelled run leaves it missing):
    /// --resume makes only that one, from one decode, and keeps the others.
    @Test func resumeMakesOnlyTheMissingSizes() throws {
        let dir = Self.folder()
        let args = ["thumb", "one.jpg", "two.jpg", "--size", "320,640,1280", "--journal", "j.jsonl"]
        let first = CLI.run(args, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let journal = CLI.read(FileSystem.join(dir, "j.jsonl"))
        #expect(journal.split(separator: "\n").count == 6 && !journal.contains("\"failed\""))
        #expect(CLI.shell("rm \(CLI.quote(FileSystem.join(dir, "thumbs/two-640.thumb.png")))") == 0)
        let again = CLI.run(args + ["--resume", "--json"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        let records = JSONValue.objects(again.stdout)
        let made = records.filter { Self.string($0, "status") == "made" }
        #expect(made.count == 1 && Self.string(made[0], "output") == "thumbs/two-640.thumb.png", "\(again.stdout)")
        #expect(made.first?["decodes"] == .number(1))
        #expect(records.filter { Self.string($0, "status") == "kept" }.count == 5)
        #expect(try Self.size(FileSystem.join(dir, "thumbs/two-640.thumb.png")) == PixelSize(width: 640, height: 360))
        #expect(CLI.read(FileSystem.join(dir, "j.jsonl")).split(separator: "\n").count == 7)
        // Everything there: a third run makes nothing.
        let third = CLI.run(args + ["--resume", "--json"], in: dir)
        #expect(JSONValue.objects(third.stdout).allSatisfy { Self.string($0, "status") == "kept" })
        // --skip-existing knows every size too.
        let skip = CLI.run(["thumb", "one.jpg", "--size", "320,640,1280", "--skip-existing", "--json"], in: dir)
        #expect(JSONValue.objects(skip.stdout).map { Self.string($0, "status") } == ["kept", "kept", "kept"])
    }

    /// A broken input fails all its sizes, said once on stderr, one failed record per size.
    @Test func aBrokenInputFailsEverySizeAndIsNamedOnce() {
        let dir = Self.folder()
        let peek = CLI.bytes(Self.photo)
        CLI.write(FileSystem.join(dir, "cut.jpg"), Array(peek.prefix(peek.count / 2)))
        let r = CLI.run(["thumb", "cut.jpg", "one.jpg", "--size", "64,128", "--json"], in: dir)
        #expect(r.status == 1)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("forcezoom: error: cut.jpg: ") }
        #expect(errors.count == 1, "\(r.stderr)")
        let records = JSONValue.objects(r.stdout)
        let failed = records.filter { Self.string($0, "status") == "failed" }
        #expect(failed.count == 2 && failed.allSatisfy { Self.string($0, "input") == "cut.jpg" })
        #expect(records.filter { Self.string($0, "status") == "made" }.count == 2)
    }

    @Test(arguments: [
        (["--size", "320,640,320"], "--size 320,640,320: 320 and 320 are the same size"),
        (["--size", "320,0"], "--size 0: the size must be positive"),
        (["--size", "320,,640"], "entry 2 is empty"),
        (["--size", (1...17).map { String($0 * 10) }.joined(separator: ",")], "more than the 16"),
        (["--size", "320,640", "--name", "%s.jpg"], "add %z"),
        (["--size", "320,640", "-o", "small.jpg"], "--name '%s-%z.jpg'"),
    ])
    func badLaddersAreUsageErrors(_ arguments: [String], _ message: String) {
        let dir = Self.folder()
        let r = CLI.run(["thumb", "one.jpg"] + arguments, in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(message), "\(r.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs")) == .missing)
    }
}
