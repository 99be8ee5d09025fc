#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX helpers: file kinds, identity, paths. No Foundation (launch cost).
public enum FileSystem {
    /// What is at a path.
    public enum Kind: Equatable, Sendable { case missing, directory, regular, other }

    public static func kind(of path: String) -> Kind {
        guard let st = status(path) else { return .missing }
        return kind(st)
    }

    /// The kind a `stat` result says.
    package static func kind(_ st: stat) -> Kind {
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    /// What `stat` says of a path (links followed; `follow: false`, `lstat`); nil when absent.
    /// The path's bytes reach the kernel as they are (`PathBytes`).
    public static func status(_ path: String, follow: Bool = true) -> stat? {
        var st = stat()
        let rc = PathBytes.withCPath(path) { follow ? stat($0, &st) : lstat($0, &st) }
        return rc == 0 ? st : nil
    }

    /// The identity of the file a path names, following links; nil when absent.
    public static func identity(of path: String) -> FileIdentity? { status(path).map(FileIdentity.init) }

    /// Whether two paths name the same existing file (hard links and symlinks included).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = identity(of: a), let y = identity(of: b) else { return false }
        return x == y
    }

    /// A short word for what a non-regular file is, for messages ("a FIFO").
    public static func kindName(_ st: stat) -> String {
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// What a symbolic link holds (`readlink`, not resolved); nil for no link. At most PATH_MAX bytes.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = PathBytes.withCPath(path) { readlink($0, &buffer, buffer.count - 1) }
        guard n >= 0 else { return nil }
        return PathBytes.string(of: buffer[..<n].map { UInt8(bitPattern: $0) })
    }

    /// The absolute path with every link resolved (`realpath`); nil when it cannot be.
    public static func resolved(_ path: String) -> String? {
        guard let p = PathBytes.withCPath(path, { realpath($0, nil) }) else { return nil }
        defer { free(p) }
        return PathBytes.string(cString: p)
    }

    /// Modification time in nanoseconds, nil when absent.
    public static func modificationTime(of path: String) -> Int64? {
        guard let st = status(path) else { return nil }
        return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }

    /// File size in bytes, nil when absent.
    public static func size(of path: String) -> Int64? {
        guard let st = status(path) else { return nil }
        return Int64(st.st_size)
    }

    /// The folder part of a path ("." for a bare name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last path component.
    public static func basename(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return String(p) }
        return String(p[p.index(after: slash)...])
    }

    /// The name without its last extension ("IMG_1.jpeg" -> "IMG_1"; ".hidden" stays).
    public static func stem(_ path: String) -> String {
        let name = basename(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The last extension without the dot, or "".
    public static func fileExtension(_ path: String) -> String {
        let name = basename(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// Joins two path parts with one slash.
    public static func join(_ a: String, _ b: String) -> String {
        if a.isEmpty || a == "." { return b }
        return a.hasSuffix("/") ? a + b : a + "/" + b
    }

    /// Creates a folder and its parents (mkdir -p).
    /// - Throws: `Errno` when a part cannot be made.
    public static func makeDirectories(_ path: String) throws(Errno) {
        if kind(of: path) == .directory { return }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/" && kind(of: parent) == .missing {
            try makeDirectories(parent)
        }
        if PathBytes.withCPath(path, { mkdir($0, 0o777) }) != 0 && errno != EEXIST { throw Errno(errno) }
    }

    /// Lists a folder's entries (no "." and ".."), sorted by name.
    public static func list(_ path: String) throws(Errno) -> [String] {
        guard let dir = PathBytes.withCPath(path, { opendir($0) }) else { throw Errno(errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = DirectoryEntryName.of(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

extension FileSystem {
    /// Reads a small text file (marker lists, input lists), at most `limit` bytes.
    /// - Throws: `Errno` when it cannot be read, EFBIG when it is larger than `limit`.
    public static func readText(_ path: String, limit: Int = 64 << 20) throws(Errno) -> String {
        PathBytes.string(of: try readBytes(path, limit: limit))
    }

    /// Why `readText` or `readBytes` with `limit` failed, in words for a message.
    public static func readFailure(_ error: Errno, limit: Int) -> String {
        error.code == EFBIG ? "larger than \(limit >> 20) MiB" : error.description
    }

    /// Reads a small file (`-`: standard input) whole, at most `limit` bytes.
    /// - Throws: `Errno` when it cannot be read, EFBIG when it is larger than `limit`.
    public static func readBytes(_ path: String, limit: Int) throws(Errno) -> [UInt8] {
        let file: CFile
        if StandardStream.isNamed(path) {
            switch CFile.slurpStandardInput(limit: limit) {
            case .success(let f): file = f
            case .failure(let e): throw e
            }
        } else {
            switch CFile.open(readingFrom: path) {
            case .success(let f): file = f
            case .failure(let e): throw e
            }
        }
        guard let bytes = file.readAll(limit: limit) else { throw Errno(EFBIG) }
        return bytes
    }
}
