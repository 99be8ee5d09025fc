#if canImport(Glibc)
import Glibc
#endif

/// forcezoom's own standard error: a copy of descriptor 2 made before anything points 2
/// elsewhere. While libjxl runs, descriptor 2 is a temporary file that holds its failure
/// trail (FZJXL's `JXLStderr`); what forcezoom says meanwhile (the progress line, a warning
/// from the main thread) goes here, so it reaches the terminal at once and in its order: held
/// in that file, a progress line came out later with a newline of its own, stacked under the
/// next one (`\r\n\r\e[K`) instead of redrawn.
public enum StandardError {
    /// The copy (close-on-exec), or 2 itself when it cannot be made (2 closed at start).
    /// Made on first use; `JXLStderr` uses it before its first redirect.
    public static let descriptor: Int32 = {
        let copy = fcntl(2, F_DUPFD_CLOEXEC, 3)
        return copy >= 0 ? copy : 2
    }()

    /// Writes all of `text` (retrying short writes; a failure drops the rest).
    public static func write(_ text: String) {
        var t = text
        let fd = descriptor
        t.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
    }
}
