import TestSupport
import Testing

@testable import FZSystem

/// `compare`'s outcomes as a harness branches on them: the exit code (0 within, 1 over the
/// threshold, 2 usage or an unreadable input, 3 sizes differ), one line on standard error
/// for each failure, and with --json one record on every outcome, errors included, each
/// valid against docs/json/compare.schema.json (CLI.run checks every --json output; here
/// the records are also collected and checked together).
@Suite("compare outcomes")
struct CompareOutcomeCLITests {
    /// up.png and same.png (equal), other.png (the same size, different), wide.png (another
    /// size), six.png (up.png stored turned, EXIF 6), text.png (not an image), cut.png
    /// (a PNG cut short).
    static let dir: String = {
        let dir = CLI.scratch()
        for (args, name) in [
            (["coords", "--size", "64x48"], "up.png"), (["coords", "--size", "64x48"], "same.png"),
            (["checker", "--size", "64x48"], "other.png"), (["coords", "--size", "80x48"], "wide.png"),
            (["coords", "--size", "64x48", "--exif-orientation", "6"], "six.png"),
        ] {
            _ = CLI.run(["fixture"] + args + ["-o", name], in: dir)
        }
        CLI.write(FileSystem.join(dir, "text.png"), Array("not an image\n".utf8))
        let png = CLI.bytes(FileSystem.join(dir, "up.png"))
        CLI.write(FileSystem.join(dir, "cut.png"), Array(png.prefix(png.count / 2)))
        return dir
    }()

    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        /// The record's reason; nil: matched.
        let reason: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["up.png", "same.png", "--metric", "ae"], status: 0, reason: nil),
        Case(arguments: ["up.png", "same.png"], status: 0, reason: nil),
        Case(arguments: ["up.png", "six.png", "--metric", "pixelmatch"], status: 0, reason: nil),
        Case(arguments: ["up.png", "other.png", "--metric", "ae"], status: 1, reason: "threshold"),
        Case(
            arguments: ["up.png", "other.png", "--metric", "pixelmatch", "--threshold", "1%"], status: 1,
            reason: "threshold"),
        Case(arguments: ["up.png", "other.png", "--threshold", "40"], status: 1, reason: "threshold"),
        Case(arguments: ["up.png", "wide.png", "--metric", "ae"], status: 3, reason: "size"),
        Case(arguments: ["up.png", "six.png", "--no-auto-orient"], status: 3, reason: "size"),
        Case(arguments: ["up.png", "wide.png", "--crop-to-smaller", "--metric", "ae"], status: 0, reason: nil),
        Case(arguments: ["up.png", "missing.png", "--metric", "ae"], status: 2, reason: "unreadable"),
        Case(arguments: ["text.png", "up.png"], status: 2, reason: "unreadable"),
        Case(arguments: ["up.png", "cut.png", "--metric", "pixelmatch"], status: 2, reason: "unreadable"),
        Case(arguments: ["up.png", "same.png", "--max-pixels", "100"], status: 2, reason: "unreadable"),
        Case(arguments: ["up.png", "same.png", "--metric", "rmse"], status: 2, reason: "usage"),
        Case(arguments: ["up.png", "same.png", "--threshold", "5%"], status: 2, reason: "usage"),
        Case(arguments: ["up.png", "same.png", "--metric", "ae", "--threshold", "1.5"], status: 2, reason: "usage"),
        Case(arguments: ["up.png", "same.png", "--fuzz", "5%"], status: 2, reason: "usage"),
        Case(arguments: ["up.png", "same.png", "--metric", "ae", "--include-aa"], status: 2, reason: "usage"),
        Case(arguments: ["up.png", "same.png", "--mask", "1,2,0,4"], status: 2, reason: "usage"),
        Case(arguments: ["up.png"], status: 2, reason: "usage"),
        Case(arguments: ["up.png", "same.png", "--diff", "no/such/dir/d.png"], status: 2, reason: "output"),
    ]

    @Test(arguments: cases)
    func exitCodeAndRecordAgree(_ c: Case) throws {
        let text = CLI.run(["compare"] + c.arguments, in: Self.dir)
        #expect(text.status == c.status, "\(text)")
        // A failure is one line on standard error; a match prints nothing there.
        #expect(text.stderr.split(separator: "\n").count == (c.status == 0 ? 0 : 1), "\(text.stderr)")
        let json = CLI.run(["compare"] + c.arguments + ["--json"], in: Self.dir)
        #expect(json.status == c.status, "\(json)")
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 1, "one record on every outcome: \(json.stdout)")
        let record = try #require(JSONValue.object(json.stdout), "\(json)")
        #expect(record["match"] == .bool(c.status == 0), "\(json.stdout)")
        #expect(record["reason"] == (c.reason.map { .string($0) } ?? .null), "\(json.stdout)")
        if c.status != 0 {
            guard case .string(let message)? = record["message"] else {
                Issue.record("no message: \(json.stdout)")
                return
            }
            // The record carries the line standard error has.
            #expect(json.stderr.contains(message), "\(message) / \(json.stderr)")
        }
        if c.reason == "unreadable" {
            // The file that could not be read, named in the record and the message.
            guard case .string(let file)? = record["file"] else {
                Issue.record("no file: \(json.stdout)")
                return
            }
            #expect(c.arguments.contains(file) && json.stderr.contains(file), "\(json)")
        }
        if c.reason == "size" {
            #expect(record["aSize"] != nil && record["bSize"] != nil, "\(json.stdout)")
        }
    }

    /// Every outcome's record in one file, against the schema (and the schema refuses a
    /// record whose match and reason disagree).
    @Test func everyRecordFollowsTheSchema() throws {
        guard CLI.canCheckJSON else { return }  // checked where installed
        var records = ""
        for c in Self.cases {
            records += CLI.run(["compare"] + c.arguments + ["--json"], in: Self.dir).stdout
        }
        let file = FileSystem.join(Self.dir, "records.jsonl")
        CLI.write(file, Array(records.utf8))
        #expect(records.split(separator: "\n").count == Self.cases.count)
        #expect(CLI.jsonProblem(file: file, command: "compare") == nil)
        CLI.write(file, Array(#"{"schemaVersion":2,"match":true,"reason":"size","message":"x"}"#.utf8) + [10])
        #expect(CLI.jsonProblem(file: file, command: "compare") != nil)
    }

    /// --no-auto-orient compares the stored pixels: six.png's as Pillow reads them (it
    /// leaves EXIF orientation alone) equal six.png's only under --no-auto-orient.
    @Test func noAutoOrientComparesTheStoredPixels() throws {
        let upright = CLI.run(["compare", "up.png", "six.png", "--metric", "pae"], in: Self.dir)
        #expect(upright.status == 0 && upright.stdout == "0\n", "\(upright)")
        let saved = ColorCLITests.python(
            "from PIL import Image\nImage.open('six.png').save('stored.png', exif=b'')\nprint(Image.open('stored.png').size)",
            in: Self.dir)
        try #require(saved == "(48, 64)\n", "\(saved)")
        let stored = CLI.run(["compare", "stored.png", "six.png", "--no-auto-orient", "--metric", "pae"], in: Self.dir)
        #expect(stored.status == 0 && stored.stdout == "0\n", "\(stored)")
        let turned = CLI.run(["compare", "stored.png", "six.png", "--metric", "pae"], in: Self.dir)
        #expect(turned.status == 3, "\(turned)")
    }

    /// --mask covers a rectangle in every metric: the differing pair matches once the
    /// whole image is masked, and maskedPixels counts overlapping masks once.
    @Test func masksCoverEveryMetric() throws {
        for metric in ["ae", "pixelmatch", "pae"] {
            let r = CLI.run(
                [
                    "compare", "up.png", "other.png", "--metric", metric, "--threshold", "0", "--mask", "0,0,40,48",
                    "--ignore", "30,0,34,48", "--json",
                ], in: Self.dir)
            let o = try #require(JSONValue.object(r.stdout), "\(r)")
            #expect(r.status == 0 && o["maskedPixels"] == .number(64 * 48), "\(metric): \(r)")
            let half = CLI.run(
                [
                    "compare", "up.png", "other.png", "--metric", metric, "--threshold", "0", "--mask", "0,0,32,48",
                    "--json",
                ], in: Self.dir)
            let h = try #require(JSONValue.object(half.stdout), "\(half)")
            #expect(half.status == 1 && h["maskedPixels"] == .number(32 * 48), "\(metric): \(half)")
        }
    }
}
