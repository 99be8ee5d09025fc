#if canImport(Glibc)
import Glibc
#endif

/// A folder outputs are made in, held open by its descriptor.
///
/// Why a descriptor and not a path: a path is looked up again at every use, so a folder
/// swapped for a symbolic link in the middle of a batch (or a `%d` subfolder that is a
/// link) would send the outputs somewhere else. Everything is made relative to the
/// descriptor instead (`openat`, `mkdirat`, `renameat`), and subfolders are entered one
/// component at a time with `O_NOFOLLOW`, as rsync and systemd-tmpfiles do. The folder
/// a user names (`--out`, the folder of `-o`) is opened once, following links in that
/// name: the user chose it.
public final class OutputFolder: @unchecked Sendable {
    /// The folder as named, for messages.
    public let path: String
    /// The open folder (read-only, close-on-exec); never changes.
    package let descriptor: Int32

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the folder `path` names.
    /// - Throws: `OutputError.folderUnusable` when it is missing, not a folder or not readable.
    public static func open(_ path: String) throws(OutputError) -> OutputFolder {
        let fd = PathBytes.withCPath(path.isEmpty ? "." : path) { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd < 0 { throw .folderUnusable(path: path, reason: "cannot be opened: \(Errno(errno))") }
        return OutputFolder(descriptor: fd, path: path)
    }

    /// Opens `path` as a folder, creating it and its parents when missing (`--out`).
    public static func make(_ path: String) throws(OutputError) -> OutputFolder {
        do { try FileSystem.makeDirectories(path) } catch {
            throw .folderUnusable(path: path, reason: "the folder cannot be created: \(error)")
        }
        return try open(path)
    }

    /// Fails unless files can be made in this folder (write and search permission, a file
    /// system mounted read-write), so a batch says so before it decodes anything rather
    /// than failing every output in turn.
    public func checkWritable() throws(OutputError) {
        if faccessat(descriptor, ".", W_OK | X_OK, AT_EACCESS) != 0 {
            throw .folderUnusable(path: path, reason: "no file can be made in it: \(Errno(errno))")
        }
    }

    /// The folder `relative` (components separated by `/`) inside this one, each component
    /// entered without following a link; missing ones are made when `create`.
    /// - Throws: `OutputError.folderUnusable` for a `..` component, a component that is a
    ///   link or not a folder, or one that cannot be made.
    public func subfolder(_ relative: String, create: Bool) throws(OutputError) -> OutputFolder {
        var current = self
        var walked = path
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            let name = String(component)
            walked = FileSystem.join(walked, name)
            if name == ".." {
                throw .folderUnusable(path: walked, reason: "'..' would leave the output folder; give a name inside it")
            }
            if create, PathBytes.withCPath(name, { mkdirat(current.descriptor, $0, 0o777) }) != 0, errno != EEXIST {
                throw .folderUnusable(path: walked, reason: "the folder cannot be created: \(Errno(errno))")
            }
            let fd = PathBytes.withCPath(name) {
                openat(current.descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if fd < 0 {
                let e = errno
                let reason =
                    e == ELOOP || e == ENOTDIR
                    ? "is a symbolic link or not a folder; forcezoom makes outputs only in real folders below the output folder"
                    : "the folder cannot be opened: \(Errno(e))"
                throw .folderUnusable(path: walked, reason: reason)
            }
            current = OutputFolder(descriptor: fd, path: walked)
        }
        return current
    }

    /// What is at `name` in this folder, the entry itself (a link is not followed).
    package func entry(_ name: String) -> stat? {
        var st = stat()
        let rc = PathBytes.withCPath(name) { fstatat(descriptor, $0, &st, AT_SYMLINK_NOFOLLOW) }
        return rc == 0 ? st : nil
    }
}
