import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

extension JournalAttackTests {
    /// A journal whose one record says a.jpg is done, then one line of `megabytes` MiB
    /// without a newline, then `repeats` more copies of the record (the same input).
    static func hugeJournal(in dir: String, megabytes: Int, repeats: Int) -> String {
        let journal = FileSystem.join(dir, "j.jsonl")
        #expect(CLI.run(["thumb", "a.jpg", "--out", "t", "--journal", "j.jsonl", "-q"], in: dir).status == 0)
        let record = CLI.read(journal)
        #expect(record.split(separator: "\n").count == 1)
        let script =
            "cd \(CLI.quote(dir)) && head -c \(megabytes << 20) /dev/zero | tr '\\0' 'x' >> j.jsonl && echo >> j.jsonl"
            + " && yes \(CLI.quote(String(record.dropLast()))) | head -n \(repeats) >> j.jsonl"
        #expect(CLI.shell(script) == 0)
        return journal
    }

    /// Reproducer 2: one line of 320 MiB and 50,000 records of one input, read by
    /// `--resume` under `ulimit -v 800000`: no abort, memory bounded by the distinct inputs
    /// (not the file), a.jpg still found done. (Under the sanitizers without the ulimit,
    /// which ASan's reserved address space cannot run under, and with a wider bound.)
    @Test func resumeReadsAHugeJournalInBoundedMemory() throws {
        let dir = Self.batch()
        let journal = Self.hugeJournal(in: dir, megabytes: 320, repeats: 50_000)
        let before = CLI.bytes(FileSystem.join(dir, "t/a.thumb.png"))
        let size = FileSystem.status(journal).map { Int($0.st_size) } ?? 0
        #expect(size > 320 << 20)
        let r = CLI.measure(
            ["thumb", "a.jpg", "--out", "t", "--journal", "j.jsonl", "--resume", "--json"], in: dir,
            binary: Self.wrapper(ulimitKiB: CLI.sanitized ? nil : 800_000))
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.signal == nil)
        #expect(r.maxRSSKiB < CLI.rssBoundKiB(200), "\(r)")
        #expect(r.stdout.contains("\"skipped\":true"), "\(r.stdout)")
        #expect(CLI.bytes(FileSystem.join(dir, "t/a.thumb.png")) == before)
        #expect(FileSystem.status(journal).map { Int($0.st_size) } == size, "a skip appends nothing")
    }

    /// Reproducer 3: engine variables out of range, or not numbers, or of any length: exit 2,
    /// one line naming the variable, the value cut to 100 characters; never a trap.
    @Test(arguments: [
        (
            ["AWS_BATCH_JOB_ARRAY_INDEX": "9223372036854775807", "AWS_BATCH_JOB_ARRAY_SIZE": "2"], "auto",
            "AWS_BATCH_JOB_ARRAY_INDEX"
        ),
        (["BATCH_TASK_INDEX": "9223372036854775807", "BATCH_TASK_COUNT": "2"], "auto", "BATCH_TASK_INDEX"),
        (["JOB_COMPLETION_INDEX": "9223372036854775807"], "auto/4", "JOB_COMPLETION_INDEX"),
        (["SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_COUNT": "2"], "auto", "SLURM_ARRAY_TASK_ID"),
        (
            [
                "SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808",
                "SLURM_ARRAY_TASK_COUNT": "2",
            ], "auto", "SLURM_ARRAY_TASK_ID"
        ),
        (
            ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "9223372036854775807"], "auto",
            "SLURM_ARRAY_TASK_COUNT"
        ),
        (
            ["AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "99999999999999999999"], "auto",
            "AWS_BATCH_JOB_ARRAY_SIZE"
        ),
        (
            ["BATCH_TASK_INDEX": String(repeating: "9", count: 5000), "BATCH_TASK_COUNT": "2"], "auto",
            "BATCH_TASK_INDEX"
        ),
        (["JOB_COMPLETION_INDEX": "-1"], "auto/4", "JOB_COMPLETION_INDEX"),
    ])
    func shardAutoRefusesEngineVariablesOutOfRange(env: [String: String], shard: String, named: String) throws {
        let dir = Self.batch()
        let before = Self.snapshot(dir)
        let r = CLI.measure(
            ["thumb", ".", "--out", "t", "--shard", shard, "--dry-run"], in: dir, binary: Self.wrapper(env: env))
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.signal == nil)
        #expect(Self.oneLine(r.stderr), "\(r.stderr)")
        #expect(r.stderr.contains(named), "\(r.stderr)")
        #expect(r.stderr.utf8.count < 300, "the value is cut: \(r.stderr.utf8.count) bytes")
        #expect(r.stdout.isEmpty)
        #expect(Self.snapshot(dir) == before)
    }

    /// A temporary a SIGKILLed run left beside an output (`.NAME.fz-XXXXXX`, untouched for
    /// hours) is removed by the next run writing that output; a fresh one (a write that may
    /// be in progress) and another output's are left.
    @Test func aStaleTemporaryOfTheOutputIsRemovedByTheNextRun() throws {
        let dir = Self.batch()
        #expect(CLI.shell("mkdir \(CLI.quote(FileSystem.join(dir, "t")))") == 0)
        let stale = "t/.a.thumb.png.fz-Ab12Cd"
        let fresh = "t/.a.thumb.png.fz-Ef34Gh"
        let other = "t/.z.thumb.png.fz-Ij56Kl"
        let notOurs = "t/.a.thumb.png.fz-toolong1"
        for name in [stale, fresh, other, notOurs] { CLI.write(FileSystem.join(dir, name), Array("half".utf8)) }
        let old = [stale, other, notOurs].map(CLI.quote).joined(separator: " ")
        #expect(CLI.shell("cd \(CLI.quote(dir)) && touch -d '3 hours ago' \(old)") == 0)
        let r = CLI.run(["thumb", "a.jpg", "--out", "t", "-q"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, stale)) == .missing, "the stale temporary is gone")
        for kept in [fresh, other, notOurs] { #expect(FileSystem.kind(of: FileSystem.join(dir, kept)) == .regular) }
        #expect(FileSystem.kind(of: FileSystem.join(dir, "t/a.thumb.png")) == .regular)
    }

    /// `--resume` skips an output as done: a temporary a later, killed run left for it goes.
    @Test func resumeRemovesTheStaleTemporaryOfASkippedOutput() throws {
        let dir = Self.batch()
        let first = CLI.run(["thumb", "a.jpg", "--out", "t", "--journal", "j.jsonl", "-q"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let stale = "t/.a.thumb.png.fz-Mn78Op"
        CLI.write(FileSystem.join(dir, stale), Array("half".utf8))
        #expect(CLI.shell("cd \(CLI.quote(dir)) && touch -d '3 hours ago' \(CLI.quote(stale))") == 0)
        let r = CLI.run(["thumb", "a.jpg", "--out", "t", "--journal", "j.jsonl", "--resume", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"skipped\":true"), "the output was skipped as done: \(r.stdout)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, stale)) == .missing, "the stale temporary is gone")
    }
}
