import CFZProcess

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C stdio stream, closed when the last reference goes. The `FILE*` never leaves this
/// module: codecs borrow it inside `withStream`.
package final class CFile {
    private let stream: UnsafeMutablePointer<FILE>
    /// Memory a `fmemopen` stream reads from; freed after the stream is closed.
    private let backing: UnsafeMutableRawPointer?
    private var closed = false

    init(stream: UnsafeMutablePointer<FILE>, backing: UnsafeMutableRawPointer? = nil) {
        self.stream = stream
        self.backing = backing
    }

    deinit {
        close()
        backing?.deallocate()
    }

    /// Lends the stream to a C call.
    package func withStream<R>(_ body: (UnsafeMutablePointer<FILE>) throws -> R) rethrows -> R { try body(stream) }

    /// Closes the stream; returns the errno of a failed flush or close, 0 when fine.
    @discardableResult
    package func close() -> Int32 {
        if closed { return 0 }
        closed = true
        if stream == fz_stdout() || stream == fz_stdin() {
            return fflush(stream) == 0 ? 0 : errno
        }
        return fclose(stream) == 0 ? 0 : errno
    }

    /// Flushes buffered output; returns errno on failure, 0 when fine.
    package func flush() -> Int32 { fflush(stream) == 0 ? 0 : errno }

    /// Whether a write error is pending on the stream.
    package var hasError: Bool { ferror(stream) != 0 }

    /// Reads up to `count` bytes from the current position.
    package func read(upTo count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, stream) }
        buffer.removeSubrange(n..<count)
        return buffer
    }

    /// Reads to the end in 64 KiB pieces (memory grows with the file, not with the limit);
    /// nil when there are more than `limit` bytes.
    package func readAll(limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            let piece = read(upTo: min(1 << 16, limit - bytes.count + 1))
            bytes += piece
            if bytes.count > limit { return nil }
            if piece.isEmpty { return bytes }
        }
    }

    /// Moves back to the first byte; false when the stream cannot seek.
    package func rewind() -> Bool { fseek(stream, 0, SEEK_SET) == 0 }

    /// Moves to byte `offset`; false when the stream cannot seek there.
    package func seek(to offset: Int) -> Bool { offset >= 0 && fseeko(stream, off_t(offset), SEEK_SET) == 0 }

    /// The stream's length in bytes (the position is kept), or nil when it cannot seek.
    package var length: Int? {
        let here = ftello(stream)
        guard here >= 0, fseeko(stream, 0, SEEK_END) == 0 else { return nil }
        let end = ftello(stream)
        _ = fseeko(stream, here, SEEK_SET)
        return end >= 0 ? Int(end) : nil
    }

    /// Opens a regular file for reading and records it in `ReadFiles` (so no output
    /// replaces it). The path's bytes go to the kernel as they are.
    ///
    /// Why `O_NONBLOCK` and `fstat` first: opening a FIFO for reading blocks until a writer
    /// comes, and a device (`/dev/zero`, a tape) never ends; only regular files are read
    /// by name (standard input is "-"). The flag is cleared once the file is known regular.
    /// - Returns: the stream, or `Errno` (EISDIR for a folder, EINVAL with a sentence for
    ///   another kind of file, EBUSY when the file is where standard output goes).
    package static func open(readingFrom path: String) -> Result<CFile, Errno> {
        let fd = PathBytes.withCPath(path) { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { return .failure(Errno(errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            Glibc.close(fd)
            return .failure(Errno(e))
        }
        let kind = FileSystem.kind(st)
        if kind != .regular {
            Glibc.close(fd)
            if kind == .directory { return .failure(Errno(EISDIR)) }
            return .failure(
                Errno(EINVAL, "\(FileSystem.kindName(st)), not a regular file; give a file (or - for standard input)"))
        }
        do throws(ReadFilesError) { try ReadFiles.record(FileIdentity(st)) } catch {
            Glibc.close(fd)
            return .failure(Errno(EBUSY, ReadFilesError.reason))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        guard let f = fdopen(fd, "rb") else {
            let e = errno
            Glibc.close(fd)
            return .failure(Errno(e))
        }
        return .success(CFile(stream: f))
    }

    /// Wraps an open descriptor for writing.
    package static func open(writingTo descriptor: Int32) -> Result<CFile, Errno> {
        guard let f = fdopen(descriptor, "wb") else { return .failure(Errno(errno)) }
        return .success(CFile(stream: f))
    }

    /// A stream writing into memory; `memoryContents` gives the bytes after `close`.
    package static func memoryStream() -> CFile? {
        let box = MemoryBox()
        guard let f = open_memstream(&box.buffer, &box.size) else { return nil }
        let file = CFile(stream: f)
        file.memory = box
        return file
    }

    /// The bytes written to a memory stream (after `close`).
    package var memoryContents: [UInt8] {
        guard let box = memory, let p = box.buffer else { return [] }
        return p.withMemoryRebound(to: UInt8.self, capacity: box.size) {
            Array(UnsafeBufferPointer(start: $0, count: box.size))
        }
    }

    /// open_memstream's buffer and size, which it updates on flush and close.
    package final class MemoryBox {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        deinit { free(buffer) }
    }

    private var memory: MemoryBox?

    /// The process's standard output.
    package static func standardOutput() -> CFile { CFile(stream: fz_stdout()) }

    /// Records standard input in `ReadFiles` when it is a file; the error when that file is
    /// where standard output goes (`- <in.png >>in.png`).
    private static func recordStandardInput() -> Errno? {
        guard let id = FileIdentity.ofDescriptor(0) else { return nil }
        do throws(ReadFilesError) { try ReadFiles.record(id) } catch { return Errno(EBUSY, ReadFilesError.reason) }
        return nil
    }

    /// The process's standard input, read as a stream (a list of paths), recorded in
    /// `ReadFiles` when it is a file.
    package static func standardInput() -> Result<CFile, Errno> {
        if let refused = recordStandardInput() { return .failure(refused) }
        return .success(CFile(stream: fz_stdin()))
    }

    /// Reads all of standard input into memory and opens a stream over it (stdin cannot
    /// seek back after sniffing, and libjpeg and libpng read from a stream).
    package static func slurpStandardInput(limit: Int) -> Result<CFile, Errno> {
        if let refused = recordStandardInput() { return .failure(refused) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 1 << 16, fz_stdin()) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if bytes.count > limit { return .failure(Errno(EFBIG)) }
            if n < (1 << 16) {
                if ferror(fz_stdin()) != 0 { return .failure(Errno(errno)) }
                break
            }
        }
        return open(bytes: bytes)
    }

    /// Opens a read stream over a copy of `bytes` (`fmemopen`), for data already in memory.
    package static func open(bytes: [UInt8]) -> Result<CFile, Errno> {
        let count = max(bytes.count, 1)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { memory.copyMemory(from: base, byteCount: bytes.count) } }
        guard let f = fmemopen(memory, bytes.count, "rb") else {
            let e = errno
            memory.deallocate()
            return .failure(Errno(e))
        }
        return .success(CFile(stream: f, backing: memory))
    }
}

/// A system error number with its text (or a sentence of ours that says more).
public struct Errno: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// RLIMIT_FSIZE in bytes, nil when unlimited.
    package static let fileSizeLimit: UInt64? = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return nil
        }
        return UInt64(limit.rlim_cur)
    }()

    public let code: Int32
    /// Said instead of the system's text when set.
    public let detail: String?
    public init(_ code: Int32, _ detail: String? = nil) {
        self.code = code
        self.detail = detail
    }
    public var description: String {
        if let detail { return detail }
        if code == EFBIG, let limit = Self.fileSizeLimit {
            // SIGXFSZ is ignored (fz_process.h), so a write past `ulimit -f` lands here.
            return "file too large: the file-size limit (ulimit -f) is \(limit) bytes"
        }
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s).lowercasedFirst
    }
}

extension String {
    /// "No such file" -> "no such file": messages read as one sentence after a colon.
    package var lowercasedFirst: String {
        guard let f = first, f.isUppercase else { return self }
        let second = dropFirst().first
        if let second, second.isUppercase { return self }  // an acronym like "EXIF"
        return f.lowercased() + dropFirst()
    }
}
