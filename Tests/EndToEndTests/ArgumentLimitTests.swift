import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Arguments are input: no number, size, point, rect or pattern typed on the command line
/// may kill forcezoom with a signal, hang it or make it allocate without bound. Runs the
/// release binary when `make test` passes it (FORCEZOOM_RELEASE_BIN: the configuration
/// users run, with Swift's checks kept), else the one under test.
@Suite("Arguments are input")
struct ArgumentLimitTests {
    static let binary: String = getenv("FORCEZOOM_RELEASE_BIN").map { String(cString: $0) } ?? CLI.binary

    /// Limits per run, as the issue sets them (wider under the sanitizers). The time guard is
    /// on CPU time, which a busy machine does not inflate; the wall clock only ends a hang.
    static let sanitized = getenv("FORCEZOOM_SANITIZED") != nil
    static let maxCPUSeconds: Double = sanitized ? 20 : 5
    static let maxRSSKiB = (sanitized ? 1024 : 512) * 1024

    /// The inputs, made once: an 800x600 coords PNG (and a copy named p2.png), the repo's
    /// photo, a 4x4 image in a folder, and marker files (one over the 16 MiB limit, one
    /// with a 300-character label, one with CRLF line ends and a byte order mark).
    static let inputs: String = {
        let dir = CLI.scratch()
        _ = CLI.run(["fixture", "coords", "--size", "800x600", "-o", FileSystem.join(dir, "a.png")])
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(dir, "a.png"))) \(CLI.quote(FileSystem.join(dir, "p2.png")))")
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg"))) \(CLI.quote(dir))")
        _ = CLI.shell("mkdir -p \(CLI.quote(FileSystem.join(dir, "tin")))")
        _ = CLI.run(["fixture", "coords", "--size", "4x4", "-o", FileSystem.join(dir, "tin/tin.png")])
        let big = [UInt8]("10,10,".utf8) + [UInt8](repeating: 65, count: 17 << 20) + [10]
        CLI.write(FileSystem.join(dir, "big.csv"), big)
        CLI.write(FileSystem.join(dir, "long.csv"), Array("10,10,\(String(repeating: "L", count: 300))\n".utf8))
        CLI.write(
            FileSystem.join(dir, "crlf.csv"), [0xEF, 0xBB, 0xBF] + Array("x,y,label\r\n10,20,one\r\n30,40\r\n".utf8))
        return dir
    }()

    /// Runs forcezoom from the inputs folder with `{out}` standing for a fresh empty folder,
    /// and checks what every run must satisfy: an exit of 0, 1 or 2, never a signal, under
    /// the time and memory limits, one line on stderr when it fails, and nothing left in
    /// the output folder then. - Returns: the run.
    @discardableResult
    static func check(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> MeasuredRun {
        let out = CLI.scratch()
        let args = arguments.map { $0.replacing("{out}", with: out) }
        let r = CLI.measure(args, in: inputs, binary: binary)
        let left = ((try? FileSystem.list(out)) ?? []).sorted()
        _ = CLI.shell("rm -rf \(CLI.quote(out))")
        let label = arguments.joined(separator: " ")
        #expect(r.signal == nil, "\(label): ended by signal \(r.signal ?? 0): \(r)", sourceLocation: sourceLocation)
        #expect(
            !r.timedOut && r.cpuSeconds < maxCPUSeconds, "\(label): CPU-time guard: \(r)",
            sourceLocation: sourceLocation)
        #expect(r.maxRSSKiB < maxRSSKiB, "\(label): \(r.maxRSSKiB / 1024) MiB", sourceLocation: sourceLocation)
        #expect([0, 1, 2].contains(r.exitCode ?? -1), "\(label): \(r)", sourceLocation: sourceLocation)
        if r.exitCode != 0 {
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(
                lines.count == 2 && lines[1].isEmpty && r.stderr.hasPrefix("forcezoom: error: "),
                "\(label): want one error line: \(r.stderr.prefix(400))", sourceLocation: sourceLocation)
            #expect(
                r.stderr.utf8.count < 700, "\(label): \(r.stderr.utf8.count) bytes on stderr",
                sourceLocation: sourceLocation)
            #expect(left.isEmpty, "\(label): left \(left)", sourceLocation: sourceLocation)
        }
        return r
    }

    /// One reproducer from the issue: its command, the exit it must give and words its
    /// message must hold.
    struct Reproducer: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let exit: Int32
        let says: [String]
        var testDescription: String { arguments.joined(separator: " ") }
        init(_ arguments: String, _ exit: Int32, _ says: String...) {
            self.arguments = Self.split(arguments)
            self.exit = exit
            self.says = says
        }

        /// Splits on spaces; single quotes group (no escapes needed here).
        static func split(_ s: String) -> [String] {
            var words: [String] = []
            var word = ""
            var quoted = false
            var any = false
            for ch in s {
                if ch == "'" {
                    quoted.toggle()
                    any = true
                } else if ch == " " && !quoted {
                    if any { words.append(word) }
                    word = ""
                    any = false
                } else {
                    word.append(ch)
                    any = true
                }
            }
            if any { words.append(word) }
            return words
        }
    }

    static let reproducers: [Reproducer] = [
        .init("crop peek.jpg --at 10,10 --size 2147483647 -o {out}/x.png", 2, "--size", "1048576"),
        .init("crop peek.jpg --at 10,10 --size 46341 -o {out}/x.png", 2, "--max-pixels"),
        .init("crop peek.jpg --at 10,10 --size 9000 --max-memory 1 -o {out}/x.png", 2, "--max-memory 1 MiB"),
        .init("crop peek.jpg --at 10,10 --screen 100000x100000 -o {out}/x.png", 2, "--max-pixels"),
        .init("frame a.png --view 100x200 --at 50%,50% --size 2147483648 -o {out}/x.png", 2, "--size"),
        .init("frame a.png --view 100x200 --at 50%,50% --size 20000 --with-peek -o {out}/x.png", 2, "--max-pixels"),
        // The box marks the crop of that side, so frame refuses what crop refuses, peek or
        // not (these two drew a 46341-point box's masks: 0.4-0.8 GB, 2.5-6.6 s).
        .init("frame a.png --view 100x200 --at 50%,50% --size 46341 -o {out}/x.png", 2, "--size 46341", "--max-pixels"),
        .init("frame a.png --view 100x200 --at 50%,50% --size 65536 -o {out}/x.png", 2, "--size 65536", "--max-pixels"),
        .init(
            "frame a.png --view 100x200 --at 50%,50% --screen 65536x65536 -o {out}/x.png", 2, "--screen 65536x65536",
            "--max-pixels"),
        .init("crop peek.jpg --at 10,10 --size 65536 -o {out}/x.png", 2, "--size 65536", "--max-pixels"),
        .init("fit a.png --screen 65536x65536 -o {out}/x.png", 2, "--screen 65536x65536", "--max-pixels"),
        .init(
            "animate a.png --screen 65536x65536 --from 2,10,12,9 -o {out}/f%d.png", 2, "--screen", "65536x65536",
            "--max-pixels"),
        .init("crop peek.jpg --at 50%,50% --size 64 --zoom 1e-300 -o {out}/x.png", 2, "--zoom"),
        .init("crop peek.jpg --at 50%,50% --size 64 --zoom 1e-7 -o {out}/x.png", 2, "--zoom"),
        .init("crop peek.jpg --at 1,1 --size 9223372036854775807 --geometry-only", 2, "--size"),
        .init("transform a.png --translate 1e15,0 --json -o {out}/x.png", 2, "--translate"),
        .init("animate a.png --screen 39x84 --from 0,0,1e15,1e15 --json", 2, "--from"),
        .init("transform a.png --scale 1e20 -o {out}/x.png", 2, "--scale"),
        .init("transform a.png --skew 1e20,0 -o {out}/x.png", 2, "--skew"),
        .init("transform a.png --matrix 1e308,0,0,1e308,0,0 -o {out}/x.png", 2, "--matrix"),
        .init("transform a.png --scale 1e5 -o {out}/x.png", 1, "a.png: ", "limited to 1048576", "--canvas"),
        .init("transform a.png --canvas 9223372036854775807x9223372036854775807 -o {out}/x.png", 2, "--canvas"),
        .init(
            "transform a.png --rotate 15 --canvas 99999x99999 -o {out}/x.png", 2, "--canvas 99999x99999", "--max-pixels"
        ),
        .init("animate a.png --screen 39x84 --from 2,10,12,9 --duration inf --json", 2, "--duration"),
        .init("animate a.png --screen 39x84 --from 2,10,12,9 --fps 1e308 --json", 2, "--fps"),
        .init(
            "animate a.png --screen 4294967296x4294967296 --from 2,10,12,9 --frames 2 -o {out}/f%d.png", 2, "--screen"),
        .init("animate a.png --screen 20000x20000 --from 2,10,12,9 -o {out}/f%d.png", 2, "--max-pixels"),
        .init("animate a.png --screen 390x844 --from 2,10,12,9 --frames 10000 --apng {out}/s.png", 2, "--max-pixels"),
        .init("animate a.png --screen 39x84 --from 2,10,12,9 -o {out}/f%2147483647d.png", 2, "-o", "width"),
        .init("fixture coords --size 4294967296x4294967296 -o {out}/x.png", 2, "--size"),
        .init("fixture coords --size 9223372036854775807x9223372036854775807 -o {out}/x.png", 2, "--size"),
        .init("fit a.png --screen 2147483648x1 -o {out}/x.png", 2, "--screen"),
        .init("fit a.png --screen 2147483647x2147483647 -o {out}/x.png", 2, "--screen"),
        .init("fit a.png --screen 100x200 --markers big.csv -o {out}/x.png", 1, "big.csv", "16 MiB"),
        .init("frame a.png --view 100x200 --at 50%,50% --markers big.csv -o {out}/x.png", 1, "big.csv"),
        .init("transform a.png --rotate 10 --markers long.csv -o {out}/x.png", 1, "long.csv", "label"),
        .init("thumb --from /dev/zero --size 32 -q --out {out}", 1, "/dev/zero", "not a regular file"),
        .init("thumb --from /dev/zero -0 --size 32 -q --out {out}", 1, "/dev/zero", "not a regular file"),
        .init("thumb tin --size '20000x20000<' -q --out {out}", 1, "tin/tin.png: the thumbnail", "--max-pixels"),
        .init("thumb tin --size '20000x20000!' --out {out}", 2, "thumbnail", "--max-pixels"),
        .init("crop peek.jpg --at 101%,101% -o {out}/x.png", 2, "--at 101%,101%", "100%"),
        .init("crop peek.jpg --at 10,10 -o ''", 2, "-o"),
        .init("fixture coords --size 10x10 --depth 3 --color gray -o {out}/x.png", 2, "--depth 3"),
        .init("transform a.png --rotate nan -o {out}/x.png", 2, "--rotate"),
        .init("transform a.png --rotate inf -o {out}/x.png", 2, "--rotate"),
        .init("transform a.png --rotate 1e308 -o {out}/x.png", 2, "--rotate"),
        .init("frame a.png --view 100x200 --at 1,1 --screen 0x0 -o {out}/x.png", 2, "--screen"),
        .init("fixture checker --size 10x10 --step=-1 -o {out}/x.png", 2, "--step"),
        .init("fixture coords --size 10x10 --restart 9223372036854775807 -o {out}/x.jpg", 2, "--restart"),
        .init("help nope", 2, "nope"),
        .init("crop peek.jpg --at 1,1 --at 2,2 -o {out}/p%n.png", 2, "%n"),
        .init("crop peek.jpg --at 1,1 --at 2,2 -o {out}/p%x.png", 2, "%x"),
        .init("crop peek.jpg --at 1,1 --at 2,2 -o {out}/p%-5d.png", 2, "%-"),
        .init("crop peek.jpg --at 1,1 --at 2,2 -o {out}/p%d%d.png", 2, "two counters"),
        .init("crop peek.jpg --at 1,1 --at 2,2 -o {out}/p.png", 2, "%d"),
        .init(
            "animate a.png --screen 39x84 --from 2,10,12,9 --apng {out}/x.png --contact-sheet {out}/x.png", 2, "--apng",
            "--contact-sheet"),
        .init("animate a.png --screen 39x84 --from 2,10,12,9 -o {out}/f%d.png --apng {out}/f2.png", 2, "f2.png"),
        .init("crop p2.png --at 1,1 --at 2,2 -o p%d.png", 1, "p2.png", "input"),
        .init("crop peek.jpg --at 1e308,1e308 -o {out}/x.png", 1, "1e308,1e308", "outside"),
        .init(
            "fit a.png --screen 100x200 --max-memory 99999999999999999 -o {out}/x.png", 2, "--max-memory",
            "8796093022207"),
        .init("fit a.png --screen 100x200 --markers crlf.csv -o {out}/x.png", 0),
        .init("transform a.png --translate 1e9,0 --json -o {out}/x.png", 0),
    ]

    @Test(arguments: reproducers)
    func reproducer(_ c: Reproducer) {
        let r = Self.check(c.arguments)
        #expect(r.exitCode == c.exit, "\(c.testDescription): want exit \(c.exit): \(r)")
        for word in c.says { #expect(r.stderr.contains(word), "\(c.testDescription): want '\(word)' in \(r.stderr)") }
    }

    /// Messages are one line whatever was typed: control characters escaped, values cut.
    @Test func echoedValuesAreEscapedAndCut() {
        let r = Self.check([
            "crop", "peek.jpg", "--at", "1,1", "--at", "2,2", "-o",
            "p\u{1B}[31m\n" + String(repeating: "x", count: 5000) + ".png",
        ])
        #expect(r.exitCode == 2)
        #expect(!r.stderr.dropLast().contains("\n") && !r.stderr.contains("\u{1B}"), "\(r.stderr.prefix(300))")
        #expect(r.stderr.contains("\\u{1B}"))
    }

    /// A JSON number past 1e15 is printed, not a trap (the formatter's Int64 path).
    @Test func hugeJSONNumbers() {
        let r = Self.check([
            "transform", "a.png", "--translate", "1e9,0", "--translate", "1e9,0", "--scale", "1e6", "--canvas", "10x10",
            "--json", "-o",
            "{out}/t.png",
        ])
        #expect(r.exitCode == 0, "\(r)")
        let json = JSONValue.object(r.stdout.split(separator: "\n").first ?? "")
        guard case .array(let m)? = json?["transform"], m.count == 6, case .number(let tx) = m[4] else {
            Issue.record("no transform in \(r.stdout)")
            return
        }
        #expect(tx >= 1e15, "\(r.stdout)")
    }

    /// Where stdout goes nowhere, the output was lost: exit 1 and one line, not 0.
    @Test func lostStdoutIsAFailure() {
        for args in [["info", "a.png"], ["crop", "a.png", "--at", "1,1", "--json", "-o", "{out}/c.png"]] {
            let out = CLI.scratch()
            let line = (args.map { CLI.quote($0.replacing("{out}", with: out)) }).joined(separator: " ")
            let code = CLI.shell(
                "cd \(CLI.quote(Self.inputs)) && \(CLI.quote(Self.binary)) \(line) > /dev/full 2> \(CLI.quote(out))/err"
            )
            let err = CLI.read(FileSystem.join(out, "err"))
            #expect(code == 1, "\(args): exit \(code)")
            #expect(
                err.hasPrefix("forcezoom: error: standard output: ") && err.split(separator: "\n").count == 1, "\(err)")
            _ = CLI.shell("rm -rf \(CLI.quote(out))")
        }
    }

    /// File arguments after `--` are handed to `info` without the parser's quadratic
    /// splitting: every one is read, within the run limits. (12,000: the runner passes the
    /// command through `sh -c`, one argument of at most 128 KiB; the README's 100,000 were
    /// measured through xargs.)
    @Test func thousandsOfFilesAfterTheSeparator() {
        let dir = CLI.scratch()
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(Self.inputs, "tin/tin.png"))) \(CLI.quote(dir))/t.png")
        let r = CLI.measure(
            ["info", "--"] + [String](repeating: "t.png", count: 12_000), in: dir, binary: Self.binary)
        #expect(r.exitCode == 0 && r.signal == nil, "\(r)")
        #expect(r.stdout.split(separator: "\n").count == 12_000)
        #expect(r.cpuSeconds < Self.maxCPUSeconds, "CPU-time guard: \(r)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    /// Thousands of touch points come from a file (`--at-from`), linear where 20,000 repeated
    /// `--at` took the parser over 20 s: every point is answered (geometry only), in order;
    /// a bad line is one usage error naming the line; the file is never an output.
    @Test func thousandsOfPointsFromAFile() {
        let dir = CLI.scratch()
        _ = CLI.shell("cp \(CLI.quote(FileSystem.join(Self.inputs, "tin/tin.png"))) \(CLI.quote(dir))/t.png")
        let lines = (0..<20_000).map { "\($0 % 4),\($0 % 3)" }
        CLI.write(
            FileSystem.join(dir, "points.txt"), Array(("# x,y\n" + lines.joined(separator: "\r\n") + "\n\n").utf8))
        let r = CLI.measure(
            ["crop", "t.png", "--at-from", "points.txt", "--size", "4", "--geometry-only"], in: dir, binary: Self.binary
        )
        #expect(r.exitCode == 0 && r.signal == nil, "\(r)")
        let out = r.stdout.split(separator: "\n")
        #expect(out.count == 20_000)
        // In order: the last line answers the last point, 19999 -> (19999 % 4, 19999 % 3) = (3, 1).
        let records = JSONValue.objects(r.stdout)
        #expect(
            records.last?["requested"] == .string("3,1") && records.first?["requested"] == .string("0,0"),
            "\(out.last ?? "")")
        #expect(r.cpuSeconds < Self.maxCPUSeconds, "CPU-time guard: \(r)")
        CLI.write(FileSystem.join(dir, "bad.txt"), Array("1,1\n2;2\n".utf8))
        let bad = CLI.run(["crop", "t.png", "--at-from", "bad.txt", "--size", "4", "--geometry-only"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--at-from bad.txt line 2: 2;2 is not X,Y"), "\(bad.stderr)")
        let clash = CLI.run(
            ["crop", "t.png", "--at-from", "points.txt", "--at", "1,1", "--size", "4", "-o", "points.txt"], in: dir)
        #expect(clash.status != 0 && CLI.read(FileSystem.join(dir, "points.txt")).hasPrefix("# x,y"), "\(clash.stderr)")
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }

    // MARK: - Extreme values, alone and together (a seeded property test)
}
