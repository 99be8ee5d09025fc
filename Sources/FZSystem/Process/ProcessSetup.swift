import CFZProcess

#if canImport(Glibc)
import Glibc
#endif

/// What a run does to its process before anything else, and what it reads of it.
public enum ProcessSetup {
    /// Opens /dev/null on any of descriptors 0-2 that is closed (else the first file
    /// opened would take it: JSON lines or error messages would land in an output), then
    /// installs the signal handlers that remove temporary outputs, and starts recording
    /// the files the run reads (`ReadFiles`). False when a standard
    /// descriptor cannot be made (no /dev/null): nothing can safely be written then.
    public static func start() -> Bool {
        guard fz_ensure_standard_descriptors() == 0 else { return false }
        fz_watch_stdout()
        fz_install_cleanup_handlers()
        ReadFiles.enable()
        return true
    }

    /// The arguments after the program name, as bytes (`PathBytes`): `CommandLine.arguments`
    /// would have replaced every byte that is not UTF-8 with U+FFFD.
    public static var arguments: [String] {
        (1..<Int(CommandLine.argc)).compactMap { i in CommandLine.unsafeArgv[i].map { PathBytes.string(cString: $0) } }
    }
}
