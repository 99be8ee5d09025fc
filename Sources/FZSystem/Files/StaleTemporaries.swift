import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Temporary files a killed forcezoom left beside its outputs (`.NAME.fz-XXXXXX`): SIGKILL,
/// a power cut or an OOM kill run no handler, so nothing removed them, and a later run
/// writing the same output removes them.
///
/// Why by name pattern and age only: the pattern is ours alone (a dot, the output's name,
/// `.fz-` and six letters or digits), and a temporary untouched for `age` is no write in
/// progress (forcezoom writes a temporary in one go, seconds for a thumbnail). Only
/// regular files owned by this user are removed, never through a link. Each folder is
/// listed once per process, so a batch of a million outputs in one folder lists it once.
package enum StaleTemporaries {
    /// How long a temporary must be untouched to count as left behind.
    package static let age: Int = 3600

    /// Per folder (by identity): the stale temporaries found in it, by the name they were for.
    private static let found = Mutex<[FileIdentity: [String: [String]]]>([:])

    /// Removes the stale temporaries of `name` (as cut for the temporary's name) in `folder`.
    package static func remove(for name: String, in folder: OutputFolder) {
        var st = stat()
        guard fstat(folder.descriptor, &st) == 0 else { return }
        let id = FileIdentity(st)
        let stale: [String] = found.withLock { table in
            if table[id] == nil { table[id] = list(folder.descriptor) }
            return table[id]?.removeValue(forKey: name) ?? []
        }
        for temporary in stale where isStale(temporary, in: folder.descriptor) {
            PathBytes.withCPath(temporary) { _ = unlinkat(folder.descriptor, $0, 0) }
        }
    }

    /// The same for an output this run does not write (`--resume` found it done): a run
    /// killed while rewriting it later left its temporary too. Nothing when the folder
    /// cannot be opened (the output was just read through it, so it can).
    package static func remove(beside output: String) {
        guard let folder = try? OutputFolder.open(FileSystem.directory(of: output)) else { return }
        remove(for: stem(of: FileSystem.basename(output)), in: folder)
    }

    /// The part of an output's name a temporary carries: its first 200 bytes, so that a
    /// dot, the stem, `.fz-` and six letters fit NAME_MAX (255 bytes).
    package static func stem(of name: String) -> String {
        PathBytes.string(of: PathBytes.bytes(of: name).prefix(200))
    }

    /// The name a temporary was made for, nil when `entry` is not one of ours.
    package static func target(ofTemporary entry: String) -> String? {
        let bytes = PathBytes.bytes(of: entry)
        let marker = Array(".fz-".utf8)
        guard bytes.count > 1 + marker.count + 6, bytes[0] == UInt8(ascii: ".") else { return nil }
        let suffix = bytes.suffix(6)
        let isAlphanumeric = { (b: UInt8) in (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) }
        guard suffix.allSatisfy(isAlphanumeric), Array(bytes.dropLast(6).suffix(4)) == marker else { return nil }
        let stem = bytes.dropFirst().dropLast(10)
        return stem.isEmpty ? nil : PathBytes.string(of: Array(stem))
    }

    /// The stale temporaries in a folder, by target name.
    private static func list(_ descriptor: Int32) -> [String: [String]] {
        let copy = dup(descriptor)
        guard copy >= 0, let dir = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return [:]
        }
        defer { closedir(dir) }
        var table: [String: [String]] = [:]
        while let entry = readdir(dir) {
            let name = DirectoryEntryName.of(entry)
            guard let target = target(ofTemporary: name), isStale(name, in: descriptor) else { continue }
            table[target, default: []].append(name)
        }
        return table
    }

    /// A regular file of ours, untouched for `age` seconds.
    private static func isStale(_ name: String, in descriptor: Int32) -> Bool {
        var st = stat()
        let rc = PathBytes.withCPath(name) { fstatat(descriptor, $0, &st, AT_SYMLINK_NOFOLLOW) }
        guard rc == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid() else { return false }
        return Int(time(nil)) - Int(st.st_mtim.tv_sec) > age
    }
}
