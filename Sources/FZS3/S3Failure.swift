import FZSystem

/// An S3 request that failed, phrased for the user: the `s3://` URL (never a credential), what
/// S3 said (its error code and message), and what to do. The exit code tells a scheduler what
/// is worth a retry (docs/clusters.md, "Exit codes for schedulers"):
/// - 1: retrying the same task cannot help (403 AccessDenied, 404 NoSuchBucket/NoSuchKey, a
///   signature or clock problem, bad input);
/// - 75 (`EX_TEMPFAIL` in sysexits.h): the store was busy or unreachable (503 SlowDown, 500,
///   timeouts, dropped connections) after FZS3's own retries with backoff: retry the task later;
/// - 2: bad usage (a malformed `s3://` URL or endpoint), before any request.
public struct S3Failure: ForceZoomError, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        case usage
        case accessDenied
        case notFound
        case signature
        /// The local clock is this many minutes off the store's (RequestTimeTooSkewed).
        case clockSkew(minutes: Int)
        case credentials
        /// 5xx, SlowDown, RequestTimeout, a timeout or a dropped connection: retried, then exit 75.
        case unavailable
        /// An answer that breaks the protocol (a listing that never ends, a malformed body).
        case badResponse
        /// An object is already under the key and the write asked not to replace it (412).
        case exists
        case other
    }

    /// The exit code for "temporary: retry later" (sysexits.h's EX_TEMPFAIL).
    public static let temporaryExitCode: Int32 = 75

    public let kind: Kind
    /// The object or bucket, `s3://bucket/key`, or the endpoint's URL.
    public let url: String
    /// S3's error code (`AccessDenied`), when it gave one.
    public let code: String?
    /// The HTTP status, when a response came.
    public let status: Int?
    public let message: String

    public init(_ kind: Kind, url: String, code: String? = nil, status: Int? = nil, _ message: String) {
        self.kind = kind
        self.url = url
        self.code = code
        self.status = status
        self.message = message
    }

    public var exitCode: Int32 {
        switch kind {
        case .usage: 2
        case .unavailable: Self.temporaryExitCode
        default: 1
        }
    }

    /// Worth another try within this run (FZS3's own backoff), as the AWS SDKs' standard retry mode.
    public var retryable: Bool { kind == .unavailable }

    public var description: String {
        let said = [code, status.map { "HTTP \($0)" }].compactMap { $0 }.joined(separator: ", ")
        return "\(url): \(said.isEmpty ? "" : "\(said): ")\(message)"
    }

    /// The failure an S3 error response stands for: its XML `<Error><Code>` and `<Message>`
    /// (none for a HEAD), the status, and the server's `date` against the clock that signed.
    static func from(
        _ response: S3HTTPResponse, url: String, credentials: S3Credentials?, signedAt: Int64
    ) -> S3Failure {
        let xml = S3XML(response.body)
        let code = xml.value("Code") ?? Self.defaultCode(response.status)
        let said = xml.value("Message") ?? ""
        let status = response.status
        func failure(_ kind: Kind, _ advice: String) -> S3Failure {
            S3Failure(kind, url: url, code: code, status: status, said.isEmpty ? advice : "\(said) (\(advice))")
        }
        let who = credentials.map { "\($0)" } ?? "no credentials"
        switch code {
        case "RequestTimeTooSkewed":
            let server =
                xml.value("ServerTime").flatMap(AmzDate.parseISO8601)
                ?? response.headers["date"].flatMap(AmzDate.parseHTTPDate)
            let minutes = server.map { Int((signedAt - $0) / 60) } ?? 0
            let which = minutes >= 0 ? "ahead of" : "behind"
            return S3Failure(
                .clockSkew(minutes: minutes), url: url, code: code, status: status,
                "the clock is \(abs(minutes)) minutes \(which) the store's: fix the clock (chrony, ntpd or systemd-timesyncd); SigV4 allows 15 minutes"
            )
        case "SignatureDoesNotMatch":
            return failure(.signature, "the secret key does not match \(who): check the credentials")
        case "InvalidAccessKeyId", "InvalidToken", "ExpiredToken", "TokenRefreshRequired":
            return failure(.credentials, "the store does not accept \(who): check or renew the credentials")
        case "AccessDenied", "AllAccessDisabled", "AccountProblem":
            return failure(.accessDenied, "\(who) may not do this: check the IAM policy and the bucket policy")
        case "NoSuchBucket":
            return failure(.notFound, "no such bucket: check the bucket name, the region and the endpoint")
        case "PreconditionFailed":
            return failure(.exists, "a condition of the request failed: the object exists or changed")
        case "NoSuchKey", "NotFound":
            return failure(.notFound, "no such object: check the key")
        case "SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "Throttling", "ThrottlingException":
            return failure(.unavailable, "the store is busy: retry later")
        default:
            if status >= 500 || status == 429 { return failure(.unavailable, "the store failed: retry later") }
            if status == 403 { return failure(.accessDenied, "refused for \(who)") }
            if status == 404 { return failure(.notFound, "not found") }
            return failure(.other, "the request failed")
        }
    }

    /// A code for a response without a body (HEAD): what S3 would have said.
    private static func defaultCode(_ status: Int) -> String? {
        switch status {
        case 403: "AccessDenied"
        case 404: "NotFound"
        case 503: "SlowDown"
        default: nil
        }
    }
}
