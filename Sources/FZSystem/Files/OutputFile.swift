import CFZProcess

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an output could not be written. Each message names the file and says what to do.
public enum OutputError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// The output path names an input: forcezoom never overwrites its input.
    case wouldOverwriteInput(path: String)
    /// The temporary file could not be created in the output folder.
    case cannotCreate(path: String, reason: String)
    /// Writing or encoding failed part-way (disk full...); nothing was left behind.
    case writeFailed(path: String, reason: String)
    /// The finished file could not be moved into place.
    case cannotRename(path: String, reason: String)
    /// The output path is a directory.
    case isDirectory(path: String)
    /// The folder an output goes in cannot be opened or made (missing, a link below the
    /// output folder, no permission).
    case folderUnusable(path: String, reason: String)
    /// Something other than a regular file is at the output path (a device, a FIFO, a
    /// socket): forcezoom replaces only regular files and never writes into others.
    case notRegularFile(path: String, kind: String)
    /// The format's library cannot be loaded (`FormatLibrary`): its reason names the soname,
    /// the loader's message and the package to install. Fails this output only.
    case missingLibrary(path: String, reason: String)

    public var path: String {
        switch self {
        case .wouldOverwriteInput(let p), .cannotCreate(let p, _), .writeFailed(let p, _),
            .cannotRename(let p, _), .isDirectory(let p), .notRegularFile(let p, _), .folderUnusable(let p, _),
            .missingLibrary(let p, _):
            return p
        }
    }

    /// Whether the file system is full or the quota spent (ENOSPC, EDQUOT): every later
    /// output in that folder would fail the same way, so a batch stops.
    public var isOutOfSpace: Bool {
        let r = reason
        return [ENOSPC, EDQUOT].contains { r.contains(Errno($0).description) }
    }

    public var reason: String {
        switch self {
        case .wouldOverwriteInput(let p) where StandardStream.isNamed(p):
            return
                "standard output is a file forcezoom reads; it never writes into an input (redirect standard output elsewhere)"
        case .wouldOverwriteInput:
            return "output is the input file; forcezoom never overwrites an input (choose another -o)"
        case .cannotCreate(_, let r): return "cannot create output: \(r) (check the folder exists and is writable)"
        case .writeFailed(_, let r): return "write failed: \(r); no partial file was left"
        case .cannotRename(_, let r): return "cannot move the finished file into place: \(r)"
        case .isDirectory: return "output is a directory; give a file name"
        case .missingLibrary(_, let r): return "\(r); no file was written"
        case .folderUnusable(_, let r): return "\(r) (check the output folder and its permissions)"
        case .notRegularFile(_, let kind):
            return
                "\(kind) is at the output path; forcezoom writes only regular files (remove it, choose another name, or -o - for standard output)"
        }
    }

    public var description: String {
        "\(StandardStream.isNamed(path) ? StandardStream.outputLabel : Echo.line(path)): \(reason)"
    }
}

/// An output written to a temporary file beside its target and renamed into place on
/// `commit`, so a failure or interruption never leaves a partial file; "-" is stdout.
///
/// The rules, which hold whatever is at the path (see `OutputFolder` for why everything is
/// relative to a folder descriptor):
/// - a regular file there is replaced by rename, never written into, and only when it is
///   not a file this process reads (`ReadFiles`, and `protecting`);
/// - a symbolic link there is replaced by rename, never followed; except a link named as
///   `-o` itself (`init(path:)`), which is followed to the file it points to, as `cp`
///   and ImageMagick do: that file is then replaced the same way;
/// - a folder, device, FIFO or socket there is refused; `/dev/null` (where writing loses
///   nothing) and a name for standard output itself (`/dev/stdout`) are written directly;
/// - the temporary file is made with `O_EXCL | O_NOFOLLOW` and registered for the signal
///   handlers before any signal can arrive, so an interruption leaves nothing behind.
public final class OutputFile {
    /// The final path as named ("-" for stdout), for messages.
    public let path: String
    package let file: CFile
    /// The folder and the names in it; nil when writing to a stream (stdout, /dev/null).
    private let folder: OutputFolder?
    private let name: String
    private let temporaryName: String
    private let protected: Set<FileIdentity>
    private var finished = false
    /// The bytes written, known after `commit` (nil for a stream).
    public private(set) var size: Int64?

