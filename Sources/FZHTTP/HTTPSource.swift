import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// An object behind an http:// or https:// URL, fetched by range (RFC 9110 14): what a
/// `RemoteSource` reads through (issue 52).
///
/// Each fetch asks `Range: bytes=a-b` and checks the answer: a 206 must carry the
/// Content-Range asked for, of the length first seen, and no more bytes than asked; the
/// validator (ETag, else Last-Modified) must stay the one of the first answer, and a strong
/// ETag is sent back as `If-Match`, so an object replaced mid-read is an error (412 or a new
/// ETag), never a mixed image. A 200 (a server that ignores ranges) is read from byte 0 and
/// stopped at the range's end. Failures worth a retry (5xx, 408, 429, a timeout, a dropped
/// connection) are tried 3 times in all, 0.25 s then 0.5 s apart; the rest fail at once.
package final class HTTPSource: RangeFetcher {
    package static let attempts = 3
    package let name: String
    private let url: String
    private let client: HTTPClient
    private let caFile: String?
    private let lowSpeedSeconds: Int
    package private(set) var honoursRanges = true
    private var validator: String?
    private var strongETag: String?
    private var total: Int?
    /// Body bytes the server sent, over every request (what a crop cost).
    package private(set) var bytesReceived = 0
    package private(set) var requests = 0

    package init(url: String, settings: RemoteInputs.Settings) throws(RemoteFailure) {
        self.url = url
        name = RemoteInputs.displayName(url)
        client = try HTTPClient(name: name)
        caFile = settings.caFile ?? Self.environment("SSL_CERT_FILE")
        // Seconds under 1 KiB/s before a stalled server is given up (20; the tests shorten it).
        lowSpeedSeconds =
            Self.environment("FORCEZOOM_HTTP_TIMEOUT").flatMap { Int($0) }.map { max(1, min($0, 3600)) } ?? 20
    }

    /// Registers the opener for http(s) and s3 URLs (at start, by the command line).
    package static func register() {
        RemoteInputs.opener = { url, settings throws(RemoteFailure) in
            if RemoteInputs.isS3(url) { return try S3Access.open(url, settings: settings) }
            return try RemoteSource(fetcher: HTTPSource(url: url, settings: settings), maxMemory: settings.maxMemory)
        }
    }

    package func fetch(_ range: Range<Int>) throws(RemoteFailure) -> (bytes: [UInt8], total: Int) {
        var attempt = 0
        while true {
            do throws(RemoteFailure) {
                return try fetchOnce(range)
            } catch  where error.retryable && attempt + 1 < Self.attempts {
                usleep(useconds_t(250_000 << attempt))
                attempt += 1
            }
        }
    }

    private func fetchOnce(_ range: Range<Int>) throws(RemoteFailure) -> (bytes: [UInt8], total: Int) {
        var q = HTTPRequest(url: url, capacity: range.count)
        q.headers = ["Range: bytes=\(range.lowerBound)-\(range.upperBound - 1)"]
        if let strongETag { q.headers.append("If-Match: \(strongETag)") }
        q.caFile = caFile
        q.lowSpeedSeconds = lowSpeedSeconds
        q.skip = range.lowerBound
        requests += 1
        let r = client.perform(q)
        bytesReceived += r.bodySeen
        if r.curlCode != 0 { throw transportFailure(r) }
        try checkValidator(r.headers, status: r.status)
        switch r.status {
        case 206: return try partial(r, asked: range)
        case 200: return try whole(r, asked: range)
        case 416 where range.lowerBound == 0: return ([], 0)  // an empty object
        default: throw statusFailure(r.status)
        }
    }

    private func partial(_ r: HTTPResponse, asked: Range<Int>) throws(RemoteFailure) -> (bytes: [UInt8], total: Int) {
        guard let cr = r.headers.contentRange, let size = cr.total ?? total else {
            throw fail("answered a range request with 206 but no usable Content-Range", retryable: false)
        }
        guard cr.first == asked.lowerBound, cr.last < asked.upperBound else {
            throw fail(
                "sent bytes \(cr.first)-\(cr.last) for a request of \(asked.lowerBound)-\(asked.upperBound - 1) (Content-Range)",
                retryable: false)
        }
        if r.stopped { throw fail("sent more bytes than its Content-Range said", retryable: false) }
        guard r.body.count == cr.last - cr.first + 1 else {
            throw fail(
                "sent \(r.body.count) bytes where its Content-Range said \(cr.last - cr.first + 1)", retryable: true)
        }
        try learn(total: size)
        return (r.body, size)
    }

    private func whole(_ r: HTTPResponse, asked: Range<Int>) throws(RemoteFailure) -> (bytes: [UInt8], total: Int) {
        honoursRanges = false
        // The object's length: Content-Length, else (no length, chunked) what came when it ended.
        guard let size = r.headers.contentLength ?? (r.stopped ? nil : r.bodySeen) else {
            throw fail("ignores range requests and gives no Content-Length", retryable: false)
        }
        if !r.stopped && r.bodySeen != size {
            throw fail("sent \(r.bodySeen) bytes where its Content-Length said \(size)", retryable: true)
        }
        try learn(total: size)
        let expected = max(0, min(asked.upperBound, size) - asked.lowerBound)
        guard r.body.count == expected else {
            throw fail("ended after \(r.bodySeen) of the \(size) bytes it announced", retryable: true)
        }
        return (r.body, size)
    }

    private func learn(total size: Int) throws(RemoteFailure) {
        if let total, total != size {
            throw fail("changed while being read (its length went from \(total) to \(size) bytes)", retryable: true)
        }
        total = size
    }

    private func checkValidator(_ headers: HTTPHeaders, status: Int) throws(RemoteFailure) {
        if status == 412 {
            throw fail("changed while being read (its ETag no longer matches: HTTP 412)", retryable: true)
        }
        guard status == 200 || status == 206 else { return }
        let seen = headers.validator
        if requests == 1 || validator == nil {
            validator = seen
            if let etag = headers["etag"], !etag.hasPrefix("W/") { strongETag = etag }
        } else if seen != validator {
            throw fail(
                "changed while being read (its ETag went from \(validator ?? "none") to \(seen ?? "none"))",
                retryable: true)
        }
    }

    private func statusFailure(_ status: Int) -> RemoteFailure {
        switch status {
        case 404, 410: fail("not found (HTTP \(status)); check the URL", retryable: false)
        case 401, 403: fail("access denied (HTTP \(status)); check the URL and its permissions", retryable: false)
        case 408, 429, 500...599:
            fail("the server failed (HTTP \(status)) \(Self.attempts) times; try again later", retryable: true)
        case 300...399: fail("redirects without a Location it can follow (HTTP \(status))", retryable: false)
        default: fail("the server answered HTTP \(status)", retryable: false)
        }
    }

    private func transportFailure(_ r: HTTPResponse) -> RemoteFailure {
        switch r.curlCode {
        case 28:  // CURLE_OPERATION_TIMEDOUT
            return fail("timed out (\(r.error)); try again later", retryable: true)
        case 47:  // CURLE_TOO_MANY_REDIRECTS
            return fail("redirected more than 5 times (a loop?): \(r.error)", retryable: false)
        case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91:  // TLS
            return fail(
                "TLS failed (\(r.error)); for a private CA give --ca-file FILE (or set SSL_CERT_FILE)", retryable: false
            )
        case 1, 3, 6:  // unsupported protocol, malformed URL, unresolved host
            return fail("cannot be fetched (\(r.error))", retryable: false)
        case 7, 18, 52, 55, 56, 92:  // connect, partial, empty reply, send/recv, HTTP/2 stream
            return fail("the connection failed (\(r.error)); try again later", retryable: true)
        default:
            return fail("the request failed (\(r.error))", retryable: false)
        }
    }

    private func fail(_ reason: String, retryable: Bool) -> RemoteFailure {
        RemoteFailure(name: name, reason: reason, retryable: retryable)
    }
}

extension HTTPSource {
    /// Whether an argument is an http(s) URL (the command line's checks; RemoteInputs says).
    package static func isURL(_ name: String) -> Bool { RemoteInputs.isURL(name) }
    /// A URL as messages show it: without userinfo.
    package static func displayName(_ url: String) -> String { RemoteInputs.displayName(url) }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }
}
