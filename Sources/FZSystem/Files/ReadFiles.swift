import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A file's identity: (device, inode). Two paths, a link and a descriptor name the same
/// file exactly when their identities are equal.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    package init(_ st: stat) { self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)) }

    /// The regular file an open descriptor is (nil for pipes, terminals, devices, closed).
    public static func ofDescriptor(_ fd: Int32) -> FileIdentity? {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(st)
    }
}

/// Every file this process has read (inputs, profiles, marker and point files, lists,
/// overlays, standard input redirected from a file): the set no output may replace and
/// standard output must not be.
///
/// Why one process-wide set rather than lists passed along: a file can come in through
/// any option, and the check must hold for all of them, including options added later.
/// `CFile.open(readingFrom:)` records each file as it opens it, so nothing that is read
/// escapes the set; `OutputFile` consults it before it creates anything.
///
/// The record is kept for a forcezoom run (`ProcessSetup.start` turns it on): a process
/// that uses the core for many jobs over its life (the test suite) would otherwise see
/// files it read for one job as inputs of the next.
public enum ReadFiles {
    private static let files = Mutex<Set<FileIdentity>>([])
    private static let enabled = Atomic<Bool>(false)

    /// Starts recording (once per process, before any file is read).
    public static func enable() { enabled.store(true, ordering: .relaxed) }

    /// What standard output was at start, when it is a regular file (`> out`, `>> in.png`,
    /// `1<>in.png`). Read once: the descriptor does not change under us.
    public static let standardOutput: FileIdentity? = FileIdentity.ofDescriptor(1)

    /// Records a file about to be read.
    /// - Throws: `Errno(EBUSY)` when it is the file standard output writes to: reading it
    ///   while writing there would change an input (`crop in.png -o - >>in.png`).
    package static func record(_ id: FileIdentity) throws(ReadFilesError) {
        guard enabled.load(ordering: .relaxed) else { return }
        if id == standardOutput { throw .isStandardOutput }
        _ = files.withLock { $0.insert(id) }
    }

    /// Forgets a file whose reading is over, so that it may be replaced (by rename, never
    /// written into): `compare --update` replaces baselines once every pair is measured.
    package static func forget(_ id: FileIdentity) { _ = files.withLock { $0.remove(id) } }

    /// Whether a file was read by this process.
    public static func contains(_ id: FileIdentity) -> Bool {
        enabled.load(ordering: .relaxed) && files.withLock { $0.contains(id) }
    }

    /// Checks, before anything is read, that none of `paths` is the file standard output
    /// writes to (so no record printed before the file is read lands in it). A name of
    /// standard output itself (`-o /dev/stdout >file`) is skipped: it names the output, and
    /// if it were read as an input, opening it would be refused then (`record`).
    public static func checkNotStandardOutput(_ paths: [String]) throws(ReadFilesError) {
        guard let out = standardOutput else { return }
        for path in paths where !StandardStream.isNamed(path) && !StandardStream.isOutputAlias(path) {
            if FileSystem.identity(of: path) == out { throw .namedIsStandardOutput(path: path) }
        }
        if FileIdentity.ofDescriptor(0) == out { throw .namedIsStandardOutput(path: "-") }
    }
}

/// A file that is both read and written through standard output.
public enum ReadFilesError: Error, Equatable, Sendable {
    /// The file being opened is standard output.
    case isStandardOutput
    /// A file named on the command line (or standard input) is standard output.
    case namedIsStandardOutput(path: String)

    /// The sentence for a message about `path`.
    public static let reason =
        "standard output is redirected into this file, which forcezoom reads; it never writes into an input (redirect standard output elsewhere)"
}
