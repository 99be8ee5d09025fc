import FZSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// s3:// inputs and outputs through the binary (issue 52) against moto on 127.0.0.1 with
/// SigV4 checked (TestSupport's LocalMoto, Tools/s3/moto_server.py), one server for the suite,
/// the tests one at a time. The objects are put, listed back and read as images by boto3 and
/// Pillow (Tools/s3/objects.py), an independent client. S3CLITests+Bad.swift holds the bad
/// answers. Backoffs are 10 ms (FORCEZOOM_S3_BACKOFF) and the photo is 900x1600, so the suite
/// adds about 17 s alone (measured), most of it Python starting boto3.
@Suite(.serialized)
struct S3CLITests {
    static let moto = LocalMoto.shared
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")
    static let ready =
        moto != nil && FileSystem.kind(of: photo) == .regular
        && CLI.shell("\(CLI.python) -c 'import boto3, PIL' 2>/dev/null") == 0
    static let why: Comment = "needs moto[server], boto3 and Pillow for /usr/bin/python3 (make deps)"

    /// What a run did, and the private TMPDIR it staged its uploads in.
    struct Run {
        let result: CLIResult
        let tmp: String
        var status: Int32 { result.status }
        var stdout: String { result.stdout }
        var stderr: String { result.stderr }
        var lines: [Substring] { result.stderr.split(separator: "\n") }
    }

    /// forcezoom with the server's keys (or `secret`), 10 ms backoffs and its own TMPDIR; its
    /// JSON checked against docs/json as every end-to-end run's is.
    static func run(_ arguments: [String], secret: String? = nil, environment: [String] = []) -> Run {
        let dir = CLI.scratch()
        let tmp = FileSystem.join(dir, "tmp")
        _ = CLI.shell("mkdir -p \(CLI.quote(tmp))")
        let out = FileSystem.join(dir, "stdout")
        let err = FileSystem.join(dir, "stderr")
        let env = moto!.environment(secret: secret) + ["FORCEZOOM_S3_BACKOFF=0.01", "TMPDIR=\(tmp)"] + environment
        let command =
            (["env"] + env + [CLI.binary] + arguments).map(CLI.quote).joined(separator: " ")
            + " > \(CLI.quote(out)) 2> \(CLI.quote(err)) < /dev/null"
        let status = CLI.shell(command)
        CLI.checkJSON(arguments, stdout: out)
        return Run(result: CLIResult(status: status, stdout: CLI.read(out), stderr: CLI.read(err)), tmp: tmp)
    }

    /// Puts the photo under each key (the bucket made if missing), with boto3.
    static func put(_ bucket: String, _ keys: [String]) throws {
        try #require(moto!.objects(["put", bucket] + keys.map { "\($0)=\(photo)" }) != nil, "boto3 put failed")
    }

    struct Object: Equatable {
        let key: String
        let size: Int
        /// The larger side of the image Pillow read, nil when it read none.
        let side: Int?
    }

    /// The objects under `prefix`, as boto3 lists them and Pillow reads them.
    static func list(_ bucket: String, _ prefix: String = "") throws -> [Object] {
        let text = try #require(moto!.objects(["list", bucket, prefix]), "boto3 list failed")
        return JSONValue.objects(text).map { o in
            func int(_ k: String) -> Int? { if case .number(let n)? = o[k] { return Int(n) } else { return nil } }
            var key = ""
            if case .string(let s)? = o["key"] { key = s }
            let side = int("width").flatMap { w in int("height").map { max(w, $0) } }
            return Object(key: key, size: int("size") ?? -1, side: side)
        }
    }

    /// Whether a run's TMPDIR is empty (its staging folder removed).
    static func empty(_ folder: String) -> Bool { CLI.shell("[ -z \"$(ls -A \(CLI.quote(folder)))\" ]") == 0 }

    /// A field of a JSON record, when it is a string.
    static func text(_ record: [String: JSONValue], _ key: String) -> String? {
        if case .string(let s)? = record[key] { return s }
        return nil
    }

