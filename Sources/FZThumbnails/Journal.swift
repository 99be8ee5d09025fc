import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// A `--journal` file: one `JournalRecord` line appended per finished input, and read
/// back by `--resume`.
///
/// Why one `write` per line on an `O_APPEND` descriptor: a task killed at any moment leaves
/// whole lines and at most one torn last line, which reading ignores; nothing is buffered
/// in the process, so what a killed task finished is on record. `sync()` (fsync) runs at the
/// end and after an interruption, so a machine that loses power keeps the record too. One
/// journal per task (`%k` in the name): tasks on different machines never share a file,
/// which NFS appends from several clients would interleave.
public final class Journal: @unchecked Sendable {
    /// The file as named (after `%k`).
    public let path: String
    private let descriptor: Int32
    /// Guards `firstFailure`, and keeps one worker's line whole against another's.
    private let monitor = Monitor()
    private var firstFailure: ShardError?

    /// The first write error, reported once by the caller at the end.
    public var failure: ShardError? { monitor.locked { firstFailure } }

    /// The journal's path for a shard: `%k` replaced by the shard index.
    public static func path(pattern: String, shard: Shard) -> String {
        var out = ""
        var rest = Substring(pattern)
        while let r = rest.firstRange(of: "%k") {
            out += rest[..<r.lowerBound] + String(shard.index)
            rest = rest[r.upperBound...]
        }
        return out + rest
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens (creating when missing) the journal for appending. A torn last line left by a
    /// killed task is closed with a newline first, so the next record starts a line of its own.
    /// - Throws: `ShardError.journal` when it cannot be opened or is not a regular file.
    public static func open(appendingTo path: String) throws(ShardError) -> Journal {
        let fd = PathBytes.withCPath(path) { Glibc.open($0, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o666) }
        if fd < 0 {
            throw .journal(
                path: path, reason: "cannot be opened for appending: \(Errno(errno)); is its folder there and writable?"
            )
        }
        var st = stat()
        if fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            throw .journal(path: path, reason: "is not a regular file; name a file for the journal")
        }
        let journal = Journal(path: path, descriptor: fd)
        if st.st_size > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, st.st_size - 1) == 1 && last != 10 { journal.write([10]) }
        }
        return journal
    }

    /// Appends one record as one line, in one `write` (workers call it as they finish).
    public func append(_ record: JournalRecord) {
        let line = Array((record.json.description + "\n").utf8)
        monitor.locked { write(line) }
    }

    private func write(_ bytes: [UInt8]) {
        guard firstFailure == nil else { return }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                firstFailure = .journal(
                    path: path, reason: "cannot be written: \(Errno(errno)); --resume will redo what it misses")
                return
            }
            done += n
        }
    }

    /// Flushes the journal to the disk (fsync).
    public func sync() {
        monitor.locked {
            if fsync(descriptor) != 0 && firstFailure == nil && errno != EINVAL {
                firstFailure = .journal(path: path, reason: "cannot be flushed to the disk: \(Errno(errno))")
            }
        }
    }

    /// The size and SHA-256 of a file; nil when it cannot be read. Read with plain system
    /// calls, not `CFile`, so the output is not recorded as an input (which would stop a
    /// redo from replacing it).
    public static func digest(of path: String) -> (bytes: Int64, sha256: String)? {
        let fd = PathBytes.withCPath(path) { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        var hash = SHA256()
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            hash.update(Array(buffer[0..<n]))
            total += Int64(n)
        }
        return (total, hash.finalizeHex())
    }

    /// Whether `record` says its input is done and its output is still what was written:
    /// the same path, size and SHA-256.
    public static func stillDone(_ record: JournalRecord?, output: String) -> Bool {
        guard let record, record.status == .ok, record.output == output, let d = digest(of: output) else {
            return false
        }
        return d.bytes == record.bytes && d.sha256 == record.sha256
    }
}
