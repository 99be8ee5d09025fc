import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Every command against every file of Fixtures/hostile/ (Tools/hostile/make-hostile.py):
/// each run ends by exiting, never by a signal; a failure is exit 1 with one line on stderr
/// that names the file and says what is wrong; every run stays under the time and memory
/// limits; the good files among them still work; nothing is left in the output folder.
@Suite("Hostile input")
struct HostileInputTests {
    /// A command as the hostile runs use it. `{out}` is replaced by a fresh, empty output
    /// folder; the input file comes last, after `--` (so names starting with a dash work).
    struct Command: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        /// Whether it decodes pixels (`info` reads headers only, so a file whose damage is
        /// in the image data passes `info` and fails the others).
        let decodes: Bool
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// The commands every hostile file goes through (thumb with --quiet: its summary line
    /// would otherwise be a second line on stderr).
    static let commands: [Command] = [
        Command(arguments: ["info"], decodes: false),
        Command(arguments: ["crop", "--at", "50%,50%", "-o", "{out}/crop.png"], decodes: true),
        Command(arguments: ["fit", "--screen", "390x844", "-o", "{out}/fit.png"], decodes: true),
        Command(arguments: ["thumb", "--quiet", "--out", "{out}"], decodes: true),
    ]

    /// Limits per run: these are bounds, not benchmarks. Under the sanitizers (ASan's shadow
    /// memory, slower code; `make test-sanitize` sets FORCEZOOM_SANITIZED) they widen.
    /// The time guard is on CPU time (all threads), which a busy machine does not inflate;
    /// the wall clock only ends a hang (`CLI.hangSeconds`).
    static let sanitized = getenv("FORCEZOOM_SANITIZED") != nil
    static let maxCPUSeconds: Double = sanitized ? 15 : 5
    static let maxRSSKiB = (sanitized ? 768 : 256) * 1024

    static let dir = FileSystem.join(CLI.root, "Fixtures/hostile")

    struct Entry: CustomTestStringConvertible, Sendable {
        let file: String
        /// ok: every command succeeds; header: every command fails; data: `info`
        /// succeeds, decoding commands fail.
        let expect: String
        /// Words the error line must contain one of ("-" for ok files).
        let keywords: [String]
        let what: String
        var testDescription: String { file }
    }

