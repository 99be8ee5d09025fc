import TestSupport
import Testing

@testable import FZThumbnails

#if canImport(Glibc)
import Glibc
#endif

/// `--journal` lines round-trip, a torn last line is passed over, `--resume` trusts only
/// an output with the recorded size and hash.
struct JournalTests {
    static func record(_ input: String, _ status: JournalRecord.Status = .ok, bytes: Int64? = 3, sha: String? = "ab")
        -> JournalRecord
    {
        JournalRecord(input: input, output: "out/" + input, status: status, bytes: bytes, sha256: sha, shard: "2/8")
    }

    @Test func recordsRoundTripThroughTheirLine() {
        let odd = JournalRecord(
            input: "a \"quoted\"\\path\n\u{1}é\u{10FEFF}.jpg", output: "o.png", status: .failed, bytes: nil,
            sha256: nil, shard: "1/1",
            error: "file is truncated")
        for r in [Self.record("x.jpg"), odd] {
            let line = r.json.description
            #expect(!line.contains("\n"))
            #expect(JournalRecord(line: line) == r)
        }
        #expect(JournalRecord(line: "") == nil)
        #expect(JournalRecord(line: #"{"input":"a","output":"b","status":"ok","bytes":3,"sha256":"ab","sh"#) == nil)
        #expect(
            JournalRecord(line: #"{"input":"a","output":"b","status":"ok","shard":"1/1"}"#) == nil, "ok without a hash")
    }

    @Test func theLastWholeRecordOfEachInputCountsAndATornLineIsIgnored() throws {
        let dir = TestSupport.scratch()
        let path = dir + "/j.jsonl"
        let j = try Journal.open(appendingTo: path)
        j.append(Self.record("a", .failed, bytes: nil, sha: nil))
        j.append(Self.record("a"))
        j.append(Self.record("b"))
        j.sync()
        #expect(j.failure == nil)
        // Killed mid-write: half a line, no newline.
        let torn = Array(Self.record("c").json.description.utf8.prefix(30))
        let f = fopen(path, "ab")!
        _ = torn.withUnsafeBytes { fwrite($0.baseAddress, 1, torn.count, f) }
        fclose(f)
        var read = try Journal.read(path)
        #expect(read.keys.sorted() == ["a", "b"])
        #expect(read["a"]?.status == .ok)
        // Appending again starts a fresh line: the torn one spoils only itself.
        let again = try Journal.open(appendingTo: path)
        again.append(Self.record("c"))
        again.sync()
        read = try Journal.read(path)
        #expect(read.keys.sorted() == ["a", "b", "c"])
    }

    @Test func aFileThatIsNoJournalIsRefusedAndAMissingOneIsEmpty() throws {
        let dir = TestSupport.scratch()
        #expect(try Journal.read(dir + "/none.jsonl").isEmpty)
        let f = fopen(dir + "/notes.txt", "w")!
        fputs("one\ntwo\n", f)
        fclose(f)
        #expect(throws: ShardError.self) { try Journal.read(dir + "/notes.txt") }
        #expect(throws: ShardError.self) { try Journal.open(appendingTo: dir) }
        #expect(throws: ShardError.self) { try Journal.open(appendingTo: dir + "/missing/j.jsonl") }
    }

    @Test func percentKIsTheShardIndex() throws {
        #expect(
            Journal.path(pattern: "logs/thumbs-%k.jsonl", shard: try Shard(index: 12, count: 64))
                == "logs/thumbs-12.jsonl")
        #expect(Journal.path(pattern: "j.jsonl", shard: .whole) == "j.jsonl")
    }

    @Test func resumeTrustsOnlyTheRecordedSizeAndHash() throws {
        let dir = TestSupport.scratch()
        let out = dir + "/t.png"
        let f = fopen(out, "w")!
        fputs("abc", f)
        fclose(f)
        let d = try #require(Journal.digest(of: out))
        #expect(d.bytes == 3)
        #expect(d.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let ok = JournalRecord(input: "i", output: out, status: .ok, bytes: 3, sha256: d.sha256, shard: "1/1")
        #expect(Journal.stillDone(ok, output: out))
        #expect(!Journal.stillDone(ok, output: dir + "/other.png"), "another output name: redo")
        #expect(!Journal.stillDone(nil, output: out))
        let failed = JournalRecord(input: "i", output: out, status: .failed, bytes: nil, sha256: nil, shard: "1/1")
        #expect(!Journal.stillDone(failed, output: out))
        // Same size, other bytes: redone.
        let g = fopen(out, "w")!
        fputs("abd", g)
        fclose(g)
        #expect(!Journal.stillDone(ok, output: out))
        unlink(out)
        #expect(!Journal.stillDone(ok, output: out))
    }
}
