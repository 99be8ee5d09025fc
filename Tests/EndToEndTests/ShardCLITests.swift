import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `thumb --shard`, `--dry-run`, `--journal`, `--resume` on the built binary: shards are
/// disjoint and together byte-identical to one run, `--shard auto` reads each engine's
/// variables (the README's recipe arguments), a task stopped mid-way resumes.
@Suite(.serialized)
struct ShardCLITests {
    /// The forcezoom arguments of the README's recipes (Slurm, Kubernetes, AWS Batch, GNU
    /// parallel), with the shard and paths left to the caller.
    static func recipe(out: String, shard: String, journal: String) -> [String] {
        [
            "thumb", "photos", "--recursive", "--size", "256", "--out", out, "--name", "%d/%s.jpg",
            "--shard", shard, "--journal", journal, "--resume", "--jobs", "1", "-q",
        ]
    }

    /// photos/<year>/<nn>/IMG_i.png|jpg: `count` small fixtures in a tree.
    /// `large`: zone plates of 1000x700 instead, slow enough to stop a batch half-way.
    static func library(_ count: Int, large: Bool = false) -> String {
        let dir = CLI.scratch()
        var script = "cd \(CLI.quote(dir)) && "
        for i in 1...count {
            let folder = "photos/\(2020 + i % 3)/\(i % 4)"
            let kind =
                large
                ? "zoneplate --size 1000x\(700 + i) -o \(folder)/IMG_\(i).png"
                : i % 2 == 0
                    ? "noise --seed \(i) --size \(40 + i)x\(30 + i % 7) -o \(folder)/IMG_\(i).png"
                    : "orientation --size 90x\(60 + i) --exif-orientation \(i % 8 + 1) -o \(folder)/IMG_\(i).jpg"
            script += "mkdir -p \(folder) && \(CLI.quote(CLI.binary)) fixture \(kind) && "
        }
        #expect(CLI.shell(script + "true") == 0)
        return dir
    }

    /// Runs the binary with extra environment variables (`env -i` keeps only PATH, so the
    /// test's own environment cannot leak an engine in).
    static func run(_ arguments: [String], in directory: String, env: [String: String]) -> CLIResult {
        let vars = env.map { "\($0.key)=\($0.value)" }.sorted()
        let out = FileSystem.join(CLI.scratch(), "o")
        let err = FileSystem.join(CLI.scratch(), "e")
        let command =
            "cd \(CLI.quote(directory)) && env -i PATH=/usr/bin:/bin "
            + (vars + [CLI.binary] + arguments).map(CLI.quote).joined(separator: " ")
            + " > \(CLI.quote(out)) 2> \(CLI.quote(err)) < /dev/null"
        let status = CLI.shell(command)
        return CLIResult(status: status, stdout: CLI.read(out), stderr: CLI.read(err))
    }

    /// Relative path -> bytes of every regular file below `root`.
    static func tree(_ root: String) -> [String: [UInt8]] {
        let list = FileSystem.join(CLI.scratch(), "list")
        _ = CLI.shell("cd \(CLI.quote(root)) && find . -type f | sort > \(CLI.quote(list))")
        var files: [String: [UInt8]] = [:]
        for path in CLI.read(list).split(separator: "\n") {
            files[String(path)] = CLI.bytes(FileSystem.join(root, String(path)))
        }
        return files
    }

    static func journal(_ path: String) -> [[String: JSONValue]] {
        CLI.read(path).split(separator: "\n").compactMap { JSONValue.object($0) }
    }

