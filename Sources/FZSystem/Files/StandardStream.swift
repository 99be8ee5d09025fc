#if canImport(Glibc)
import Glibc
#endif

/// How standard input and output are named: "-" on the command line, `<stdin>` and
/// `<stdout>` in messages, `stdin` as the stem of a default output name. The one place the
/// spelling lives, so every command, reader and writer agrees on it.
public enum StandardStream {
    /// What a command line names standard input or output by.
    public static let argument = "-"
    /// Standard input in messages.
    public static let inputLabel = "<stdin>"
    /// Standard output in messages.
    public static let outputLabel = "<stdout>"
    /// The stem of outputs named after standard input (`stdin.crop.png`).
    public static let inputStem = "stdin"

    /// Whether `path` names standard input or output rather than a file.
    public static func isNamed(_ path: String) -> Bool { path == argument }

    /// Whether an optional name (an option not given is no stream) names standard output.
    public static func isNamed(_ path: String?) -> Bool { path == argument }

    /// Whether `path` is a name the system gives standard output itself (`/dev/stdout`,
    /// `/dev/fd/1`, `/proc/self/fd/1`): whoever writes it means standard output, whatever
    /// descriptor 1 is, even a regular file; it is never an input of that run.
    public static func isOutputAlias(_ path: String) -> Bool {
        outputAliases.contains(path)
    }

    /// Whether an output option means standard output: "-" or one of its names.
    public static func meansStandardOutput(_ path: String?) -> Bool {
        guard let path else { return false }
        return isNamed(path) || isOutputAlias(path)
    }

    private static let outputAliases: Set<String> = [
        "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "/proc/thread-self/fd/1", "/proc/\(getpid())/fd/1",
    ]

    /// An input as messages name it: `<stdin>` for standard input, else the path.
    public static func inputName(_ path: String) -> String { isNamed(path) ? inputLabel : path }

    /// The stem of the outputs named after an input (`photo` for photo.jpg, `stdin` for -).
    public static func stem(of input: String) -> String { isNamed(input) ? inputStem : FileSystem.stem(input) }
}