    /// Creates the temporary output for a path a user named (`-o`).
    /// - Parameters:
    ///   - path: where the output should end up, or "-" for standard output.
    ///   - inputs: paths that must not be overwritten, besides every file read so far.
    /// - Throws: `OutputError` when the path names an input, a folder or another kind of
    ///   file, or the folder is not writable.
    public convenience init(path: String, protecting inputs: [String] = []) throws(OutputError) {
        let protected = Self.identities(inputs)
        if StandardStream.isNamed(path) {
            try self.init(stream: CFile.standardOutput(), path: path, protected: protected)
            return
        }
        var target = path
        if let st = FileSystem.status(path) {
            let linked = FileSystem.status(path, follow: false).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
            let id = FileIdentity(st)
            if st.st_mode & S_IFMT == S_IFCHR, st.st_rdev == FileSystem.status("/dev/null")?.st_rdev {
                // /dev/null: nothing can be lost by writing there, and scripts use it.
                try self.init(stream: Self.openStream(path), path: path, protected: protected)
                return
            }
            if let out = Self.standardOutputIdentity, out == id,
                st.st_mode & S_IFMT != S_IFREG || StandardStream.isOutputAlias(path)
            {
                // /dev/stdout, /proc/self/fd/1: the user means standard output, also when it
                // is redirected to a regular file (written there like `-o -`, refused only
                // when that file is one this run reads). Another name of that regular file
                // (`-o out.png >out.png`) is an ordinary output, replaced by rename.
                try self.init(stream: CFile.standardOutput(), path: "-", protected: protected)
                return
            }
            if linked, let resolved = FileSystem.resolved(path) { target = resolved }
        } else if FileSystem.status(path, follow: false) != nil {
            throw .cannotCreate(
                path: path, reason: "is a symbolic link to nothing; name the file to write instead of the link")
        }
        let folder: OutputFolder
        do { folder = try OutputFolder.open(FileSystem.directory(of: target)) } catch {
            throw .cannotCreate(path: path, reason: "its folder \(error.reason)")
        }
        try self.init(in: folder, name: FileSystem.basename(target), path: path, protected: protected)
    }

    /// Creates the temporary output `name` in `folder` (a batch's outputs below `--out`):
    /// a link at `name` is replaced, never followed.
    public convenience init(in folder: OutputFolder, name: String, path: String, protecting inputs: [String] = [])
        throws(OutputError)
    {
        try self.init(in: folder, name: name, path: path, protected: Self.identities(inputs))
    }

    private init(in folder: OutputFolder, name: String, path: String, protected: Set<FileIdentity>) throws(OutputError)
    {
        self.path = path
        self.folder = folder
        self.name = name
        self.protected = protected
        try Self.checkTarget(folder, name, path: path, protected: protected)
        let (fd, temporary) = try Self.createTemporary(in: folder, for: name, path: path)
        switch CFile.open(writingTo: fd) {
        case .success(let f): file = f
        case .failure(let e):
            close(fd)
            Self.remove(temporary, in: folder)
            throw .cannotCreate(path: path, reason: e.description)
        }
        temporaryName = temporary
    }

    private init(stream: CFile, path: String, protected: Set<FileIdentity>) throws(OutputError) {
        if let out = ReadFiles.standardOutput, StandardStream.isNamed(path),
            protected.contains(out) || ReadFiles.contains(out)
        {
            throw .wouldOverwriteInput(path: "-")
        }
        self.path = path
        file = stream
        folder = nil
        name = ""
        temporaryName = ""
        self.protected = protected
    }

    /// An output held in memory (`memoryContents` after `commit`), for a file assembled from
    /// encoded parts (an Ultra HDR JPEG's primary and gain map); `path` names it in messages.
    package static func inMemory(path: String) throws(OutputError) -> OutputFile {
        guard let stream = CFile.memoryStream() else {
            throw .writeFailed(path: path, reason: "open_memstream failed")
        }
        return try OutputFile(stream: stream, path: path, protected: [])
    }

    /// The bytes an `inMemory` output holds, after `commit` (which leaves the stream open).
    package func memoryContents() -> [UInt8] {
        file.close()
        return file.memoryContents
    }

    deinit { if !finished { discard() } }

    /// Flushes, closes and renames the temporary file into place.
    /// - Throws: `OutputError.writeFailed` or `.cannotRename`; the temporary file is removed.
    public func commit() throws(OutputError) {
        guard !finished else { return }
        let flushError = file.flush()
        if flushError != 0 || file.hasError {
            discard()
            throw .writeFailed(path: path, reason: Errno(flushError != 0 ? flushError : EIO).description)
        }
        guard let folder else {
            finished = true
            return
        }
        var st = stat()
        let written = file.withStream { fstat(fileno($0), &st) } == 0 ? Int64(st.st_size) : nil
        let closeError = file.close()
        if closeError != 0 {
            discard()
            throw .writeFailed(path: path, reason: Errno(closeError).description)
        }
        // Again at the last moment: what is at the name may have changed while encoding.
        do { try Self.checkTarget(folder, name, path: path, protected: protected) } catch {
            discard()
            throw error
        }
        let rc = PathBytes.withCPath(temporaryName) { from in
            PathBytes.withCPath(name) { to in renameat(folder.descriptor, from, folder.descriptor, to) }
        }
        if rc != 0 {
            let e = errno
            discard()
            throw .cannotRename(path: path, reason: Errno(e).description)
        }
        PathBytes.withCPath(temporaryName) { fz_unregister_temp(folder.descriptor, $0) }
        size = written
        finished = true
    }

    /// Closes and removes the temporary file (nothing is left behind).
    public func discard() {
        guard !finished else { return }
        finished = true
        file.close()
        if let folder { Self.remove(temporaryName, in: folder) }
    }
}
