import CFZProcess

#if canImport(Glibc)
import Glibc
#endif

/// How `OutputFile` checks its target and makes its temporary file.
extension OutputFile {
    /// The identities of the existing files among `paths` ("-": standard input's file).
    package static func identities(_ paths: [String]) -> Set<FileIdentity> {
        var ids = Set<FileIdentity>()
        for p in paths {
            if StandardStream.isNamed(p) {
                if let id = FileIdentity.ofDescriptor(0) { ids.insert(id) }
            } else if let id = FileSystem.identity(of: p) {
                ids.insert(id)
            }
        }
        return ids
    }

    /// What descriptor 1 is, whatever its kind (a pipe, a terminal, a file).
    package static let standardOutputIdentity: FileIdentity? = {
        var st = stat()
        return fstat(1, &st) == 0 ? FileIdentity(st) : nil
    }()

    /// A device that is written directly (/dev/null).
    package static func openStream(_ path: String) throws(OutputError) -> CFile {
        let fd = PathBytes.withCPath(path) { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
        if fd < 0 { throw .cannotCreate(path: path, reason: Errno(errno).description) }
        switch CFile.open(writingTo: fd) {
        case .success(let f): return f
        case .failure(let e):
            close(fd)
            throw .cannotCreate(path: path, reason: e.description)
        }
    }

    /// What is at `name` may be replaced: nothing, a regular file nobody reads, or a link.
    package static func checkTarget(_ folder: OutputFolder, _ name: String, path: String, protected: Set<FileIdentity>)
        throws(OutputError)
    {
        guard let st = folder.entry(name) else { return }
        switch st.st_mode & S_IFMT {
        case S_IFLNK: return  // replaced by the rename, never followed
        case S_IFDIR: throw .isDirectory(path: path)
        case S_IFREG:
            let id = FileIdentity(st)
            if protected.contains(id) || ReadFiles.contains(id) { throw .wouldOverwriteInput(path: path) }
        default: throw .notRegularFile(path: path, kind: FileSystem.kindName(st))
        }
    }

    /// Makes `.NAME.fz-XXXXXX` in the folder (`O_EXCL | O_NOFOLLOW`, mode 0666 less the
    /// umask, as `creat` would) so that a stop signal always finds it. Signals that can be
    /// sent are held back in this thread across the creation, and the name is registered
    /// *before* the file is made: a handler on another thread that runs while this thread
    /// waits for the CPU (a thousand jobs on two cores can make that seconds) removes the
    /// name and ends the process, and this thread never makes the file. The name is first
    /// checked to be free, so the handler never removes a file that is not ours.
    package static func createTemporary(in folder: OutputFolder, for name: String, path: String) throws(OutputError)
        -> (
            Int32, String
        )
    {
        let stem = StaleTemporaries.stem(of: name)
        // What a killed run left for this output goes first (see StaleTemporaries).
        StaleTemporaries.remove(for: stem, in: folder)
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
            let temporary = "." + stem + ".fz-" + suffix
            if folder.entry(temporary) != nil { continue }
            var previous = sigset_t()
            fz_block_cleanup_signals(&previous)
            let outcome = createRegistered(temporary, in: folder)
            fz_restore_signals(&previous)
            if outcome.fd >= 0 { return (outcome.fd, temporary) }
            switch outcome.code {
            case EEXIST: continue
            case -1:
                throw .cannotCreate(path: path, reason: "more than \(FZ_TEMP_SLOTS) outputs at once; use fewer --jobs")
            case -2: throw .cannotCreate(path: path, reason: "interrupted")
            default: throw .cannotCreate(path: path, reason: Errno(outcome.code).description)
            }
        }
        throw .cannotCreate(path: path, reason: "no free temporary name in the folder")
    }

    /// The creation proper, with signals blocked: the descriptor, or -1 and an errno (-1:
    /// no free slot, -2: the process is ending). A failed creation forgets the name again.
    private static func createRegistered(_ temporary: String, in folder: OutputFolder) -> (fd: Int32, code: Int32) {
        guard fz_begin_temp() == 0 else { return (-1, -2) }
        defer { fz_end_temp() }
        return PathBytes.withCPath(temporary) { name in
            guard fz_register_temp(folder.descriptor, name) == 0 else { return (-1, -1) }
            let fd = openat(folder.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, 0) }
            let code = errno
            fz_unregister_temp(folder.descriptor, name)
            return (-1, code)
        }
    }

    /// Removes a temporary file and forgets it.
    package static func remove(_ temporary: String, in folder: OutputFolder) {
        PathBytes.withCPath(temporary) {
            _ = unlinkat(folder.descriptor, $0, 0)
            fz_unregister_temp(folder.descriptor, $0)
        }
    }
}
