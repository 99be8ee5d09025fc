import TestSupport
import Testing

@testable import FZSystem

/// thumb's defaults for whole libraries: the tree mirrored when recursing, progress a log
/// can keep, an unusable --out or a full disk found once (not per input), --max-failures.
@Suite(.serialized)
struct ThumbBulkCLITests {
    /// A folder holding `count` small PNGs (and `broken` files named .png that are not).
    static func library(_ count: Int, broken: Int = 0, size: String = "40x30") -> String {
        let dir = CLI.scratch()
        let first = FileSystem.join(dir, "p0.png")
        if count > 0 { _ = CLI.run(["fixture", "noise", "--size", size, "-o", first]) }
        for i in 1..<max(count, 1) {
            _ = CLI.shell("cp \(CLI.quote(first)) \(CLI.quote(FileSystem.join(dir, "p\(i).png")))")
        }
        for i in 0..<broken { CLI.write(FileSystem.join(dir, "broken\(i).png"), Array("not a picture".utf8)) }
        return dir
    }

    @Test func recursingMirrorsTheTreeByDefault() throws {
        let root = CLI.scratch()
        let lib = FileSystem.join(root, "lib")
        let out = FileSystem.join(root, "thumbs")
        #expect(CLI.shell("mkdir -p \(CLI.quote(lib))/a \(CLI.quote(lib))/b") == 0)
        for folder in ["", "a", "b"] {
            _ = CLI.run([
                "fixture", "checker", "--size", "30x20", "-o",
                FileSystem.join(FileSystem.join(lib, folder), "IMG_0001.png"),
            ])
        }
        let r = CLI.run(["thumb", lib, "-r", "--size", "16", "--out", out])
        #expect(r.status == 0, "one name in three folders must not collide: \(r.stderr)")
        for name in ["IMG_0001.thumb.png", "a/IMG_0001.thumb.png", "b/IMG_0001.thumb.png"] {
            #expect(CLI.shell("test -s \(CLI.quote(FileSystem.join(out, name)))") == 0, "\(name) missing")
        }
        // Without -r the default stays flat.
        let flat = FileSystem.join(root, "flat")
        #expect(CLI.run(["thumb", FileSystem.join(lib, "a"), "--size", "16", "--out", flat]).status == 0)
        #expect(CLI.shell("test -s \(CLI.quote(FileSystem.join(flat, "IMG_0001.thumb.png")))") == 0)
    }

    @Test func helpShowsTheDefaultSize() {
        let r = CLI.run(["thumb", "--help"])
        #expect(r.stdout.contains("Default 256"), "\(r.stdout)")
    }

    @Test func progressIntoALogIsPlainLines() {
        let lib = Self.library(30)
        let r = CLI.run(["thumb", lib, "--size", "16", "--out", FileSystem.join(lib, "t"), "--progress", "-j", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            !r.stderr.contains("\r") && !r.stderr.contains("\u{1B}"),
            "control characters in a log: \(r.stderr.debugDescription)")
        #expect(r.stderr.contains("/30 "), "no progress line: \(r.stderr)")
        #expect(r.stderr.hasSuffix("s\n") && r.stderr.contains("30 thumbnails, 0 failed"), "\(r.stderr)")
    }

    /// On a terminal (util-linux `script` gives the run one) the line is redrawn in place
    /// and cleared before the summary.
    @Test(.enabled(if: CLI.shell("command -v script >/dev/null") == 0, "needs script (util-linux); skipped"))
    func progressOnATerminalRedrawsInPlace() {
        let lib = Self.library(30)
        let out = FileSystem.join(lib, "typescript")
        let command = [CLI.binary, "thumb", lib, "--size", "16", "--out", FileSystem.join(lib, "t"), "-j", "1"].map(
            CLI.quote
        ).joined(separator: " ")
        #expect(CLI.shell("script -qec \(CLI.quote(command)) /dev/null > \(CLI.quote(out)) < /dev/null") == 0)
        let text = CLI.read(out)
        #expect(text.contains("\r\u{1B}[K0/30 0%") || text.contains("/30 "), "\(text.debugDescription)")
        #expect(text.contains("\r\u{1B}[Kforcezoom: 30 thumbnails, 0 failed"), "\(text.debugDescription)")
    }

    @Test func maxFailuresStopsEarly() {
        let lib = Self.library(0, broken: 20)
        let r = CLI.run([
            "thumb", lib, "--size", "16", "--out", FileSystem.join(lib, "t"), "--max-failures", "3", "-j", "1",
        ])
        #expect(r.status == 1)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("forcezoom: error:") }
        #expect(errors.count >= 3 && errors.count < 20, "\(r.stderr)")
        #expect(r.stderr.contains("stopped: 3 inputs failed (--max-failures 3)"), "\(r.stderr)")
        #expect(r.stderr.contains("not done") && r.stderr.contains("; the first not done: "), "\(r.stderr)")
        #expect(CLI.run(["thumb", lib, "--max-failures", "0"]).status == 2)
    }

    // MARK: Read-only and full output folders (a tmpfs in a private mount namespace)

    @Test(
        .enabled(
            if: OutputSafetyTests.canMount, "needs mount in a private namespace (root with CAP_SYS_ADMIN); skipped"))
    func unwritableOutIsFoundBeforeAnyDecode() {
        let lib = Self.library(20)
        let (_, out) = OutputSafetyTests.inMountNamespace(
            """
            d=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && mount -o remount,ro "$d" || exit 99
            \(CLI.quote(CLI.binary)) thumb \(CLI.quote(lib)) --size 16 --out "$d" 2> "$d.err"
            echo "rc=$?"
            cat "$d.err"
            """)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "rc=1", "\(out)")
        // One line for the folder, not twenty for the inputs.
        #expect(lines.count == 2 && lines[1].contains("no file can be made in it: read-only file system"), "\(out)")
    }

    @Test(
        .enabled(
            if: OutputSafetyTests.canMount, "needs mount in a private namespace (root with CAP_SYS_ADMIN); skipped"))
    func fullDiskStopsTheBatchNamingWhatWasNotDone() {
        let lib = Self.library(40, size: "200x200")
        let (_, out) = OutputSafetyTests.inMountNamespace(
            """
            d=$(mktemp -d) && mount -t tmpfs -o size=256k tmpfs "$d" || exit 99
            \(CLI.quote(CLI.binary)) thumb \(CLI.quote(lib)) --size 200 --compression 0 -j 1 --out "$d" 2> "$d.err"
            echo "rc=$?"
            echo "made=$(ls "$d" | grep -c thumb)"
            echo "temp=$(ls -A "$d" | grep -c fz-)"
            cat "$d.err"
            """)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "rc=1", "\(out)")
        #expect(lines.contains("temp=0"), "a temporary file was left: \(out)")
        let errors = lines.filter { $0.hasPrefix("forcezoom: error:") }
        #expect(errors.count >= 1 && errors.count <= 3, "the batch went on failing input after input: \(out)")
        let summary = lines.last ?? ""
        #expect(summary.contains("stopped: ") && summary.contains("no space left on device"), "\(out)")
        #expect(summary.contains("not done") && summary.contains("; the first not done: "), "\(out)")
    }
}
