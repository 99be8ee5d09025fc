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

    /// glibc gives the freed top of a heap back to the kernel at once, and the next
    /// allocation faults its pages in again: every tile of an HEIF grid gets a libde265
    /// decoder of its own that allocates and frees its pictures (about 1.3 MB a 512x512
    /// tile), so a 48-tile thumbnail took 7,600 page faults, 5,900 of them these (about 5%
    /// of its CPU). 4 MB kept at the top of each heap: 1,700 faults. Setting it fixes glibc's
    /// mmap threshold, which would otherwise rise with the blocks freed: fixed at the 32 MB
    /// it may rise to, so a band of rows is not mapped and faulted in anew each time.
    ///
    /// Only the HEIF tile paths pay for it (issue 51): set at process start it raised every
    /// command's peak RSS (a 400 px crop of a 20 MP JPEG 13.7 -> 16.2 MB, a fit 37 -> 41 MB),
    /// the buffers under 32 MB staying in the heap after use. `HEIFDecoder` calls it when it
    /// opens a file, before its tiles' workers start (libheif's whole-image decodes pay too: a
    /// 12 MP HEIC crop took 1.25x as long without);
    /// glibc reads the values on each trim, so arenas made earlier keep the pad too. Once a
    /// process; later calls do nothing.
    public static func keepFreedPages() { _ = freedPagesKept }

    private static let freedPagesKept: Bool = {
        fz_keep_freed_pages()
        return true
    }()

    /// The arguments after the program name, as bytes (`PathBytes`): `CommandLine.arguments`
    /// would have replaced every byte that is not UTF-8 with U+FFFD. Made once (the CLI asks
    /// for them a dozen times, each a conversion of every argument).
    public static let arguments: [String] = (1..<max(1, Int(CommandLine.argc))).compactMap { i in
        CommandLine.unsafeArgv[i].map { PathBytes.string(cString: $0) }
    }
}
