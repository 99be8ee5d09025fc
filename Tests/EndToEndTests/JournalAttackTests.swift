import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Issue 40, reproducers 1-3 and two smaller fixes, on the built binary: a journal that is
/// an input or an output is refused before anything is written; `--resume` reads a journal
/// of any size in bounded memory; `--shard auto` refuses engine variables out of range in
/// one line; `--journal -` is a usage error; a temporary a killed run left is removed.
@Suite(.serialized)
struct JournalAttackTests {
    /// a.jpg, b.webp and list.txt (naming both) in a fresh folder.
    static func batch() -> String {
        let dir = CLI.scratch()
        #expect(CLI.run(["fixture", "noise", "--size", "40x30", "--seed", "1", "-o", "a.jpg"], in: dir).status == 0)
        #expect(CLI.run(["fixture", "noise", "--size", "30x40", "--seed", "2", "-o", "b.webp"], in: dir).status == 0)
        CLI.write(FileSystem.join(dir, "list.txt"), Array("a.jpg\nb.webp\n".utf8))
        return dir
    }

    /// Relative path -> bytes of every file below `root` (links as their targets' bytes).
    static func snapshot(_ root: String) -> [String: [UInt8]] {
        ShardCLITests.tree(root)
    }

    /// A script that runs forcezoom under `ulimit -v` with extra environment variables,
    /// for `CLI.measure` (it execs, so the signal and memory measured are forcezoom's).
    static func wrapper(env: [String: String] = [:], ulimitKiB: Int? = nil) -> String {
        let path = FileSystem.join(CLI.scratch(), "fz.sh")
        let vars = env.map { "\($0.key)=\(CLI.quote($0.value))" }.sorted().joined(separator: " ")
        let limit = ulimitKiB.map { "ulimit -v \($0)\n" } ?? ""
        let text = "#!/bin/sh\n\(limit)exec env -i PATH=/usr/bin:/bin \(vars) \(CLI.quote(CLI.binary)) \"$@\"\n"
        CLI.write(path, Array(text.utf8))
        chmod(path, 0o755)
        return path
    }

    static func oneLine(_ text: String) -> Bool { text.split(separator: "\n").count == 1 && text.hasSuffix("\n") }

    @Test(arguments: [
        (["a.jpg", "b.webp"], "a.jpg"), (["a.jpg", "b.webp"], "b.webp"), (["--from", "list.txt"], "list.txt"),
        (["a.jpg", "b.webp"], "link-to-a"), (["a.jpg"], "./a.jpg"),
    ])
    func aJournalThatIsAnInputIsRefusedAndNothingIsAppended(inputs: [String], journal: String) throws {
        let dir = Self.batch()
        #expect(symlink("a.jpg", FileSystem.join(dir, "link-to-a")) == 0)
        let before = Self.snapshot(dir)
        let r = CLI.measure(["thumb"] + inputs + ["--journal", journal, "--out", "t"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.signal == nil)
        #expect(Self.oneLine(r.stderr), "\(r.stderr)")
        #expect(r.stderr.contains("--journal"), "\(r.stderr)")
        #expect(Self.snapshot(dir) == before, "an input changed, or something was written")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "t")) == .missing)
    }

    /// `--from -` with standard input redirected from the journal's own file: the list
    /// being read would be appended to.
    @Test func aJournalThatIsTheListOnStandardInputIsRefused() throws {
        let dir = Self.batch()
        let before = Self.snapshot(dir)
        let command = "cd \(CLI.quote(dir)) && \(CLI.quote(CLI.binary)) thumb --from - --journal list.txt --out t"
        let err = FileSystem.join(CLI.scratch(), "err")
        let status = CLI.shell("\(command) < list.txt 2> \(CLI.quote(err))")
        let stderr = CLI.read(err)
        #expect(status == 2, "\(stderr)")
        #expect(Self.oneLine(stderr), "\(stderr)")
        #expect(stderr.contains("--journal list.txt: is the input list <stdin>"), "\(stderr)")
        #expect(Self.snapshot(dir) == before, "the list was appended to")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "t")) == .missing)
    }

    @Test(arguments: [true, false])
    func aJournalThatIsAnOutputIsRefusedBeforeAByteIsWritten(outputExists: Bool) throws {
        let dir = Self.batch()
        if outputExists { #expect(CLI.run(["thumb", "a.jpg", "--out", "t", "-q"], in: dir).status == 0) }
        #expect(FileSystem.kind(of: FileSystem.join(dir, "t/a.thumb.png")) == (outputExists ? .regular : .missing))
        _ = CLI.shell("mkdir -p \(CLI.quote(FileSystem.join(dir, "t")))")
        let before = Self.snapshot(dir)
        for journal in ["t/a.thumb.png", "./t/./a.thumb.png"] {
            let r = CLI.measure(["thumb", "a.jpg", "--out", "t", "--journal", journal], in: dir)
            #expect(r.exitCode == 2, "\(r)")
            #expect(r.signal == nil)
            #expect(Self.oneLine(r.stderr), "\(r.stderr)")
            #expect(r.stderr.contains("the output of a.jpg"), "\(r.stderr)")
            #expect(Self.snapshot(dir) == before, "the output was appended to or created")
        }
    }

    @Test func aJournalOfItsOwnStillWorks() throws {
        let dir = Self.batch()
        let r = CLI.run(["thumb", "a.jpg", "b.webp", "--out", "t", "--journal", "t/j.jsonl", "-q"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.read(FileSystem.join(dir, "t/j.jsonl")).split(separator: "\n").count == 2)
    }

    @Test func journalDashIsAUsageErrorAndNoFileNamedDashIsMade() throws {
        let dir = Self.batch()
        for extra in [[], ["--resume"]] {
            let r = CLI.measure(["thumb", "a.jpg", "--out", "t", "--journal", "-"] + extra, in: dir)
            #expect(r.exitCode == 2, "\(r)")
            #expect(Self.oneLine(r.stderr), "\(r.stderr)")
            #expect(r.stderr.contains("--journal -"), "\(r.stderr)")
            #expect(FileSystem.kind(of: FileSystem.join(dir, "-")) == .missing)
            #expect(FileSystem.kind(of: FileSystem.join(dir, "t")) == .missing)
        }
    }
}
