/// Bytes read by range (issue 52): what a reader needs of an input that is not a file it can
/// map, such as an object behind a URL. The decoders never see one: `CFile.open(source:)`
/// gives the C libraries a stdio stream over it, and the readers that want a buffer ask for
/// the ranges they touch (`RemoteSource.ensure`). No decoder learns about HTTP.
package protocol ByteSource: AnyObject {
    /// The input as named in messages and JSON (a URL without userinfo).
    var name: String { get }
    /// The object's length in bytes.
    var size: Int { get }
    /// Copies up to `buffer.count` bytes from byte `offset` into `buffer`: how many (0 at
    /// or past the end).
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(RemoteFailure) -> Int
    /// The first failure a read met: a C library that saw only EIO reports it as truncated,
    /// and the reader gives this instead (the right words and exit code).
    var failure: RemoteFailure? { get }
}

/// A remote input that could not be read: the URL, what went wrong and whether trying again
/// later may help (a 503 or a timeout may; a 404 or 403 will not), which the exit code tells
/// a scheduler (README "Exit codes"; docs/urls.md).
public struct RemoteFailure: ForceZoomError, Equatable, Sendable {
    /// Exit status of a failure worth a retry: EX_TEMPFAIL (sysexits.h, 75).
    public static let retryExitCode: Int32 = 75

    /// The URL as shown (no userinfo).
    public let name: String
    public let reason: String
    public let retryable: Bool

    public init(name: String, reason: String, retryable: Bool) {
        self.name = name
        self.reason = reason
        self.retryable = retryable
    }

    public var exitCode: Int32 { retryable ? Self.retryExitCode : 1 }
    public var description: String { "\(name): \(reason)" }
}
