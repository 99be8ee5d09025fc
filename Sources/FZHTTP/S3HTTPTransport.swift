import FZS3
import FZSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// FZS3's requests over libcurl (issue 52): `S3Transport`'s contract (S3Transport.swift) kept
/// by `HTTPClient`. The URL goes as signed (`CURLOPT_PATH_AS_IS`: no `../` removed, no `%2F`
/// decoded), the signed headers as given and no Content-Type added, a body from memory or
/// streamed from the file (a multipart part is read as sent), and the answer's body bounded
/// by `maxBodyBytes` (more is `.tooLarge`, the transfer stopped). No redirects: S3 answers a
/// wrong region with a status FZS3 reads.
///
/// Connections: a pool of easy handles, one per thread at a time (a handle is taken for a
/// request and given back), each keeping its connections to the store alive, so a batch of
/// thousands of objects opens a connection per worker, not per object.
public final class S3HTTPTransport: S3Transport {
    private let idle = Mutex<[HTTPClient]>([])
    /// `SSL_CERT_FILE` or `AWS_CA_BUNDLE`: a private store's CA.
    private let caFile: String?

    public init(caFile: String? = nil) {
        self.caFile = caFile ?? HTTPSource.environment("AWS_CA_BUNDLE") ?? HTTPSource.environment("SSL_CERT_FILE")
    }

    /// The transport of this process (its pool shared by every input, output and listing).
    public static let shared = S3HTTPTransport()

    public func send(_ request: S3HTTPRequest) throws -> S3HTTPResponse {
        let client = try take()
        defer { idle.withLock { $0.append(client) } }
        var q = HTTPRequest(url: request.url, capacity: max(0, request.maxBodyBytes))
        q.method = request.method
        q.headers = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        q.keepContentType = request.headers["content-type"] != nil
        q.maxRedirects = 0
        q.caFile = caFile
        q.lowSpeedSeconds = max(1, Int(request.timeoutSeconds.rounded(.up)))
        var descriptor: Int32 = -1
        defer { if descriptor >= 0 { close(descriptor) } }
        switch request.body {
        case .empty:
            if request.method == "PUT" || request.method == "POST" { q.upload = [] }
        case .bytes(let bytes): q.upload = bytes
        case .fileRange(let path, let offset, let length):
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw S3TransportFailure(.other, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            q.uploadFile = (descriptor, offset, Int(length))
        }
        let r = client.perform(q)
        if r.curlCode != 0 { throw Self.failure(r) }
        if r.stopped {
            throw S3TransportFailure(.tooLarge, "more than \(request.maxBodyBytes) bytes came back")
        }
        return S3HTTPResponse(
            status: r.status, headers: r.headers.fields, body: request.method == "HEAD" ? [] : r.body)
    }

    private func take() throws(S3TransportFailure) -> HTTPClient {
        if let client = idle.withLock({ $0.popLast() }) { return client }
        do throws(RemoteFailure) {
            return try HTTPClient(name: "s3://")
        } catch {
            throw S3TransportFailure(.other, error.reason)
        }
    }

    /// curl's code as the kind FZS3's retry policy reads.
    static func failure(_ r: HTTPResponse) -> S3TransportFailure {
        switch r.curlCode {
        case 28: S3TransportFailure(.timedOut, r.error)  // CURLE_OPERATION_TIMEDOUT
        // connect, partial file, empty reply, send, receive
        case 7, 18, 52, 55, 56: S3TransportFailure(.connection, r.error)
        default: S3TransportFailure(.other, "\(r.error) (curl \(r.curlCode))")
        }
    }
}
