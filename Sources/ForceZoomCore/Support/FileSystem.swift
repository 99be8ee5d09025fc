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
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    /// (device, inode) of the file a path names, following links; nil when absent.
    public static func identity(of path: String) -> (UInt64, UInt64)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// (device, inode) of an open descriptor's file when it is a regular file (standard
    /// input redirected from one, say); nil for pipes, terminals and closed descriptors.
    public static func identity(ofDescriptor fd: Int32) -> (UInt64, UInt64)? {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// Whether two paths name the same existing file (hard links and symlinks included).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = identity(of: a), let y = identity(of: b) else { return false }
        return x == y
    }

    /// Modification time in nanoseconds, nil when absent.
    public static func modificationTime(of path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }

    /// File size in bytes, nil when absent.
    public static func size(of path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
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
        if mkdir(path, 0o777) != 0 && errno != EEXIST { throw Errno(errno) }
    }

    /// Lists a folder's entries (no "." and ".."), sorted by name.
    public static func list(_ path: String) throws(Errno) -> [String] {
        guard let dir = opendir(path) else { throw Errno(errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

extension FileSystem {
    /// Reads a small text file (marker lists, input lists), at most `limit` bytes.
    /// - Throws: `Errno` when it cannot be read, EFBIG when it is larger than `limit`.
    public static func readText(_ path: String, limit: Int = 64 << 20) throws(Errno) -> String {
        String(decoding: try readBytes(path, limit: limit), as: UTF8.self)
    }

    /// Why `readText` or `readBytes` with `limit` failed, in words for a message.
    public static func readFailure(_ error: Errno, limit: Int) -> String {
        error.code == EFBIG ? "larger than \(limit >> 20) MiB" : error.description
    }

    /// Reads a small file (`-`: standard input) whole, at most `limit` bytes.
    /// - Throws: `Errno` when it cannot be read, EFBIG when it is larger than `limit`.
    public static func readBytes(_ path: String, limit: Int) throws(Errno) -> [UInt8] {
        let file: CFile
        if path == "-" {
            switch CFile.slurpStandardInput(limit: limit) {
            case .success(let f): file = f
            case .failure(let e): throw e
            }
        } else {
            if kind(of: path) == .directory { throw Errno(EISDIR) }
            switch CFile.open(readingFrom: path) {
            case .success(let f): file = f
            case .failure(let e): throw e
            }
        }
        guard let bytes = file.readAll(limit: limit) else { throw Errno(EFBIG) }
        return bytes
    }
}
