import FZSystem
import TestSupport
import Testing

/// Issue 51's findings 4-7 and 9, each as the attacker found it: gain-map versions that are no
/// number, compare's report beside its inputs, points and pins from empty or standard-input
/// values, a TIFF past the directories forcezoom reads. The crafted files are Fixtures/hostile's
/// (Tools/hostile/hostile_attacks51.py, `make hostile`).
@Suite("Attack findings (issue 51)")
struct AttackFindingsCLITests {
    static let hostile = FileSystem.join(CLI.root, "Fixtures/hostile")

    // MARK: 4. gain-map XMP

    /// Every XMP packet of `file` parsed by Python's XML parser (expat): "ok", or what failed.
    static func xmpProblems(_ file: String) -> String {
        ColorCLITests.python(
            """
            import re, xml.dom.minidom as m
            b = open('\(file)', 'rb').read()
            packets = re.findall(rb'<x:xmpmeta.*?</x:xmpmeta>', b, re.S)
            problems = []
            for p in packets:
                try: m.parseString(p)
                except Exception as e: problems.append('%s: %s' % (e, p[:200]))
            print('\\n'.join(problems) if problems else 'ok %d' % len(packets))
            """, in: CLI.root)
    }

    /// `hdrgm:Version='1"0'` (well-formed, single-quoted) and `"1&0"`, Apple's version text
    /// `1&000`: copied as they were into the output's gain-map XMP (`Version="1"0"`), which
    /// was then no XML: the map was lost on the next read (or read only by our lenient
    /// tokenizer). Every output's packets now parse, the map is read back, and exiftool reads
    /// the version of a JPEG output's map: 1.0, the number forcezoom writes for a version that
    /// is none.
    @Test(arguments: [
        ("uhdr-version-quote.jpg", "jpg"), ("uhdr-version-amp.jpg", "jpg"), ("apple-version-amp.jpg", "jpg"),
        ("apple-version-amp.jpg", "heic"),
    ])
    func gainMapVersionsStayWellFormed(_ name: String, _ ext: String) {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let out = FileSystem.join(dir, "out.\(ext)")
        let r = CLI.run([
            "crop", FileSystem.join(Self.hostile, name), "--at", "16,16", "--size", "16", "-o", out, "--json",
        ])
        #expect(r.status == 0 && r.stdout.contains("\"gainMap\":\"kept\""), "\(r.stdout) \(r.stderr)")
        let problems = Self.xmpProblems(out)
        #expect(problems.hasPrefix("ok") && !problems.hasPrefix("ok 0"), "\(name) -> \(ext): \(problems)")
        let again = CLI.run(["info", "--json", out])
        #expect(again.status == 0 && again.stdout.contains("\"gainMap\":{"), "\(again.stdout) \(again.stderr)")
        if ext == "jpg" && CLI.shell("command -v exiftool >/dev/null") == 0 {
            let map = FileSystem.join(dir, "map.jpg")
            _ = CLI.shell("exiftool -b -MPImage2 \(CLI.quote(out)) > \(CLI.quote(map))")
            let version = FileSystem.join(dir, "version.txt")
            _ = CLI.shell("exiftool -s3 -XMP-hdrgm:Version \(CLI.quote(map)) > \(CLI.quote(version))")
            #expect(CLI.read(version) == "1.0\n", "\(name): exiftool reads \(CLI.read(version))")
        }
    }

    // MARK: 5. compare --report

