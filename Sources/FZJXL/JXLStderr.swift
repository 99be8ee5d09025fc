import FZSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Debian's libjxl 0.7 writes its failure trail to stderr ("./lib/jxl/dec_group.cc:772:
/// JXL_FAILURE: ANS checksum failure." and the frames that returned it), several lines for
/// one corrupt file, while forcezoom says one line per failure. While libjxl runs, fd 2
/// points at a temporary file; when the last libjxl call in the process returns, fd 2 is
/// restored and every line in the file that is not libjxl's goes on to the real stderr:
/// messages other threads wrote meanwhile arrive a little later, never lost. forcezoom's own
/// messages and progress line do not go through 2 but `StandardError`, a copy made first.
enum JXLStderr {
    private struct State {
        var depth = 0
        var saved: Int32 = -1
        var file: UnsafeMutablePointer<FILE>?
    }

    private static let state = Mutex(State())

    /// Runs `body` (libjxl calls) with libjxl's messages held back and dropped.
    static func quiet<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        enter()
        defer { leave() }
        return try body()
    }

    private static func enter() {
        state.withLock { s in
            if s.depth == 0 {
                // forcezoom's own stderr is copied before 2 is first pointed elsewhere.
                _ = StandardError.descriptor
                if s.file == nil { s.file = tmpfile() }
                if let file = s.file {
                    s.saved = dup(2)
                    if s.saved >= 0 { _ = dup2(fileno(file), 2) }
                }
            }
            s.depth += 1
        }
    }

    private static func leave() {
        state.withLock { s in
            s.depth -= 1
            guard s.depth == 0, s.saved >= 0, let file = s.file else { return }
            _ = dup2(s.saved, 2)
            close(s.saved)
            s.saved = -1
            forward(fileno(file))
        }
    }

    /// Copies the held lines that are not libjxl's to stderr and empties the file.
    private static func forward(_ fd: Int32) {
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: size)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) }
        _ = ftruncate(fd, 0)
        _ = lseek(fd, 0, SEEK_SET)
        guard got > 0 else { return }
        for line in bytes[0..<got].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            if line.starts(with: Array("./lib/jxl/".utf8)) || line.starts(with: Array("lib/jxl/".utf8)) { continue }
            let out = Array(line) + [UInt8(ascii: "\n")]
            _ = out.withUnsafeBytes { write(2, $0.baseAddress, out.count) }
        }
    }
}
