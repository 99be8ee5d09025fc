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
    /// umask, as `creat` would) and registers it for the signal handlers, with every
    /// signal that can be sent held back from before the file exists until it is
    /// registered: an interruption always finds it.
    package static func createTemporary(in folder: OutputFolder, for name: String, path: String) throws(OutputError)
        -> (
            Int32, String
        )
    {
        // The name is cut to fit NAME_MAX (255 bytes) with the prefix and suffix.
        let stem = PathBytes.string(of: PathBytes.bytes(of: name).prefix(200))
        // What a killed run left for this output goes first (see StaleTemporaries).
        StaleTemporaries.remove(for: stem, in: folder)
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
            let temporary = "." + stem + ".fz-" + suffix
            var previous = sigset_t()
            fz_block_cleanup_signals(&previous)
            guard fz_begin_temp() == 0 else {
                fz_restore_signals(&previous)
                throw .cannotCreate(path: path, reason: "interrupted")
            }
            let fd = PathBytes.withCPath(temporary) {
                openat(folder.descriptor, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            }
            let created = errno
            var registered = true
            if fd >= 0 { registered = PathBytes.withCPath(temporary) { fz_register_temp(folder.descriptor, $0) } == 0 }
            fz_end_temp()
            fz_restore_signals(&previous)
            if fd < 0 {
                if created == EEXIST { continue }
                throw .cannotCreate(path: path, reason: Errno(created).description)
            }
            if !registered {
                close(fd)
                PathBytes.withCPath(temporary) { _ = unlinkat(folder.descriptor, $0, 0) }
                throw .cannotCreate(path: path, reason: "more than \(FZ_TEMP_SLOTS) outputs at once; use fewer --jobs")
            }
            return (fd, temporary)
        }
        throw .cannotCreate(path: path, reason: "no free temporary name in the folder")
    }

    /// Removes a temporary file and forgets it.
    package static func remove(_ temporary: String, in folder: OutputFolder) {
        PathBytes.withCPath(temporary) {
            _ = unlinkat(folder.descriptor, $0, 0)
            fz_unregister_temp(folder.descriptor, $0)
        }
    }
}