    /// `compare images actual --report .`: the report's pictures went to ./images/000000/...,
    /// among the baselines (the next run reported them missing; --update could adopt them).
    /// Refused now in one line, exit 2, nothing written; so is a report folder whose images/
    /// holds a compared folder deeper down. A report beside its inputs (`--report .` over
    /// ./exp and ./act) is fine: it writes only images/ and its three files.
    @Test func aReportDoesNotWriteIntoAnInput() {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        _ = CLI.shell(
            "cd \(CLI.quote(dir)) && mkdir -p images actual r/images/base exp act && \(CLI.quote(CLI.binary)) fixture coords --size 16x16 -o images/a.png && cp images/a.png actual/ && cp images/a.png r/images/base/ && cp images/a.png exp/ && cp images/a.png act/"
        )
        for (args, folder) in [
            (["compare", "images", "actual", "--report", "."], "images"),
            (["compare", "./images", "actual", "--report", "."], "./images"),
            (["compare", "actual", "r/images/base", "--report", "r"], "r/images/base"),
        ] {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
            #expect(
                r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("into the compared folder \(folder) ("),
                "\(args): \(r.stderr)")
        }
        #expect(FileSystem.kind(of: FileSystem.join(dir, "images/000000")) == .missing)
        #expect(FileSystem.kind(of: FileSystem.join(dir, "index.html")) == .missing)
        let beside = CLI.run(["compare", "exp", "act", "--report", "."], in: dir)
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "index.html")) == .regular)
    }

    // MARK: 6, 7. standard input and empty values

    /// The attacker's line: one point on standard input and one --at, -o without %d. Both
    /// points are counted (the file form is refused the same way), and with %d both crops
    /// are written, the --at point first.
    @Test func pointsFromStandardInputAreNotLost() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        _ = CLI.run(["fixture", "coords", "--size", "40x30", "-o", FileSystem.join(dir, "in.png")])
        let stdin = FileSystem.join(dir, "points.txt")
        CLI.write(stdin, Array("5,5\n".utf8))
        for from in ["-", "points.txt"] {
            let r = CLI.run(
                ["crop", "in.png", "--at-from", from, "--at", "7,7", "-o", "b.png", "--json"], in: dir, stdin: stdin)
            #expect(r.status == 2 && r.stderr.contains("needs %d"), "\(from): \(r.status) \(r.stderr)")
        }
        let r = CLI.run(
            ["crop", "in.png", "--at-from", "-", "--at", "7,7", "-o", "b-%d.png", "--json"], in: dir, stdin: stdin)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(
            lines.count == 2 && lines[0].contains("\"requested\":\"7,7\"")
                && lines[1].contains("\"requested\":\"5,5\""), "\(r.stdout)")
    }

    /// `--marker=` and `--markers=`: the parser's "Missing value" (the quick reading ignored the
    /// pin); `--markers ''` said "'': cannot read marker file" naming nothing, `--at-from ''`
    /// "--at-from : no such file": each names its option now. All exit 2.
    @Test func emptyValuesNameTheirOption() {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        _ = CLI.run(["fixture", "coords", "--size", "40x30", "-o", FileSystem.join(dir, "in.png")])
        for (args, says) in [
            (["--at", "10,10", "--marker="], "Missing value for '--marker"),
            (["--at", "10,10", "--markers="], "Missing value for '--markers"),
            (["--at", "10,10", "--markers", ""], "--markers is empty"),
            (["--at-from", ""], "--at-from is empty"),
        ] {
            let r = CLI.run(["crop", "in.png"] + args + ["-o", "q.png"], in: dir)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r.status) \(r.stderr)")
            #expect(FileSystem.kind(of: FileSystem.join(dir, "q.png")) == .missing, "\(args) wrote q.png")
        }
    }

    // MARK: 9. TIFF pages

    /// 2,000 pages: `info` said "page 1 of 1024" (the directory limit shown as the file's
    /// count) and `--page 1500` was refused as "--frame 1500 is past the last". Now the limit
    /// is said, in text and JSON (`pagesCapped`), and the option is echoed as typed.
    @Test func aTIFFPastTheDirectoryLimitSaysSo() {
        let file = FileSystem.join(Self.hostile, "tiff-2000-pages.tif")
        let text = CLI.run(["info", file])
        #expect(
            text.status == 0 && text.stdout.contains("page 1 of at least 1024 (forcezoom reads the first 1024"),
            "\(text.stdout)")
        let json = CLI.run(["info", "--json", file])
        #expect(json.stdout.contains("\"pages\":1024,\"pagesCapped\":true"), "\(json.stdout)")
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        for option in ["--page", "--frame"] {
            let r = CLI.run(["crop", file, option, "1500", "--at", "0,0", "-o", FileSystem.join(dir, "p.png")])
            #expect(
                r.status == 1 && r.stderr.contains("at least 1024 pages")
                    && r.stderr.contains("\(option) 1500 is past"), "\(r.stderr)")
        }
        let last = CLI.run(["crop", file, "--page", "1024", "--at", "0,0", "-o", FileSystem.join(dir, "p.png")])
        #expect(last.status == 0, "\(last.stderr)")
        let gif = CLI.run([
            "crop", FileSystem.join(Self.hostile, "good.gif"), "--page=3", "--at", "0,0", "-o",
            FileSystem.join(dir, "g.png"),
        ])
        #expect(gif.status == 1 && gif.stderr.contains("--page 3 is past the last"), "\(gif.stderr)")
        let zero = CLI.run(["crop", file, "--page", "0", "--at", "0,0"])
        #expect(zero.status == 2 && zero.stderr.contains("--page counts from 1"), "\(zero.stderr)")
    }
}
