import Testing

@testable import FZThumbnails

/// `--shard auto`: each engine's variables, as each documents them, give the shard.
struct ShardEngineTests {
    static func shard(_ env: [String: String], _ count: Int? = nil) throws -> (Shard, String) {
        let found = try ShardEngine.detect(environment: env, count: count)
        return (found.shard, found.source)
    }

    @Test func slurmCountsFromMinByStep() throws {
        // --array=1-64: task 1 is shard 1.
        var env = [
            "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "1",
            "SLURM_ARRAY_TASK_COUNT": "64",
        ]
        #expect(try Self.shard(env).0 == Shard(index: 1, count: 64))
        #expect(try Self.shard(env).1 == "Slurm array task 1")
        // --array=0-7: IDs from 0.
        env = [
            "SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "1",
            "SLURM_ARRAY_TASK_COUNT": "8",
        ]
        #expect(try Self.shard(env).0 == Shard(index: 8, count: 8))
        // --array=100-130:10: IDs 100, 110, 120, 130.
        env = [
            "SLURM_ARRAY_TASK_ID": "120", "SLURM_ARRAY_TASK_MIN": "100", "SLURM_ARRAY_TASK_STEP": "10",
            "SLURM_ARRAY_TASK_COUNT": "4",
        ]
        #expect(try Self.shard(env).0 == Shard(index: 3, count: 4))
        // A sparse array (--array=3,7) is not MIN + k * STEP for 7: refused, not guessed.
        env = [
            "SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_STEP": "1",
            "SLURM_ARRAY_TASK_COUNT": "2",
        ]
        #expect(throws: ShardError.self) { try Self.shard(env) }
    }

    @Test func slurmWithAutoNTakesTheTaskIdAsTheShard() throws {
        // Re-running task 5 alone (sbatch --array=5): MIN 5 and COUNT 1, still shard 5/64.
        let env = [
            "SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_STEP": "1",
            "SLURM_ARRAY_TASK_COUNT": "1",
        ]
        #expect(try Self.shard(env, 64).0 == Shard(index: 5, count: 64))
        #expect(try Self.shard(env).0 == Shard(index: 1, count: 1))
        let zero = ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "64"]
        let e = try #require(throws: ShardError.self) { try Self.shard(zero, 64) }
        #expect(
            e.description
                == "--shard auto/64: Slurm array task 0 gives 0/64: the index must be 1-64 (shards count from 1)")
    }

    @Test func awsBatchAndGoogleBatchCountFromZero() throws {
        #expect(
            try Self.shard(["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "10"]).0
                == Shard(index: 1, count: 10))
        #expect(
            try Self.shard(["AWS_BATCH_JOB_ARRAY_INDEX": "9", "AWS_BATCH_JOB_ARRAY_SIZE": "10"]).1
                == "AWS Batch array task 9")
        #expect(try Self.shard(["BATCH_TASK_INDEX": "3", "BATCH_TASK_COUNT": "4"]).0 == Shard(index: 4, count: 4))
        #expect(throws: ShardError.self) { try Self.shard(["BATCH_TASK_INDEX": "4", "BATCH_TASK_COUNT": "4"]) }
        // auto/N must agree with the engine's count.
        let e = try #require(throws: ShardError.self) {
            try Self.shard(["BATCH_TASK_INDEX": "0", "BATCH_TASK_COUNT": "4"], 8)
        }
        #expect(e == .countMismatch(engine: "Google Batch", variable: "BATCH_TASK_COUNT", engineCount: 4, given: 8))
        #expect(try Self.shard(["BATCH_TASK_INDEX": "0", "BATCH_TASK_COUNT": "4"], 4).0 == Shard(index: 1, count: 4))
    }

    @Test func kubernetesNeedsAutoN() throws {
        #expect(throws: ShardError.countNeeded(engine: "Kubernetes (JOB_COMPLETION_INDEX)")) {
            try Self.shard(["JOB_COMPLETION_INDEX": "2"])
        }
        #expect(
            try Self.shard(["JOB_COMPLETION_INDEX": "2"], 16) == (
                Shard(index: 3, count: 16), "Kubernetes completion index 2"
            ))
    }

    @Test func noEngineNamesEveryVariableLookedFor() throws {
        let e = try #require(throws: ShardError.self) { try Self.shard(["HOME": "/root"]) }
        for v in ["SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX", "BATCH_TASK_INDEX", "JOB_COMPLETION_INDEX"] {
            #expect(e.description.contains(v))
        }
        #expect(!e.description.contains("\n"))
    }

    @Test func badValuesAreNamed() throws {
        let e = try #require(throws: ShardError.self) {
            try Self.shard(["AWS_BATCH_JOB_ARRAY_INDEX": "x", "AWS_BATCH_JOB_ARRAY_SIZE": "4"])
        }
        #expect(e.description.hasPrefix("--shard auto: AWS_BATCH_JOB_ARRAY_INDEX=x: not a whole number"))
        // Spaces from a shell script are forgiven.
        #expect(
            try Self.shard(["AWS_BATCH_JOB_ARRAY_INDEX": " 1\n", "AWS_BATCH_JOB_ARRAY_SIZE": "4"]).0
                == Shard(index: 2, count: 4))
    }
}