    static let manifest: [Entry] = {
        let text = CLI.read(FileSystem.join(dir, "MANIFEST.tsv"))
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 4 else { return nil }
            return Entry(file: f[0], expect: f[1], keywords: f[2].split(separator: "|").map(String.init), what: f[3])
        }
    }()

    @Test func manifestCoversTheSet() throws {
        #expect(Self.manifest.count > 100, "Fixtures/hostile/MANIFEST.tsv is missing or short: run `make hostile`")
        let files = try FileSystem.list(Self.dir).filter { $0 != "MANIFEST.tsv" }
        #expect(Set(files) == Set(Self.manifest.map(\.file)), "files and MANIFEST.tsv disagree: run `make hostile`")
        for expect in ["ok", "header", "data"] {
            #expect(Self.manifest.contains { $0.expect == expect }, "no \(expect) files")
        }
        #expect(Self.manifest.allSatisfy { ["ok", "header", "data"].contains($0.expect) })
    }

    /// Runs `command` on `file` (relative to `dir`, from `dir`) and checks everything
    /// common to all runs. - Returns: the run and its output folder's leftovers.
    static func run(_ command: Command, _ file: String, in dir: String = dir, extra: [String] = []) -> (
        MeasuredRun, [String]
    ) {
        let out = CLI.scratch()
        let args = command.arguments.map { $0.replacing("{out}", with: out) } + extra + ["--", file]
        let r = CLI.measure(args, in: dir)
        let left = (try? FileSystem.list(out)) ?? []
        _ = CLI.shell("rm -rf \(CLI.quote(out))")
        let label = "\(command.testDescription) \(file)"
        #expect(r.signal == nil, "\(label): ended by signal \(r.signal ?? 0): \(r)")
        #expect(!r.timedOut, "\(label): hung, killed after \(CLI.hangSeconds) s: \(r)")
        #expect(
            r.cpuSeconds < maxCPUSeconds, "\(label): CPU-time guard: \(r.cpuSeconds) s of CPU, limit \(maxCPUSeconds) s"
        )
        #expect(r.maxRSSKiB < maxRSSKiB, "\(label): \(r.maxRSSKiB / 1024) MiB resident, limit \(maxRSSKiB / 1024) MiB")
        #expect(!left.contains { $0.contains(".fz-") }, "\(label): temporary file left: \(left)")
        return (r, left)
    }

    /// The commands `entry` goes through: all of them, except that under the sanitizers a
    /// file refused at its header goes through `info` and `crop` only. Every command reads a
    /// header the same way before it decodes, so the other two ran the same code again at
    /// about 0.25 s a run under ASan (152 files: a minute of CI); the release run, the
    /// fuzz-replay of every hostile file and these two still cover each header under ASan.
    static func commands(for entry: Entry) -> [Command] {
        guard sanitized, entry.expect == "header" else { return commands }
        return commands.filter { $0.arguments[0] == "info" || $0.arguments[0] == "crop" }
    }

    @Test(arguments: manifest)
    func everyCommandFailsCleanlyOrSucceeds(_ entry: Entry) {
        for command in Self.commands(for: entry) {
            let (r, left) = Self.run(command, entry.file)
            let label = "\(command.testDescription) \(entry.file) (\(entry.what))"
            let shouldFail = entry.expect == "header" || (entry.expect == "data" && command.decodes)
            if shouldFail {
                #expect(r.exitCode == 1, "\(label): want exit 1: \(r)")
                let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 2 && lines[1].isEmpty, "\(label): want one line on stderr: \(r.stderr)")
                #expect(r.stderr.hasPrefix("forcezoom: error: \(entry.file): "), "\(label): \(r.stderr)")
                #expect(
                    entry.keywords.contains { r.stderr.contains($0) }, "\(label): want \(entry.keywords): \(r.stderr)")
                #expect(left.isEmpty, "\(label): output left behind: \(left)")
            } else {
                #expect(r.exitCode == 0, "\(label): want success: \(r)")
                #expect(!r.stderr.contains("error"), "\(label): \(r.stderr)")
                if command.decodes { #expect(!left.isEmpty, "\(label): no output written") }
            }
        }
    }

    /// Headers over the pixel limit hold no real data: with the limit off they must still
    /// fail fast and small (the memory limit and the missing data stop them).
    @Test(arguments: manifest.filter { $0.keywords.contains("over the limit") })
    func overTheLimitWithoutAPixelLimit(_ entry: Entry) {
        for command in Self.commands where command.decodes {
            let (r, _) = Self.run(command, entry.file, extra: ["--max-pixels", "0"])
            #expect(r.exitCode == 1, "\(entry.file) --max-pixels 0: \(r)")
            #expect(r.stderr.hasPrefix("forcezoom: error: \(entry.file): "), "\(r.stderr)")
        }
    }

    /// --lenient keeps what decoded, but never lifts the scan limit.
    @Test(arguments: manifest.filter { $0.file.hasPrefix("jpeg-scan-bomb") })
    func scanBombsStayRefusedWhenLenient(_ entry: Entry) {
        for command in Self.commands where command.decodes {
            let (r, _) = Self.run(command, entry.file, extra: ["--lenient"])
            #expect(r.exitCode == 1, "\(entry.file) --lenient: \(r)")
            #expect(r.stderr.contains("scan limit"), "\(r.stderr)")
        }
    }

    /// A WebP whose RIFF size is past the end of the file was cut, even where its chunks end
    /// whole: thumb refuses it with one line naming it and goes on with the batch; bytes
    /// after the RIFF end are ignored. dwebp, where installed, gives the same verdicts.
    @Test func webpShorterThanItsRIFFSizeIsTruncated() {
        let cut = ["riff-size-long.webp", "riff-size-huge.webp"]
        let whole = ["good.webp", "riff-size-trailing.webp"]
        let out = CLI.scratch()
        let r = CLI.measure(["thumb", "--quiet", "--out", out, "--"] + cut + whole, in: Self.dir)
        let made = ((try? FileSystem.list(out)) ?? []).sorted()
        _ = CLI.shell("rm -rf \(CLI.quote(out))")
        #expect(r.exitCode == 1, "\(r)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == cut.count, "one line per cut file: \(r.stderr)")
        for name in cut {
            #expect(
                lines.contains { $0.hasPrefix("forcezoom: error: \(name): file is truncated (the RIFF header says ") },
                "\(name): \(r.stderr)")
        }
        #expect(made == ["good.thumb.png", "riff-size-trailing.thumb.png"], "the batch goes on: \(made)")
        guard CLI.shell("command -v dwebp > /dev/null") == 0 else { return }
        for name in cut + whole {
            let ok =
                CLI.shell("cd \(CLI.quote(Self.dir)) && dwebp \(CLI.quote(name)) -o /dev/null > /dev/null 2>&1") == 0
            #expect(ok == whole.contains(name), "dwebp \(ok ? "decodes" : "refuses") \(name)")
        }
    }

    /// Git keeps no empty folders, so the folder named like an image is made here.
    @Test func aDirectoryNamedLikeAnImage() {
        let work = CLI.scratch()
        #expect(CLI.shell("mkdir \(CLI.quote(FileSystem.join(work, "x.png")))") == 0)
        // thumb takes folders as inputs to walk (an empty one gives no thumbnails), so the
        // folder named like an image is an error only for the single-file commands.
        for command in Self.commands where command.arguments.first != "thumb" {
            let (r, _) = Self.run(command, "x.png", in: work)
            #expect(r.exitCode == 1, "\(command.testDescription) x.png: \(r)")
            #expect(r.stderr == "forcezoom: error: x.png: is a directory, not an image file\n")
        }
    }

    /// A leading dash also works as ./-name (without `--`).
    @Test func aLeadingDashAsDotSlash() {
        for command in Self.commands {
            let out = CLI.scratch()
            let args = command.arguments.map { $0.replacing("{out}", with: out) } + ["./-leading-dash.png"]
            let r = CLI.measure(args, in: Self.dir)
            #expect(r.exitCode == 0, "\(command.testDescription) ./-leading-dash.png: \(r)")
        }
    }

    /// The set is reproducible: the generator writes the same bytes again.
    @Test func regenerationIsByteIdentical() throws {
        let out = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/hostile/make-hostile.py")
        #expect(CLI.shell("python3 \(CLI.quote(script)) --out \(CLI.quote(out)) > /dev/null") == 0)
        let made = try FileSystem.list(out)
        let kept = try FileSystem.list(Self.dir)
        #expect(made == kept, "file lists differ: run `make hostile` and commit")
        for name in made where kept.contains(name) {
            let a = CLI.bytes(FileSystem.join(out, name))
            let b = CLI.bytes(FileSystem.join(Self.dir, name))
            #expect(a == b, "\(name) differs from a fresh `make hostile`")
        }
        _ = CLI.shell("rm -rf \(CLI.quote(out))")
    }
}