    @Test func shardsAreDisjointAndTogetherByteIdenticalToOneRun() throws {
        let dir = Self.library(60)
        let one = CLI.run(
            ["thumb", "photos", "-r", "--size", "256", "--out", "one", "--name", "%d/%s.jpg", "-q"], in: dir)
        #expect(one.status == 0, "\(one.stderr)")
        let reference = Self.tree(FileSystem.join(dir, "one"))
        #expect(reference.count == 60)
        var inputs: [String: String] = [:]  // input -> shard
        for k in 1...4 {
            let r = CLI.run(Self.recipe(out: "split", shard: "\(k)/4", journal: "j-%k.jsonl"), in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            for record in Self.journal(FileSystem.join(dir, "j-\(k).jsonl")) {
                guard case .string(let input)? = record["input"] else { continue }
                #expect(inputs[input] == nil, "\(input) in two shards")
                inputs[input] = "\(k)"
                #expect(record["shard"] == .string("\(k)/4"))
                #expect(record["status"] == .string("ok"))
            }
        }
        #expect(inputs.count == 60)
        #expect(Self.tree(FileSystem.join(dir, "split")) == reference)
    }

    @Test func addingFilesMovesNoneToAnotherShard() throws {
        let dir = Self.library(40)
        func shards() -> [String: Int] {
            var of: [String: Int] = [:]
            for k in 1...5 {
                let r = CLI.run(
                    ["thumb", "photos", "-r", "--name", "%d/%s.png", "--shard", "\(k)/5", "--dry-run", "--json", "-q"],
                    in: dir)
                #expect(r.status == 0, "\(r.stderr)")
                for line in r.stdout.split(separator: "\n") {
                    if case .string(let input)? = JSONValue.object(line)?["input"] { of[input] = k }
                }
            }
            return of
        }
        let before = shards()
        #expect(before.count == 40)
        #expect(
            CLI.shell(
                "cd \(CLI.quote(dir)) && cp -r photos/2020 photos/2030 && mkdir photos/new && cp photos/2021/1/* photos/new/"
            ) == 0)
        let after = shards()
        #expect(after.count > 50)
        for (input, k) in before { #expect(after[input] == k, "\(input) moved") }
    }

    @Test func dryRunWritesAndCreatesNothing() throws {
        let dir = Self.library(12)
        let r = CLI.run(
            [
                "thumb", "photos", "-r", "--out", "nowhere/thumbs", "--shard", "2/3", "--journal", "j.jsonl",
                "--dry-run",
            ], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(!lines.isEmpty && lines.count < 12)
        // -r mirrors the tree by default (%d/%s.thumb.png).
        #expect(
            lines.allSatisfy { $0.hasPrefix("photos/") && $0.contains(" -> nowhere/thumbs/") && $0.contains("/IMG_") })
        #expect(
            r.stderr.hasPrefix("forcezoom: shard 2/3: dry run: \(lines.count) of \(lines.count) inputs to do"),
            "\(r.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "nowhere")) == .missing)
        #expect(FileSystem.kind(of: FileSystem.join(dir, "j.jsonl")) == .missing)
        let j = CLI.run(["thumb", "photos", "-r", "--shard", "2/3", "--dry-run", "--json", "-q"], in: dir)
        let objects = j.stdout.split(separator: "\n").compactMap { JSONValue.object($0) }
        #expect(objects.count == lines.count && j.stderr.isEmpty)
        #expect(objects.allSatisfy { $0["input"] != nil && $0["output"] != nil && $0["shard"] == .string("2/3") })
    }

    /// The README recipes' arguments under each engine's variables: four tasks together
    /// make exactly the outputs of one run.
    @Test(arguments: [
        ("slurm", "auto"), ("slurm-by-id", "auto/4"), ("aws", "auto"), ("google", "auto"), ("kubernetes", "auto/4"),
    ])
    func shardAutoReadsEachEngine(engine: String, shard: String) throws {
        let dir = Self.library(24)
        _ = CLI.run(["thumb", "photos", "-r", "--size", "256", "--out", "one", "--name", "%d/%s.jpg", "-q"], in: dir)
        for k in 1...4 {
            let env: [String: String]
            switch engine {
            case "slurm":  // --array=10-16:2
                env = [
                    "SLURM_ARRAY_TASK_ID": "\(10 + 2 * (k - 1))", "SLURM_ARRAY_TASK_MIN": "10",
                    "SLURM_ARRAY_TASK_STEP": "2",
                    "SLURM_ARRAY_TASK_COUNT": "4",
                ]
            case "slurm-by-id":
                env = ["SLURM_ARRAY_TASK_ID": "\(k)", "SLURM_ARRAY_TASK_MIN": "\(k)", "SLURM_ARRAY_TASK_COUNT": "1"]
            case "aws": env = ["AWS_BATCH_JOB_ARRAY_INDEX": "\(k - 1)", "AWS_BATCH_JOB_ARRAY_SIZE": "4"]
            case "google": env = ["BATCH_TASK_INDEX": "\(k - 1)", "BATCH_TASK_COUNT": "4"]
            default: env = ["JOB_COMPLETION_INDEX": "\(k - 1)"]
            }
            var arguments = Self.recipe(out: "split", shard: shard, journal: "j-%k.jsonl")
            arguments.removeLast()  // -q: the summary names the shard
            let r = Self.run(arguments + ["--json"], in: dir, env: env)
            #expect(r.status == 0, "\(engine) \(k): \(r.stderr)")
            #expect(r.stderr.hasPrefix("forcezoom: shard \(k)/4 ("), "\(r.stderr)")
            for line in r.stdout.split(separator: "\n") {
                #expect(JSONValue.object(line)?["shard"] == .string("\(k)/4"))
            }
            #expect(FileSystem.kind(of: FileSystem.join(dir, "j-\(k).jsonl")) == .regular)
        }
        #expect(Self.tree(FileSystem.join(dir, "split")) == Self.tree(FileSystem.join(dir, "one")), "\(engine)")
    }

    @Test func noEngineIsExitTwoWithOneLineNamingTheVariables() {
        let dir = Self.library(2)
        let r = Self.run(["thumb", "photos", "-r", "--shard", "auto"], in: dir, env: [:])
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        for v in ["SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX", "BATCH_TASK_INDEX", "JOB_COMPLETION_INDEX"] {
            #expect(r.stderr.contains(v))
        }
        #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs")) == .missing)
        let k8s = Self.run(["thumb", "photos", "--shard", "auto"], in: dir, env: ["JOB_COMPLETION_INDEX": "0"])
        #expect(k8s.status == 2 && k8s.stderr.contains("--shard auto/N"), "\(k8s.stderr)")
        let bad = CLI.run(["thumb", "photos", "--shard", "0/4"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("0/4"), "\(bad.stderr)")
        let resume = CLI.run(["thumb", "photos", "--resume"], in: dir)
        #expect(resume.status == 2 && resume.stderr.contains("--journal"), "\(resume.stderr)")
    }

    /// A task stopped mid-way (SIGTERM, as scancel sends) and run again with --resume: every
    /// input once as ok in the journal, the outputs those of one run.
    @Test func anInterruptedTaskResumesWithEveryInputOnce() throws {
        let dir = Self.library(30, large: true)
        _ = CLI.run(["thumb", "photos", "-r", "--size", "256", "--out", "one", "--name", "%d/%s.jpg", "-q"], in: dir)
        // A list that ends with a FIFO nobody writes would hang; instead, SIGTERM after the
        // first journal lines, with one job so the rest is still to do.
        let args = Self.recipe(out: "split", shard: "1/1", journal: "j.jsonl").dropLast().map(CLI.quote).joined(
            separator: " ")
        let script = """
            cd \(CLI.quote(dir)) || exit 1; \(CLI.quote(CLI.binary)) \(args) 2> first.err & pid=$!; \
            for i in $(seq 2000); do [ -s j.jsonl ] && [ $(wc -l < j.jsonl) -ge 3 ] && break; sleep 0.005; done; \
            kill -TERM $pid; wait $pid; echo $? > status
            """
        _ = CLI.shell(script)
        let first = Self.journal(FileSystem.join(dir, "j.jsonl"))
        #expect(CLI.read(FileSystem.join(dir, "status")) == "143\n", "ended by SIGTERM")
        #expect(first.count >= 3 && first.count < 30, "stopped mid-way: \(first.count) of 30")
        #expect(CLI.read(FileSystem.join(dir, "first.err")).contains("interrupted: "))
        // A torn last line, as a kill during the write would leave.
        #expect(CLI.shell("printf '{\"input\":\"photos/20' >> \(CLI.quote(FileSystem.join(dir, "j.jsonl")))") == 0)
        var again = Self.recipe(out: "split", shard: "1/1", journal: "j.jsonl")
        again.removeLast()
        let r = CLI.run(again, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix(
                "forcezoom: shard 1/1: \(30 - first.count) thumbnails, \(first.count) already done, 0 failed"),
            "\(r.stderr)"
        )
        let records = Self.journal(FileSystem.join(dir, "j.jsonl"))
        var seen = Set<String>()
        for record in records {
            guard case .string(let input)? = record["input"] else { continue }
            #expect(seen.insert(input).inserted, "\(input) twice")
            #expect(record["status"] == .string("ok"))
        }
        #expect(seen.count == 30)
        #expect(Self.tree(FileSystem.join(dir, "split")) == Self.tree(FileSystem.join(dir, "one")))
        // A replaced output is redone, the rest skipped.
        let victim = try #require(
            records.first.flatMap { r -> String? in
                if case .string(let o)? = r["output"] { return o } else { return nil }
            })
        CLI.write(FileSystem.join(dir, victim), Array("not the thumbnail".utf8))
        let third = CLI.run(again, in: dir)
        #expect(
            third.stderr.hasPrefix("forcezoom: shard 1/1: 1 thumbnail, 29 already done, 0 failed"), "\(third.stderr)")
        #expect(Self.tree(FileSystem.join(dir, "split")) == Self.tree(FileSystem.join(dir, "one")))
    }
}
