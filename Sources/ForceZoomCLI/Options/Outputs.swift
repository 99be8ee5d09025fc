import ArgumentParser
import FZOperations

/// Checks on a command's output paths made before any work, so a failure never leaves
/// some outputs written and others not.
enum Outputs {
    /// `path` must not be empty.
    static func checkNotEmpty(_ path: String?, _ option: String) throws {
        if path == "" { throw ValidationError("\(option) is empty; give a file name (or - for stdout where allowed)") }
    }

    /// A pattern for several outputs, parsed; `needsCounter` when more than one file comes from it.
    static func pattern(_ text: String, _ option: String, needsCounter: Bool, example: String) throws -> OutputPattern {
        let pattern: OutputPattern
        do { pattern = try OutputPattern(parsing: text) } catch { throw ValidationError("\(option) \(error)") }
        if needsCounter && !pattern.hasCounter {
            throw ValidationError(
                "\(option) '\(Echo.value(text))' writes several files and needs %d in it (e.g. \(example))")
        }
        return pattern
    }

    /// Two outputs of one command on the same path: a usage error, found before any work.
    static func checkDistinct(_ outputs: [(option: String, path: String)]) throws {
        if let clash = OutputTarget.clash(outputs) { throw ValidationError(clash) }
    }
}
