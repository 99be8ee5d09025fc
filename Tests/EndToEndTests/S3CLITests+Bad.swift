import FZSystem
import TestSupport
import Testing

/// The bad answers a store gives (issue 52): each one line naming the s3:// URL, the exit code
/// a scheduler can act on (1: not worth a retry; 75: worth one), in bounded time, and no
/// secret, partial object or staged file left anywhere.
extension S3CLITests {
    /// A wrong secret: exit 1, one line naming the URL, and the secret in no message, record
    /// or journal.
    @Test(.enabled(if: ready, why))
    func aWrongSecretIsOneLineAndNeverShown() throws {
        try Self.put("e2e-secret", ["in/a.jpg"])
        let secret = "WrongSecretForTheTest0123456789abcdefXYZ"
        let crop = Self.run(["crop", "s3://e2e-secret/in/a.jpg", "--at", "10,10", "-o", "/dev/null"], secret: secret)
        #expect(crop.status == 1 && crop.lines.count == 1, "\(crop.stderr)")
        #expect(crop.stderr.contains("s3://e2e-secret/in/a.jpg") && crop.stderr.contains("SignatureDoesNotMatch"))
        let dir = CLI.scratch()
        let journal = FileSystem.join(dir, "j.jsonl")
        let thumb = Self.run(
            [
                "thumb", "s3://e2e-secret/in/a.jpg", "s3://e2e-secret/in/", "--out", FileSystem.join(dir, "t"),
                "--journal", journal, "--json",
            ], secret: secret)
        #expect(thumb.status == 1, "\(thumb.stderr)")
        #expect(thumb.stderr.contains("s3://e2e-secret/in/"), "\(thumb.stderr)")
        for (what, text) in [
            ("crop stderr", crop.stderr), ("stderr", thumb.stderr), ("stdout", thumb.stdout),
            ("journal", CLI.read(journal)),
        ] {
            #expect(!text.contains(secret) && !text.contains(String(secret.prefix(12))), "the secret is in \(what)")
            #expect(!text.contains(Self.moto!.secret), "the server's secret is in \(what)")
        }
        #expect(!CLI.read(journal).isEmpty && JSONValue.objects(thumb.stdout).count >= 1, "\(thumb.stdout)")
    }

    /// A bucket that is not there and a key that is not there: exit 1, one line naming each.
    @Test(.enabled(if: ready, why), arguments: ["s3://e2e-no-such-bucket/a.jpg", "s3://e2e-missing/no-such-key.jpg"])
    func aMissingBucketOrKeyIsExit1(_ url: String) throws {
        try Self.put("e2e-missing", ["a.jpg"])
        for command in [["info", url], ["crop", url, "--at", "10,10", "-o", "/dev/null"]] {
            let r = Self.run(command)
            #expect(r.status == 1 && r.lines.count == 1 && r.stderr.contains(url), "\(command): \(r.stderr)")
            #expect(r.stderr.contains("NoSuch"), "\(r.stderr)")
        }
    }

