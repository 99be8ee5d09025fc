import FZSystem

/// The job-array engines `--shard auto` reads its index and count from, as each documents
/// its environment. Looked for in this order; the first whose index variable is set wins.
///
/// - Slurm job arrays: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`, `_STEP`, `_COUNT`.
///   Task IDs need not start at 0 or 1 nor be dense: shard K = (ID - MIN) / STEP + 1 of
///   COUNT. With `auto/N` the task ID *is* the shard (`--array=1-N`), so re-running one
///   failed task alone (`sbatch --array=5`, where MIN is 5 and COUNT 1) still does shard 5/N.
/// - AWS Batch array jobs: `AWS_BATCH_JOB_ARRAY_INDEX` (from 0), `AWS_BATCH_JOB_ARRAY_SIZE`.
/// - Google Cloud Batch: `BATCH_TASK_INDEX` (from 0), `BATCH_TASK_COUNT`.
/// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (from 0); the count is not injected,
///   so `auto/N` (the Job's `completions`).
public enum ShardEngine: String, CaseIterable, Sendable {
    case slurm = "Slurm"
    case awsBatch = "AWS Batch"
    case googleBatch = "Google Batch"
    case kubernetes = "Kubernetes"

    /// The variable whose presence says "this engine".
    public var indexVariable: String {
        switch self {
        case .slurm: return "SLURM_ARRAY_TASK_ID"
        case .awsBatch: return "AWS_BATCH_JOB_ARRAY_INDEX"
        case .googleBatch: return "BATCH_TASK_INDEX"
        case .kubernetes: return "JOB_COMPLETION_INDEX"
        }
    }

    /// The variable holding the count, when the engine sets one.
    public var countVariable: String? {
        switch self {
        case .slurm: return "SLURM_ARRAY_TASK_COUNT"
        case .awsBatch: return "AWS_BATCH_JOB_ARRAY_SIZE"
        case .googleBatch: return "BATCH_TASK_COUNT"
        case .kubernetes: return nil
        }
    }

    /// Every variable looked for, for the message when none is set.
    public static var variables: [String] {
        allCases.flatMap { [$0.indexVariable] + ($0.countVariable.map { [$0] } ?? []) }
    }

    /// The engine running this task and the shard it gives.
    public struct Found: Hashable, Sendable {
        public let engine: ShardEngine
        public let shard: Shard
        /// In words, for the summary: `Slurm array task 5`.
        public let source: String
    }

    /// Finds the engine and works out the shard.
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - count: N of `--shard auto/N`, nil for `--shard auto`.
    /// - Throws: `ShardError.noEngine` when no engine's index is set; `.badVariable`,
    ///   `.countNeeded`, `.countMismatch` when what is set does not make a shard.
    public static func detect(environment: [String: String], count: Int?) throws(ShardError) -> Found {
        guard let engine = allCases.first(where: { environment[$0.indexVariable] != nil }) else {
            throw .noEngine(variables: variables)
        }
        // Every variable has a range, so the arithmetic below cannot overflow: indices from 0
        // below `Shard.maxCount` (K = index + 1), counts 1...maxCount, Slurm's task IDs, MIN
        // and STEP within 32 bits as Slurm keeps them (K = (ID - MIN) / STEP + 1 with
        // ID >= MIN). `Int(_:)` itself refuses what does not fit 64 bits.
        func number(_ name: String, in range: ClosedRange<Int>) throws(ShardError) -> Int {
            let value = environment[name] ?? ""
            guard let n = Int(value.trimmingWhitespace) else {
                throw .badVariable(name: name, value: value, reason: "not a whole number; is this an array task?")
            }
            guard range.contains(n) else {
                throw .badVariable(
                    name: name, value: value, reason: "must be \(range.lowerBound)-\(range.upperBound)")
            }
            return n
        }
        func optionalNumber(_ name: String?, in range: ClosedRange<Int>) throws(ShardError) -> Int? {
            guard let name, environment[name] != nil else { return nil }
            return try number(name, in: range)
        }
        let slurmRange = 0...Int(Int32.max)
        let id = try number(engine.indexVariable, in: engine == .slurm ? slurmRange : 0...(Shard.maxCount - 1))
        let engineCount = try optionalNumber(engine.countVariable, in: 1...Shard.maxCount)
        let index: Int
        let total: Int
        switch (engine, count) {
        case (.slurm, let n?):
            // auto/N: the task ID is the shard number, whatever else the array holds.
            (index, total) = (id, n)
        case (.slurm, nil):
            let min = try optionalNumber("SLURM_ARRAY_TASK_MIN", in: slurmRange) ?? 0
            let step = try optionalNumber("SLURM_ARRAY_TASK_STEP", in: 1...Int(Int32.max)) ?? 1
            guard let c = engineCount else {
                throw .badVariable(name: "SLURM_ARRAY_TASK_COUNT", value: "", reason: "not set; give --shard auto/N")
            }
            guard id >= min, (id - min) % step == 0 else {
                throw .badVariable(
                    name: "SLURM_ARRAY_TASK_ID", value: String(id),
                    reason:
                        "not MIN + a multiple of STEP (\(min), \(step)): a sparse array; give --shard auto/N with --array=1-N"
                )
            }
            (index, total) = ((id - min) / step + 1, c)
        case (.kubernetes, nil):
            throw .countNeeded(engine: "Kubernetes (JOB_COMPLETION_INDEX)")
        case (_, let n):
            if let n, let c = engineCount, n != c, let variable = engine.countVariable {
                throw .countMismatch(engine: engine.rawValue, variable: variable, engineCount: c, given: n)
            }
            guard let t = n ?? engineCount else {
                throw .badVariable(name: engine.countVariable ?? "", value: "", reason: "not set; give --shard auto/N")
            }
            (index, total) = (id + 1, t)
        }
        let source = "\(engine.rawValue) \(engine == .kubernetes ? "completion index" : "array task") \(id)"
        let option = "--shard \(count.map { "auto/\($0)" } ?? "auto"): \(source) gives"
        let shard = try Shard(index: index, count: total, option: option)
        return Found(engine: engine, shard: shard, source: source)
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension ShardEngine {
    /// Every variable `detect` reads.
    public static var allVariables: [String] { variables + ["SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP"] }

    /// Those of `allVariables` that are set in this process.
    public static func environment() -> [String: String] {
        var found: [String: String] = [:]
        for name in allVariables { if let v = getenv(name) { found[name] = String(cString: v) } }
        return found
    }
}
