#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FZShims

/// Why an output could not be written. Each message names the file and says what to do.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
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

    public var path: String {
        switch self {
        case .wouldOverwriteInput(let p), .cannotCreate(let p, _), .writeFailed(let p, _),
            .cannotRename(let p, _), .isDirectory(let p):
            return p
        }
    }

    public var reason: String {
        switch self {
        case .wouldOverwriteInput: return "output is the input file; forcezoom never overwrites an input (choose another -o)"
        case .cannotCreate(_, let r): return "cannot create output: \(r) (check the folder exists and is writable)"
        case .writeFailed(_, let r): return "write failed: \(r); no partial file was left"
        case .cannotRename(_, let r): return "cannot move the finished file into place: \(r)"
        case .isDirectory: return "output is a directory; give a file name"
        }
    }

    public var description: String { "\(path): \(reason)" }
}

/// An output written to a temporary file beside its target and renamed into place on
/// `commit`, so a failure or interruption never leaves a partial file; "-" is stdout.
public final class OutputFile {
    /// The final path ("-" for stdout).
    public let path: String
    let file: CFile
    private let temporaryPath: String?
    private var finished = false

    /// Creates the temporary file.
    /// - Parameters:
    ///   - path: where the output should end up, or "-" for standard output. An existing
    ///     device or FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written directly:
    ///     renaming a file over it would replace the device node itself.
    ///   - inputs: paths that must not be overwritten ("-": whatever file standard input
    ///     is redirected from).
    /// - Throws: `OutputError` when the path names an input or the folder is not writable.
    public init(path: String, protecting inputs: [String] = []) throws(OutputError) {
        self.path = path
        if path == "-" {
            file = CFile.standardOutput()
            temporaryPath = nil
            return
        }
        let kind = FileSystem.kind(of: path)
        if kind == .directory { throw .isDirectory(path: path) }
        for input in inputs {
            var same = FileSystem.sameFile(input, path)
            if input == "-", let stdin = FileSystem.identity(ofDescriptor: 0), let out = FileSystem.identity(of: path) {
                same = stdin == out
            }
            if same { throw .wouldOverwriteInput(path: path) }
        }
        if kind == .other {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            if fd < 0 { throw .cannotCreate(path: path, reason: Errno(errno).description) }
            switch CFile.open(writingTo: fd) {
            case .success(let f): file = f
            case .failure(let e):
                close(fd)
                throw .cannotCreate(path: path, reason: e.description)
            }
            temporaryPath = nil
            return
        }
        let dir = FileSystem.directory(of: path)
        var template = Array(FileSystem.join(dir, "." + FileSystem.basename(path) + ".fz-XXXXXX").utf8CString)
        // Signals stay blocked from mkstemp until the path is registered, so an interrupt
        // never finds a temp file the handler does not know about; a pending one is
        // handled (and the file removed) as soon as they are unblocked.
        var handled = sigset_t(), previous = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&handled, sig) }
        pthread_sigmask(SIG_BLOCK, &handled, &previous)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let created = errno
        if fd >= 0 { template.withUnsafeBufferPointer { fz_register_temp($0.baseAddress!) } }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        if fd < 0 { throw .cannotCreate(path: path, reason: Errno(created).description) }
        let tmp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkstemp makes 0600; outputs are ordinary files, so honour the umask as creat would.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        switch CFile.open(writingTo: fd) {
        case .success(let f): file = f
        case .failure(let e):
            close(fd)
            unlink(tmp)
            fz_unregister_temp(tmp)
            throw .cannotCreate(path: path, reason: e.description)
        }
        temporaryPath = tmp
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
        if let tmp = temporaryPath {
            let closeError = file.close()
            if closeError != 0 {
                discard()
                throw .writeFailed(path: path, reason: Errno(closeError).description)
            }
            if rename(tmp, path) != 0 {
                let e = errno
                discard()
                throw .cannotRename(path: path, reason: Errno(e).description)
            }
            fz_unregister_temp(tmp)
        }
        finished = true
    }

    /// Closes and removes the temporary file (nothing is left behind).
    public func discard() {
        guard !finished else { return }
        finished = true
        file.close()
        if let tmp = temporaryPath {
            unlink(tmp)
            fz_unregister_temp(tmp)
        }
    }
}
