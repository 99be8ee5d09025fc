/// The one seam between FZS3 and the network (issue 52). FZS3 builds, signs and reads S3
/// requests; an HTTP client (the libcurl one, or a test's) only carries them. Kept small and
/// stable, so a client conforms in a few lines:
///
///     struct CurlS3: S3Transport {
///         func send(_ request: S3HTTPRequest) throws -> S3HTTPResponse { ... }
///     }
///
/// The contract, from the client's side:
/// - `request.url` is sent **byte for byte**: its path and query are already percent-encoded
///   and signed, so the client must not re-encode them nor remove dot segments (`a/../b` is an
///   S3 key, not a path to normalise: libcurl's `CURLOPT_PATH_AS_IS`, curl's `--path-as-is`).
/// - `request.headers` are sent as given (names lower case, as signed) and no other header
///   the signature covers may be added; `host` is among them. A client may add `user-agent`,
///   `accept`, `expect` or `content-length` (unsigned).
/// - `request.body` is the payload: nothing, bytes in memory, or a range of a file the client
///   reads itself (a multipart part is never copied into memory by FZS3).
/// - The response carries the status, the headers (names lower case; a repeated header's values
///   joined by ", ") and the body, which the client stops reading past `maxBodyBytes` (the
///   request throws `S3TransportFailure(.tooLarge)`): a server that sends more than asked costs
///   bounded memory. A HEAD has an empty body.
/// - A status is never an error: 403, 404 or 503 come back as a response, and FZS3 reads its
///   XML error body. `S3TransportFailure` is for when no response came (connection refused or
///   dropped, timeout, TLS), and says which kind, since a timeout is worth a retry.
public protocol S3Transport: Sendable {
    func send(_ request: S3HTTPRequest) throws -> S3HTTPResponse
}

/// One HTTP request, signed.
public struct S3HTTPRequest: Sendable, Equatable {
    /// `GET`, `HEAD`, `PUT`, `POST` or `DELETE`.
    public var method: String
    /// The absolute URL, encoded and signed (see the contract above).
    public var url: String
    /// Header names in lower case, values as signed.
    public var headers: [String: String]
    public var body: S3Body
    /// The most body bytes the response may carry: above, the transport throws `.tooLarge`.
    public var maxBodyBytes: Int
    /// Seconds without progress before the transport gives up with `.timedOut`.
    public var timeoutSeconds: Double

    public init(
        method: String, url: String, headers: [String: String], body: S3Body = .empty,
        maxBodyBytes: Int = 16 << 20, timeoutSeconds: Double = 30
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxBodyBytes = maxBodyBytes
        self.timeoutSeconds = timeoutSeconds
    }
}

/// A request's payload.
public enum S3Body: Sendable, Equatable {
    case empty
    case bytes([UInt8])
    /// `length` bytes of the file at `path` from `offset`: a part of a multipart upload.
    case fileRange(path: String, offset: Int64, length: Int64)

    /// The payload's length in bytes (`content-length`).
    public var count: Int64 {
        switch self {
        case .empty: 0
        case .bytes(let bytes): Int64(bytes.count)
        case .fileRange(_, _, let length): length
        }
    }
}

/// What the server answered.
public struct S3HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Names in lower case.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// No response came: why, so the retry policy can tell a timeout from a refusal.
public struct S3TransportFailure: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No progress within the request's timeout: retried.
        case timedOut
        /// Refused, reset or dropped mid-body: retried.
        case connection
        /// The body passed `maxBodyBytes`: not retried.
        case tooLarge
        /// TLS, a bad URL or anything else the next try would repeat: not retried.
        case other
    }
    public var kind: Kind
    /// The client's words (curl's error text), never with credentials in it.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
