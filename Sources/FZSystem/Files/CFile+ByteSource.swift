import CFZProcess

#if canImport(Glibc)
import Glibc
#endif

/// A stdio stream over a byte source (fz_cookie.h), for the C libraries that read a FILE*.
extension CFile {
    /// A read stream whose reads go to `source` (it is kept alive as long as the stream).
    package static func open(source: any ByteSource) -> Result<CFile, Errno> {
        let box = Unmanaged.passRetained(SourceBox(source)).toOpaque()
        guard let stream = fz_cookie_open(box, cookieRead, cookieSize, cookieClose) else {
            Unmanaged<SourceBox>.fromOpaque(box).release()
            return .failure(Errno(ENOMEM))
        }
        return .success(CFile(stream: stream))
    }
}

/// The source behind a cookie stream (a class: the C side holds one reference).
private final class SourceBox {
    let source: any ByteSource
    init(_ source: any ByteSource) { self.source = source }
}

private let cookieRead: fz_cookie_read_fn = { context, offset, buffer, size in
    let box = Unmanaged<SourceBox>.fromOpaque(context!).takeUnretainedValue()
    do throws(RemoteFailure) {
        return try box.source.read(
            at: Int(offset), into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
    } catch {
        return -1
    }
}

private let cookieSize: fz_cookie_size_fn = { context in
    Int64(Unmanaged<SourceBox>.fromOpaque(context!).takeUnretainedValue().source.size)
}

private let cookieClose: fz_cookie_close_fn = { context in
    Unmanaged<SourceBox>.fromOpaque(context!).release()
}
