import TestSupport
import Testing

@testable import FZSystem
@testable import FZThumbnails

#if canImport(Glibc)
import Glibc
#endif

/// Issue 40: the journal's reader is bounded (lines, table, budget), engine variables have
/// ranges, and the plan refuses a journal that is one of the batch's files.
struct JournalBoundsTests {
    static func write(_ path: String, _ text: String) {
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
    }

    @Test func aLineLongerThanTheCapIsPassedOverAndRecordsAroundItCount() throws {
        let path = TestSupport.scratch() + "/j.jsonl"
        let a = JournalTests.record("a").json.description
        let b = JournalTests.record("b").json.description
        Self.write(path, a + "\n" + String(repeating: "x", count: Journal.maxLine + 1) + "\n" + b + "\n")
        #expect(try Journal.read(path).keys.sorted() == ["a", "b"])
        // A record padded past the cap is no record.
        let padded = a.replacing("\"input\":", with: String(repeating: " ", count: Journal.maxLine) + "\"input\":")
        Self.write(path, padded + "\n" + b)
        #expect(try Journal.read(path).keys.sorted() == ["b"])
    }

    @Test func theTableHoldsEachInputOnceAndALaterFailureTakesItOut() throws {
        let path = TestSupport.scratch() + "/j.jsonl"
        let a = JournalTests.record("a").json.description
        let failed = JournalTests.record("b", .failed, bytes: nil, sha: nil).json.description
        let b = JournalTests.record("b").json.description
        Self.write(path, String(repeating: a + "\n", count: 5000) + b + "\n" + failed + "\n")
        let read = try Journal.read(path)
        #expect(read.keys.sorted() == ["a"])
        // Only failed records: still a journal, nothing done.
        Self.write(path, failed + "\n" + failed + "\n")
        #expect(try Journal.read(path).isEmpty)
    }

    @Test func theTableIsCheckedAgainstTheBudget() throws {
        let path = TestSupport.scratch() + "/j.jsonl"
        let lines = (0..<100).map { JournalTests.record("in\($0)").json.description + "\n" }.joined()
        Self.write(path, lines)
        #expect(try Journal.read(path, budget: Budget(maxPixels: 0, maxBytes: 1 << 20)).count == 100)
        #expect(throws: ShardError.self) { try Journal.read(path, budget: Budget(maxPixels: 0, maxBytes: 10_000)) }
    }

    @Test(arguments: [
        ["AWS_BATCH_JOB_ARRAY_INDEX": "9223372036854775807", "AWS_BATCH_JOB_ARRAY_SIZE": "2"],
        ["BATCH_TASK_INDEX": "9223372036854775807", "BATCH_TASK_COUNT": "2"],
        ["SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_COUNT": "2"],
        ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_STEP": "9223372036854775807", "SLURM_ARRAY_TASK_COUNT": "2"],
        ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "-5", "SLURM_ARRAY_TASK_COUNT": "2"],
        ["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "9223372036854775807"],
    ])
    func engineVariablesOutOfRangeAreRefused(env: [String: String]) throws {
        #expect(throws: ShardError.self) { try ShardEngine.detect(environment: env, count: nil) }
    }

    @Test func kubernetesIndexOutOfRangeWithACountIsRefused() throws {
        let env = ["JOB_COMPLETION_INDEX": "9223372036854775807"]
        #expect(throws: ShardError.self) { try ShardEngine.detect(environment: env, count: 4) }
        let long = ShardError.badVariable(name: "X", value: String(repeating: "9", count: 5000), reason: "r")
        #expect(long.description.count < 200)
    }

    @Test func thePlanRefusesAJournalThatIsAnInputOrAnOutput() throws {
        let ids: [String: FileIdentity] = [
            "a.jpg": FileIdentity(device: 1, inode: 1), "link": FileIdentity(device: 1, inode: 1),
            "t": FileIdentity(device: 1, inode: 9), "./t": FileIdentity(device: 1, inode: 9),
        ]
        let inputs = [ThumbnailPlan.Input(path: "a.jpg")]
        func plan(_ journal: String) throws(ThumbnailError) -> ThumbnailPlan {
            try ThumbnailPlan(
                inputs: inputs, folder: "t", name: ThumbnailName(), journal: journal, identity: { ids[$0] })
        }
        for journal in ["a.jpg", "link", "t/a.thumb.png", "./t/a.thumb.png"] {
            #expect(throws: ThumbnailError.self, "\(journal)") { try plan(journal) }
        }
        #expect(try plan("t/j.jsonl").jobs.count == 1)
        #expect(try plan("j.jsonl").jobs.count == 1)
    }
}