    /// A store that throttles (bucket slowdown: 503 SlowDown to two requests of three) is
    /// retried and the crop is the one from disk; one that is always busy gives up in bounded
    /// time with 75, for info as for crop, with AWS_MAX_ATTEMPTS=1 (info exited 1 before).
    @Test(.enabled(if: ready, why))
    func throttlingIsRetriedThenTemporary() throws {
        try Self.put("slowdown", ["a.jpg"])
        let out = CLI.scratch()
        let args = ["--at", "100,100", "--size", "100", "-o"]
        let r = Self.run(["crop", "s3://slowdown/a.jpg"] + args + [FileSystem.join(out, "s3.png")])
        try #require(r.status == 0, "\(r.stderr)")
        let local = CLI.run(["crop", Self.photo] + args + [FileSystem.join(out, "disk.png")])
        #expect(
            local.status == 0
                && CLI.bytes(FileSystem.join(out, "s3.png")) == CLI.bytes(FileSystem.join(out, "disk.png")))
        for attempts in ["1", "3"] {
            for command in [
                ["info", "s3://always-busy/a.jpg"],
                ["crop", "s3://always-busy/a.jpg", "--at", "10,10", "-o", "/dev/null"],
            ] {
                let clock = Stopwatch()
                let busy = Self.run(command, environment: ["AWS_MAX_ATTEMPTS=\(attempts)"])
                #expect(busy.status == 75, "\(command) AWS_MAX_ATTEMPTS=\(attempts): \(busy.status) \(busy.stderr)")
                #expect(busy.lines.count == 1 && busy.stderr.contains("s3://always-busy/a.jpg"), "\(busy.stderr)")
                #expect(busy.stderr.contains("SlowDown"), "\(busy.stderr)")
                #expect(clock.elapsed < 10, "\(clock.elapsed) s")
            }
        }
    }

    /// A store whose clock is 20 minutes ahead of ours (bucket skewed): SigV4 is refused with
    /// RequestTimeTooSkewed, and the message says our clock is off and by how much.
    @Test(.enabled(if: ready, why))
    func aClockTwentyMinutesOffIsSaid() {
        let r = Self.run(["info", "s3://skewed/a.jpg"])
        #expect(r.status == 1 && r.lines.count == 1 && r.stderr.contains("s3://skewed/a.jpg"), "\(r.stderr)")
        #expect(r.stderr.contains("the clock is 20 minutes behind the store's"), "\(r.stderr)")
    }

    /// An upload cut after 4 KiB (moto_server.py closes the connection on a PUT of a
    /// drop-upload key): retried, then exit 75; nothing under that key, the other thumbnail
    /// uploaded (the batch goes on), and no staged file left behind.
    @Test(.enabled(if: ready, why))
    func aFailedUploadLeavesNoObject() throws {
        try Self.put("e2e-drop", ["in/drop-upload.jpg", "in/ok.jpg"])
        let clock = Stopwatch()
        let r = Self.run(["thumb", "s3://e2e-drop/in/", "--size", "64", "--out", "s3://e2e-drop/t/", "--json"])
        #expect(r.status == 75, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("s3://e2e-drop/t/drop-upload.thumb.png"), "\(r.stderr)")
        #expect(clock.elapsed < 20, "\(clock.elapsed) s")
        let failed = JSONValue.objects(r.stdout).first { Self.text($0, "status") == "failed" }
        #expect(failed.flatMap { Self.text($0, "input") } == "s3://e2e-drop/in/drop-upload.jpg", "\(r.stdout)")
        // As for a file: a failed record names no output, since none was written.
        #expect(failed?["output"] == .null, "\(r.stdout)")
        let objects = try Self.list("e2e-drop")
        #expect(objects.map(\.key) == ["in/drop-upload.jpg", "in/ok.jpg", "t/ok.thumb.png"], "\(objects)")
        #expect(Self.empty(r.tmp), "staging left in \(r.tmp)")
    }

    /// A listing that never ends (bucket endless-same repeats its continuation token): a
    /// bounded error naming the prefix, exit 1, in seconds.
    @Test(.enabled(if: ready, why))
    func anEndlessListingEnds() {
        let clock = Stopwatch()
        let r = Self.run(["thumb", "s3://endless-same/", "--out", FileSystem.join(CLI.scratch(), "t")])
        #expect(r.status == 1 && r.stderr.contains("s3://endless-same/"), "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("continuation token"), "\(r.stderr)")
        #expect(clock.elapsed < 10, "\(clock.elapsed) s")
    }

    /// A listing that never ends and never repeats itself (bucket endless-growing: one new key
    /// and a new token a page): refused after 1,000 sparse pages, exit 1, naming the prefix.
    /// Its 60 s bound is for a busy machine; it takes a few seconds.
    @Test(.enabled(if: ready, why))
    func aListingThatGrowsForeverEnds() {
        let clock = Stopwatch()
        let r = Self.run(["thumb", "s3://endless-growing/", "--out", FileSystem.join(CLI.scratch(), "t")])
        #expect(r.status == 1 && r.stderr.contains("s3://endless-growing/"), "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("in 1000 pages") && r.stderr.contains("paginates forever"), "\(r.stderr)")
        #expect(clock.elapsed < 60, "\(clock.elapsed) s")
    }

    /// When the plan refuses an output of a bucket (two keys, one name), the message names
    /// the output's s3:// URL, not the local staging path standing for it (it did before).
    @Test(.enabled(if: ready, why))
    func aRefusedOutputIsNamedByItsURL() throws {
        try Self.put("e2e-plan", ["in/a.jpg", "in/sub/a.jpg"])
        let r = Self.run(["thumb", "s3://e2e-plan/in/", "-r", "--out", "s3://e2e-plan/t/", "--name", "%s.jpg"])
        #expect(r.status == 2 && r.stderr.contains("s3://e2e-plan/t/a.jpg"), "\(r.stderr)")
        #expect(!r.stderr.contains(r.tmp) && !r.stderr.contains("forcezoom-bucket"), "\(r.stderr)")
        #expect(try Self.list("e2e-plan", "t/").isEmpty)
    }
}