    /// `crop s3://bucket/key` is the crop of the same file from disk, byte for byte (PNG's
    /// encoder is deterministic), its record naming the s3:// URL; the key has a space.
    @Test(.enabled(if: ready, why))
    func cropOfAnObjectIsTheCropOfTheFile() throws {
        try Self.put("e2e-crop", ["in/a b.jpg"])
        let out = CLI.scratch()
        let args = ["--at", "300,500", "--size", "200", "--json", "-o"]
        let remote = Self.run(["crop", "s3://e2e-crop/in/a b.jpg"] + args + [FileSystem.join(out, "s3.png")])
        try #require(remote.status == 0, "\(remote.stderr)")
        let local = CLI.run(["crop", Self.photo] + args + [FileSystem.join(out, "disk.png")])
        try #require(local.status == 0, "\(local.stderr)")
        let png = CLI.bytes(FileSystem.join(out, "s3.png"))
        #expect(!png.isEmpty && png == CLI.bytes(FileSystem.join(out, "disk.png")))
        let record = try #require(JSONValue.objects(remote.stdout).first)
        #expect(Self.text(record, "input") == "s3://e2e-crop/in/a b.jpg", "\(remote.stdout)")
    }

    /// A prefix to a prefix, keys with a space, `%`, unicode and `..` (a character in a key,
    /// not a step up): every thumbnail under thumbs/, 64 px on its long side as Pillow reads
    /// it; every record names both s3:// URLs; the journal is an object of the bucket. Run
    /// again with --resume, then --skip-existing, the four are said done and nothing is added.
    @Test(.enabled(if: ready, why))
    func aPrefixToAPrefixWithAwkwardKeys() throws {
        let keys = ["in/a b.jpg", "in/100%.jpg", "in/\u{fc}n\u{ef}c\u{f6}de.jpg", "in/x/../y.jpg"]
        try Self.put("e2e-thumb", keys)
        let base = [
            "thumb", "s3://e2e-thumb/in/", "-r", "--size", "64", "--out", "s3://e2e-thumb/thumbs/", "--journal",
            "s3://e2e-thumb/journal-%k.jsonl", "--json",
        ]
        let r = Self.run(base)
        try #require(r.status == 0, "\(r.stderr)")
        let records = JSONValue.objects(r.stdout)
        #expect(records.count == 4, "\(r.stdout)")
        #expect(Set(records.compactMap { Self.text($0, "input") }) == Set(keys.map { "s3://e2e-thumb/\($0)" }))
        #expect(records.allSatisfy { Self.text($0, "output")?.hasPrefix("s3://e2e-thumb/thumbs/") == true })
        let thumbs = try Self.list("e2e-thumb", "thumbs/")
        #expect(thumbs.count == 4 && thumbs.allSatisfy { $0.side == 64 }, "\(thumbs)")
        #expect(Set(thumbs.map { "s3://e2e-thumb/" + $0.key }) == Set(records.compactMap { Self.text($0, "output") }))
        let journal = try Self.list("e2e-thumb", "journal-")
        #expect(journal.count == 1 && journal[0].size > 0, "\(journal)")
        for again in ["--resume", "--skip-existing"] {
            let r2 = Self.run(base + [again])
            #expect(r2.status == 0 && r2.stderr.contains("4 already done"), "\(again): \(r2.stderr)")
            let done = JSONValue.objects(r2.stdout)
            #expect(done.count == 4 && done.allSatisfy { Self.text($0, "status") == "kept" }, "\(r2.stdout)")
            #expect(
                Set(done.compactMap { Self.text($0, "output") }) == Set(records.compactMap { Self.text($0, "output") }))
            #expect(try Self.list("e2e-thumb", "thumbs/").map(\.key) == thumbs.map(\.key))
        }
        #expect(Self.empty(r.tmp), "staging left in \(r.tmp)")
    }

    /// `-o s3://bucket/x.jpg` writes that object and nothing else; the staging folder goes.
    @Test(.enabled(if: ready, why))
    func oneOutputObject() throws {
        try Self.put("e2e-one", ["in/a.jpg"])
        let r = Self.run(["thumb", "s3://e2e-one/in/a.jpg", "--size", "64", "-o", "s3://e2e-one/x.jpg", "--json"])
        try #require(r.status == 0, "\(r.stderr)")
        let objects = try Self.list("e2e-one")
        #expect(objects.map(\.key) == ["in/a.jpg", "x.jpg"] && objects.last?.side == 64, "\(objects)")
        let record = try #require(JSONValue.objects(r.stdout).first)
        #expect(Self.text(record, "output") == "s3://e2e-one/x.jpg", "\(r.stdout)")
        #expect(Self.text(record, "input") == "s3://e2e-one/in/a.jpg", "\(r.stdout)")
        #expect(Self.empty(r.tmp), "staging left in \(r.tmp)")
    }
}
