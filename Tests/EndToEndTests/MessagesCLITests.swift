import FZSystem
import Glibc
import TestSupport
import Testing

/// The messages of issue 51, item 14: a warning names its file once; a file --lenient could
/// not save does not ask for --lenient; a folder of subfolders read without -r says they were
/// not searched; every entry of a folder passed over is named (broken links too); and the
/// progress line on a terminal is redrawn in place, never left on a line of its own.
@Suite("Messages")
struct MessagesCLITests {
    static let hdr = FileSystem.join(CLI.root, "../shared/formats/hdr/pixel6pro_ultrahdr_01.jpg")
    static let haveHDR = FileSystem.kind(of: hdr) == .regular
    static let haveCJXL = CLI.shell("command -v cjxl >/dev/null") == 0

    /// How often `path` occurs in `line`.
    private func occurrences(_ path: String, in line: Substring) -> Int {
        line.split(separator: path, omittingEmptySubsequences: false).count - 1
    }

    /// A gain-map JPEG cut inside its map: the warning of each command names the file once
    /// (thumb said `cut.jpg: cut.jpg: ...`: the carry's warning held the path and the batch
    /// put it in front again).
    @Test(.enabled(if: haveHDR)) func aWarningNamesItsFileOnce() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let source = CLI.bytes(Self.hdr)
        CLI.write(FileSystem.join(dir, "cut.jpg"), Array(source[..<(source.count - 1000)]))
        let runs: [(String, [String])] = [
            ("thumb", ["thumb", "cut.jpg", "-o", "t", "--size", "64"]),
            ("crop", ["crop", "cut.jpg", "--at", "20,20", "--size", "32", "-o", "c.jpg"]),
            ("fit", ["fit", "cut.jpg", "--screen", "64x64", "-o", "f.jpg"]),
            ("info", ["info", "cut.jpg"]),
        ]
        for (name, args) in runs {
            let r = CLI.run(args, in: dir)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("forcezoom: warning:") }
            #expect(warnings.contains { $0.contains("gain map") }, "\(name): no gain-map warning: \(r.stderr)")
            for w in warnings { #expect(occurrences("cut.jpg", in: w) == 1, "\(name): \(w)") }
        }
    }

    /// With --lenient, a truncated WebP's warning says what was kept, not "use --lenient"; a
    /// JPEG XL cut so short that nothing decodes is an error that says --lenient did not help.
    /// Without --lenient both still ask for it.
    @Test func lenientIsNotAskedForWhenGiven() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        #expect(CLI.run(["fixture", "coords", "--size", "64x48", "-o", "in.png"], in: dir).status == 0)
        #expect(CLI.run(["crop", "in.png", "--at", "32,24", "--size", "48", "-o", "w.webp"], in: dir).status == 0)
        let webp = CLI.bytes(FileSystem.join(dir, "w.webp"))
        CLI.write(FileSystem.join(dir, "cut.webp"), Array(webp[..<(webp.count * 6 / 10)]))
        var cases = [("cut.webp", 0)]
        if Self.haveCJXL {
            #expect(CLI.shell("cd \(CLI.quote(dir)) && cjxl -q 90 in.png j.jxl >/dev/null 2>&1") == 0)
            let jxl = CLI.bytes(FileSystem.join(dir, "j.jxl"))
            CLI.write(FileSystem.join(dir, "cut.jxl"), Array(jxl[..<(jxl.count * 6 / 10)]))
            cases.append(("cut.jxl", 1))
        }
        for (file, status) in cases {
            let strict = CLI.run(["crop", file, "--at", "10,10", "--size", "8", "-o", "o.png"], in: dir)
            #expect(strict.status == 1 && strict.stderr.contains("use --lenient"), "\(file): \(strict.stderr)")
            let lenient = CLI.run(["crop", file, "--at", "10,10", "--size", "8", "-o", "o.png", "--lenient"], in: dir)
            #expect(lenient.status == Int32(status), "\(file): \(lenient.stderr)")
            #expect(!lenient.stderr.isEmpty && !lenient.stderr.contains("use --lenient"), "\(file): \(lenient.stderr)")
            let says = status == 0 ? "kept what decoded (--lenient)" : "nothing decoded to keep, even with --lenient"
            #expect(lenient.stderr.contains(says), "\(file): \(lenient.stderr)")
            let thumb = CLI.run(["thumb", file, "-o", "t", "--lenient"], in: dir)
            #expect(!thumb.stderr.contains("use --lenient"), "thumb \(file): \(thumb.stderr)")
        }
    }

    /// `thumb photos/` on a folder of subfolders only, without -r: the summary says how many
    /// were not searched and to add -r (hidden ones and the output folder are not counted).
    @Test func subfoldersNotSearchedAreSaid() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        #expect(CLI.shell("cd \(CLI.quote(dir)) && mkdir -p photos/a photos/b photos/c photos/.hidden") == 0)
        #expect(CLI.run(["fixture", "coords", "--size", "32x24", "-o", "photos/a/one.png"], in: dir).status == 0)
        let r = CLI.run(["thumb", "photos", "-o", "photos/thumbs"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains("0 thumbnails") && r.stderr.contains("; 3 subfolders not searched: add -r"), "\(r.stderr)"
        )
        let dry = CLI.run(["thumb", "photos", "-o", "photos/thumbs", "--dry-run"], in: dir)
        #expect(dry.stderr.contains("3 subfolders not searched: add -r"), "\(dry.stderr)")
        let deep = CLI.run(["thumb", "photos", "-r", "-o", "photos/thumbs"], in: dir)
        #expect(
            deep.status == 0 && deep.stderr.contains("1 thumbnail,") && !deep.stderr.contains("not searched"),
            "\(deep.stderr)")
    }

    /// A broken link, a link to a folder and a FIFO in a folder are each named as passed over,
    /// with the reason (--json, --verbose) and in the summary's count.
    @Test func brokenLinksAreNamed() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        #expect(
            CLI.shell(
                "cd \(CLI.quote(dir)) && mkdir -p photos/sub && ln -s gone.jpg photos/broken.jpg && ln -s sub photos/link"
            ) == 0)
        #expect(mkfifo(FileSystem.join(dir, "photos/pipe"), 0o600) == 0)
        #expect(CLI.run(["fixture", "coords", "--size", "32x24", "-o", "photos/one.png"], in: dir).status == 0)
        let r = CLI.run(["thumb", "photos", "-o", "t", "--json", "--verbose"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        var skipped: [String: String] = [:]
        for record in JSONValue.objects(r.stdout) {
            guard case .string("skipped")? = record["status"], case .string(let input)? = record["input"],
                case .string(let reason)? = record["reason"]
            else { continue }
            skipped[input] = reason
        }
        #expect(skipped["photos/broken.jpg"]?.contains("a broken link to 'gone.jpg'") == true, "\(skipped)")
        #expect(skipped["photos/link"]?.contains("a link to a folder") == true, "\(skipped)")
        #expect(skipped["photos/pipe"]?.contains("FIFO") == true, "\(skipped)")
        #expect(r.stderr.contains("photos/broken.jpg: skipped: a broken link"), "\(r.stderr)")
        #expect(
            r.stderr.contains("1 thumbnail, 0 failed")
                && r.stderr.contains("skipped 3: 3 not images (broken link, link to a folder, FIFO)"), "\(r.stderr)")
    }

    /// On a terminal (a pty), the progress line of a batch of JPEG XL files is redrawn in
    /// place: no line ends with the progress text (it stacked, `\r\n\r\e[K`, when it was drawn
    /// while libjxl's messages were held back on descriptor 2 and came out later with a
    /// newline of its own).
    @Test(.enabled(if: haveCJXL)) func progressRedrawsInPlaceOnATerminal() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        #expect(CLI.run(["fixture", "coords", "--size", "320x240", "-o", "in.png"], in: dir).status == 0)
        #expect(
            CLI.shell(
                "cd \(CLI.quote(dir)) && mkdir in && cjxl -q 90 in.png in/0.jxl >/dev/null 2>&1 && for i in $(seq 1 250); do cp in/0.jxl in/$i.jxl; done"
            ) == 0)
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], [sys.argv[1], "thumb", "in", "-o", "out", "-j", "2", "--size", "64"])
            data = b""
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
            _, status = os.waitpid(pid, 0)
            lines = data.split(b"\\n")
            stacked = [l for l in lines[:-1] if b"ETA" in l.split(b"\\x1b[K")[-1]]
            print("status", os.waitstatus_to_exitcode(status), "draws", data.count(b"\\r\\x1b[K"), "stacked", len(stacked))
            for l in stacked[:3]:
                print(repr(l[-100:]))
            """
        CLI.write(FileSystem.join(dir, "progress_pty.py"), Array(script.utf8))
        let out = FileSystem.join(dir, "progress.txt")
        _ = CLI.shell(
            "cd \(CLI.quote(dir)) && \(CLI.python) progress_pty.py \(CLI.quote(CLI.binary)) > progress.txt 2>&1")
        let said = CLI.read(out)
        let words = said.split(whereSeparator: { $0 == " " || $0 == "\n" })
        func number(after key: String) -> Int? {
            guard let k = words.firstIndex(of: Substring(key)), k + 1 < words.count else { return nil }
            return Int(words[k + 1])
        }
        #expect(number(after: "status") == 0, "\(said)")
        #expect((number(after: "draws") ?? 0) >= 3, "the progress line was drawn: \(said)")
        #expect(number(after: "stacked") == 0, "\(said)")
    }
}
