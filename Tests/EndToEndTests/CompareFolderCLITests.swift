import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom compare EXPECTED_DIR ACTUAL_DIR` (issue 36): the pairing (same path, the same
/// stem across formats), every status and exit code, --jobs giving the same answer, the
/// JSON against docs/json/compare-folder.schema.json, junit.xml read by junitparser (PyPI /
/// Debian's python3-junitparser), index.html escaping file names, and --update/--prune. The
/// page in a real browser is `make report-test` (Tools/report/chromium_test.py).
@Suite("compare folders")
struct CompareFolderCLITests {
    static let junitparser = CLI.shell("\(CLI.python) -c 'import junitparser' 2>/dev/null") == 0

    /// Makes `exp` and `act` in a new scratch folder: every status once.
    /// - same.png, sub/deep.png: identical (passed); cross.png vs cross.webp (lossless):
    ///   paired by stem, identical (passed); changed.png: another pattern (changed);
    ///   size.png: 64x48 vs 32x32 (size); broken.png: not a PNG in act (unreadable);
    ///   gone.png: only in exp (missing); fresh.png: only in act (new).
    static func folders(withBroken: Bool = true) throws -> String {
        let dir = CLI.scratch()
        #expect(CLI.shell("mkdir -p exp/sub act/sub", in: dir) == 0)
        for (args, path) in [
            (["coords", "--size", "64x48"], "exp/same.png"), (["coords", "--size", "64x48"], "act/same.png"),
            (["grid", "--size", "40x30"], "exp/sub/deep.png"), (["grid", "--size", "40x30"], "act/sub/deep.png"),
            (["checker", "--size", "32x32"], "exp/cross.png"),
            (["checker", "--size", "32x32", "--lossless"], "act/cross.webp"),
            (["coords", "--size", "64x48"], "exp/changed.png"), (["zoneplate", "--size", "64x48"], "act/changed.png"),
            (["coords", "--size", "64x48"], "exp/size.png"), (["coords", "--size", "32x32"], "act/size.png"),
            (["gradient", "--size", "48x32"], "exp/gone.png"), (["noise", "--size", "48x32"], "act/fresh.png"),
        ] + (withBroken ? [(["coords", "--size", "16x16"], "exp/broken.png")] : []) {
            let r = CLI.run(["fixture"] + args + ["-o", path], in: dir)
            try #require(r.status == 0, "\(path): \(r)")
        }
        if withBroken { CLI.write(FileSystem.join(dir, "act/broken.png"), Array("not an image".utf8)) }
        return dir
    }

    static func statuses(_ stdout: String) -> [String: String] {
        guard let o = JSONValue.object(stdout), case .array(let images)? = o["images"] else { return [:] }
        var out: [String: String] = [:]
        for case .object(let image) in images {
            if case .string(let path)? = image["path"], case .string(let status)? = image["status"] {
                out[path] = status
            }
        }
        return out
    }

    @Test func everyStatusAndExitCode() throws {
        let dir = try Self.folders()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let r = CLI.run(["compare", "exp", "act", "--json", "--metric", "pae", "--threshold", "0"], in: dir)
        #expect(r.status == 1, "\(r)")
        #expect(
            Self.statuses(r.stdout) == [
                "broken.png": "unreadable", "changed.png": "changed", "cross.png": "passed", "fresh.png": "new",
                "gone.png": "missing", "same.png": "passed", "size.png": "size", "sub/deep.png": "passed",
            ], "\(r.stdout)")
        let o = try #require(JSONValue.object(r.stdout))
        #expect(o["pass"] == .bool(false))
        // The text: a line per failing image, the summary on stderr.
        let text = CLI.run(["compare", "exp", "act"], in: dir)
        #expect(text.status == 1)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(text.stdout)")
        // No --threshold: the default psnr gives no verdict, so each pair is counted as
        // --metric ae with threshold 0 (any differing pixel fails).
        #expect(lines.contains { $0.hasPrefix("changed changed.png: ae ") && $0.hasSuffix(" (at most 0)") }, "\(lines)")
        #expect(lines.contains("new fresh.png") && lines.contains("missing gone.png"), "\(lines)")
        #expect(
            text.stderr.contains("8 images: 3 passed, 1 changed, 1 size mismatch, 1 unreadable, 1 new, 1 missing"),
            "\(text.stderr)")
        // A folder compared with itself passes; --jobs 1 and 4 give the same record.
        #expect(CLI.run(["compare", "exp", "exp"], in: dir).status == 0)
        let one = CLI.run(["compare", "exp", "act", "--json", "--jobs", "1"], in: dir)
        let four = CLI.run(["compare", "exp", "act", "--json", "-j", "4"], in: dir)
        #expect(one.stdout == four.stdout && !one.stdout.isEmpty)
        // A threshold that passes the changed pair leaves the others failing.
        let loose = CLI.run(["compare", "exp", "act", "--json", "--metric", "pae", "--threshold", "255"], in: dir)
        #expect(Self.statuses(loose.stdout)["changed.png"] == "passed")
        // The pair options of compare A B apply per pair: a ratio of ae pixels passes it too.
        let ratio = CLI.run(["compare", "exp", "act", "--json", "--metric", "ae", "--threshold", "100%"], in: dir)
        #expect(Self.statuses(ratio.stdout)["changed.png"] == "passed", "\(ratio)")
        let bad = CLI.run(["compare", "exp", "act", "--metric", "psnr", "--threshold", "5%"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--threshold as a percentage"), "\(bad)")
    }

    /// Each image's `pair` is the record compare E A --json prints, size and unreadable
    /// pairs included, and the run names the metric in force (ae without --threshold).
    @Test func pairRecordsAreCompareRecords() throws {
        let dir = try Self.folders()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let r = CLI.run(["compare", "exp", "act", "--json"], in: dir)
        let o = try #require(JSONValue.object(r.stdout), "\(r)")
        #expect(o["metric"] == .string("ae") && o["threshold"] == .number(0), "\(r.stdout)")
        guard case .array(let images)? = o["images"] else {
            Issue.record("no images in \(r.stdout)")
            return
        }
        for case .object(let image) in images {
            guard case .string(let path)? = image["path"], case .string(let e)? = image["expected"],
                case .string(let a)? = image["actual"]
            else { continue }
            let single = CLI.run(["compare", "exp/" + e, "act/" + a, "--json", "--metric", "ae"], in: dir)
            let record = try #require(JSONValue.object(single.stdout), "\(path): \(single)")
            #expect(image["pair"] == .object(record), "\(path)")
        }
    }

    @Test(arguments: [
        ["compare", "exp", "missing-folder"], ["compare", "exp", "act/same.png"],
        ["compare", "exp", "act", "--diff", "d.png"],
        ["compare", "exp", "act", "--prune"], ["compare", "exp", "act", "--jobs", "0"],
        ["compare", "exp/same.png", "act/same.png", "--update"], ["compare", "exp", "act", "--report", "exp/r"],
        ["compare", "exp", "act", "--report", "act"],
    ])
    func usageAndUnreadableFoldersAreExitTwo(_ args: [String]) throws {
        let dir = try Self.folders(withBroken: false)
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let r = CLI.run(args, in: dir)
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1, "\(args): \(r)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "exp/r")) == .missing)
    }

    @Test func unwalkableFolderIsExitTwo() throws {
        let dir = try Self.folders(withBroken: false)
        defer { _ = CLI.shell("chmod -R u+rwx \(CLI.quote(dir)); rm -rf \(CLI.quote(dir))") }
        // Folders nested deeper than the walk goes (64): refused before anything is compared.
        let deep = (0..<70).map { "d\($0)" }.joined(separator: "/")
        #expect(CLI.shell("mkdir -p act/\(deep)", in: dir) == 0)
        let r = CLI.run(["compare", "exp", "act"], in: dir)
        #expect(
            r.status == 2 && r.stderr.contains("deeper than 64") && r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(CLI.shell("rm -rf act/d0", in: dir) == 0)
        guard getuid() != 0 else { return }  // root lists any folder
        #expect(CLI.shell("chmod 000 act/sub", in: dir) == 0)
        let locked = CLI.run(["compare", "exp", "act"], in: dir)
        #expect(locked.status == 2 && locked.stderr.contains("act/sub"), "\(locked)")
    }

    @Test func reportFilesFollowTheirReaders() throws {
        let dir = try Self.folders()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        // A name that is markup: the page and the XML must carry it as text.
        let odd = "a<b>&\"c'.png"
        #expect(
            CLI.shell(
                "cp exp/same.png \(CLI.quote("exp/" + odd)) && cp exp/same.png \(CLI.quote("act/" + odd))", in: dir)
                == 0)
        #expect(CLI.shell("cp exp/changed.png \(CLI.quote("exp/x" + odd))", in: dir) == 0)
        let r = CLI.run(["compare", "exp", "act", "--report", "out/r"], in: dir)
        #expect(r.status == 1 && r.stderr.contains("report in out/r/index.html"), "\(r)")
        // report.json: the schema, and the same record --json prints.
        let json = FileSystem.join(dir, "out/r/report.json")
        if CLI.canCheckJSON {
            let problem = CLI.jsonProblem(file: json, command: "compare-folder")
            #expect(problem == nil, "\(problem ?? "")")
        }
        let printed = CLI.run(["compare", "exp", "act", "--json"], in: dir)
        let statuses = Self.statuses(CLI.read(json))
        #expect(statuses == Self.statuses(printed.stdout) && statuses.count == 10, "\(statuses)")
        // Pictures of the changed pair exist as PNGs where the record says.
        let record = try #require(JSONValue.object(CLI.read(json)))
        guard case .array(let images)? = record["images"],
            case .object(let changed)? = images.first(where: {
                if case .object(let o) = $0 { o["path"] == .string("changed.png") } else { false }
            }),
            case .object(let shown)? = changed["pictures"]
        else {
            Issue.record("no changed.png in \(record)")
            return
        }
        let pictures = ["expected", "actual", "diff"].compactMap { role -> String? in
            if case .string(let p)? = shown[role] { "out/r/" + p } else { nil }
        }
        #expect(pictures.count == 3, "\(shown)")
        for p in pictures {
            #expect(CLI.bytes(FileSystem.join(dir, p)).starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(p)")
        }
        // index.html: the name escaped, never raw markup.
        let html = CLI.read(FileSystem.join(dir, "out/r/index.html"))
        #expect(html.contains("a&lt;b&gt;&amp;&quot;c&apos;.png") && !html.contains("a<b>"), "escaping")
        #expect(!html.contains("http://") && !html.contains("https://"), "no link leaves the folder")
        guard Self.junitparser else { return }
        let out = ColorCLITests.python(
            """
            from junitparser import JUnitXml, Failure, Error
            xml = JUnitXml.fromfile('out/r/junit.xml')
            rows = []
            for suite in xml:
                for case in suite:
                    kinds = [type(r).__name__ + ':' + (r.type or '') for r in case.result]
                    rows.append((case.name, kinds))
            for name, kinds in sorted(rows):
                print(name + '|' + ','.join(kinds))
            """, in: dir)
        #expect(
            out == """
                a<b>&"c'.png|
                broken.png|Error:unreadable
                changed.png|Failure:changed
                cross.png|
                fresh.png|Failure:new
                gone.png|Failure:missing
                same.png|
                size.png|Failure:size
                sub/deep.png|
                xa<b>&"c'.png|Failure:missing

                """, "\(out)")
    }

    @Test func updateCopiesAndPruneDeletes() throws {
        let dir = try Self.folders(withBroken: false)
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let before = CLI.run(["compare", "exp", "act"], in: dir)
        #expect(before.status == 1)
        // Without --prune the missing baseline stays (and still fails the run).
        let update = CLI.run(["compare", "exp", "act", "--update", "--json"], in: dir)
        #expect(update.status == 1, "\(update)")
        for name in ["changed.png", "size.png", "fresh.png"] {
            #expect(
                CLI.bytes(FileSystem.join(dir, "exp/" + name)) == CLI.bytes(FileSystem.join(dir, "act/" + name)),
                "\(name)")
        }
        #expect(FileSystem.kind(of: FileSystem.join(dir, "exp/gone.png")) == .regular)
        #expect(CLI.shell("ls -A exp | grep -c fz-", in: dir) != 0, "no temporary file left")
        let prune = CLI.run(["compare", "exp", "act", "--update", "--prune"], in: dir)
        #expect(prune.status == 0, "\(prune)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "exp/gone.png")) == .missing)
        #expect(CLI.run(["compare", "exp", "act"], in: dir).status == 0)
        // The stem-paired baseline is untouched: it passed.
        #expect(FileSystem.kind(of: FileSystem.join(dir, "exp/cross.png")) == .regular)
        #expect(FileSystem.kind(of: FileSystem.join(dir, "exp/cross.webp")) == .missing)
    }
}
