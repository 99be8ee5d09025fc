import FZSystem

/// Why `--shard` or `--journal` cannot be used. Each message names the option (or the
/// file, or the variables looked for) and says what to do.
public enum ShardError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// `--shard` text that is not K/N, auto or auto/N, or numbers out of range (the text,
    /// what is wrong, the option or variables it came from).
    case invalid(text: String, reason: String, option: String)
    /// `--shard auto` and none of the engines' variables is set (the variables looked for).
    case noEngine(variables: [String])
    /// An engine's variable holds something that is not a number in range (the variable,
    /// its value, what is wrong).
    case badVariable(name: String, value: String, reason: String)
    /// Kubernetes gives the index but not the count (`JOB_COMPLETION_INDEX` alone).
    case countNeeded(engine: String)
    /// `auto/N` disagrees with the count the engine reports.
    case countMismatch(engine: String, variable: String, engineCount: Int, given: Int)
    /// The journal cannot be read, or written (the file, the reason).
    case journal(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalid(let text, let reason, let option):
            return "\(option) \(Echo.value(text)): \(reason)"
        case .noEngine(let variables):
            return
                "--shard auto: no job array found (looked for \(variables.joined(separator: ", "))); run it as an array task, or give --shard K/N"
        case .badVariable(let name, let value, let reason):
            // The value as set, cut to 100 characters and escaped: a variable may hold anything.
            return "--shard auto: \(name)=\(Echo.value(value)): \(reason)"
        case .countNeeded(let engine):
            return
                "--shard auto: \(engine) gives the index but not the count; give --shard auto/N with N the Job's completions"
        case .countMismatch(let engine, let variable, let engineCount, let given):
            return
                "--shard auto/\(given): \(engine) says \(engineCount) tasks (\(variable)); give --shard auto, or auto/\(engineCount)"
        case .journal(let path, let reason):
            return "--journal \(path): \(reason)"
        }
    }
}

extension ShardError {
    /// A shard that cannot be worked out is bad usage (exit 2); a journal that cannot be
    /// read or written is a failed file (exit 1).
    public var exitCode: Int32 {
        if case .journal = self { return 1 }
        return 2
    }
}
