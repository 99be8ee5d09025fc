#if canImport(Glibc)
import Glibc
#endif

extension OutputFolder {
    /// Deletes the regular file `name` in this folder (`compare --update --prune` removing a
    /// baseline): a link is removed itself, never followed; a folder or any other kind of
    /// file is refused.
    /// - Throws: `OutputError.notRegularFile`, or `.writeFailed` when unlinking fails.
    public func removeFile(_ name: String) throws(OutputError) {
        let path = FileSystem.join(self.path, name)
        guard let st = entry(name) else { return }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFLNK else {
            throw .notRegularFile(path: path, kind: FileSystem.kindName(st))
        }
        if PathBytes.withCPath(name, { unlinkat(descriptor, $0, 0) }) != 0 {
            throw .writeFailed(path: path, reason: "cannot be deleted: \(Errno(errno))")
        }
    }
}
