import FZSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// S3 requests over an `S3Transport`: each is signed with the current credentials (refreshed
/// before they expire, and once more if the store says they have), sent, and retried with
/// backoff when the store is busy or unreachable (`S3RetryPolicy`). Failures come back as
/// `S3Failure`, naming the `s3://` URL and never a credential.
public struct S3Client: Sendable {
    public let transport: any S3Transport
    public let endpoint: S3Endpoint
    public let region: String
    public let credentials: S3CredentialCache
    public var retry: S3RetryPolicy
    /// Seconds since 1970 that requests are signed with: injected so a skewed clock can be tested.
    public var clock: @Sendable () -> Int64
    /// Waits between retries: injected so tests need not sleep long.
    public var sleep: @Sendable (Double) -> Void

    public init(
        transport: any S3Transport, endpoint: S3Endpoint, region: String, credentials: S3CredentialCache,
        retry: S3RetryPolicy = S3RetryPolicy(), clock: @escaping @Sendable () -> Int64 = S3Client.systemClock,
        sleep: @escaping @Sendable (Double) -> Void = S3Client.systemSleep
    ) {
        self.transport = transport
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.retry = retry
        self.clock = clock
        self.sleep = sleep
    }

    public static let systemClock: @Sendable () -> Int64 = { Int64(time(nil)) }
    public static let systemSleep: @Sendable (Double) -> Void = { seconds in
        var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var left = timespec()
        while nanosleep(&wait, &left) != 0 && errno == EINTR { wait = left }
    }

    /// One S3 operation, signed and retried.
    struct Call {
        var method: String
        var location: S3Location
        var query: [(String, String)] = []
        var headers: [String: String] = [:]
        var body: S3Body = .empty
        /// The body's SHA-256 hex, or `UNSIGNED-PAYLOAD` (a body read from a file).
        var payloadHash: String = SigV4.emptyPayloadHash
        var maxBodyBytes: Int = 1 << 20
        /// Statuses that are an answer, not a failure (200, 206; 404 for "does it exist").
        var accept: Set<Int> = [200]
    }

    /// Sends `call`, retrying what is worth it; a status outside `accept` becomes an S3Failure.
    func perform(_ call: Call) throws(S3Failure) -> S3HTTPResponse {
        let name = call.location.description
        var attempt = 0
        var renewed = false
        while true {
            attempt += 1
            let now = clock()
            let keys = try credentials.current(now: now)
            let (host, path, base) = endpoint.address(call.location)
            let signer = SigV4(credentials: keys, region: region)
            let headers = signer.sign(
                method: call.method, host: host, path: path, query: call.query, headers: call.headers,
                payloadHash: call.payloadHash, now: now)
            let query = S3Encoding.query(call.query)
            let request = S3HTTPRequest(
                method: call.method, url: query.isEmpty ? base : "\(base)?\(query)", headers: headers, body: call.body,
                maxBodyBytes: call.maxBodyBytes, timeoutSeconds: retry.timeoutSeconds)
            let failure: S3Failure
            do {
                let response = try transport.send(request)
                if call.accept.contains(response.status) { return response }
                failure = S3Failure.from(response, url: name, credentials: keys, signedAt: now)
            } catch let error as S3TransportFailure {
                failure = Self.failure(error, url: name)
            } catch {
                failure = S3Failure(.other, url: name, "\(error)")
            }
            // Expired temporary credentials: fetch new ones once, then try again at once.
            if failure.kind == .credentials, !renewed, keys.expiration != nil {
                renewed = true
                credentials.invalidate()
                continue
            }
            guard failure.retryable, attempt < retry.attempts else {
                if failure.retryable {
                    throw S3Failure(
                        failure.kind, url: failure.url, code: failure.code, status: failure.status,
                        "\(failure.message); gave up after \(attempt) tries")
                }
                throw failure
            }
            sleep(retry.delay(attempt: attempt))
        }
    }

    static func failure(_ error: S3TransportFailure, url: String) -> S3Failure {
        switch error.kind {
        case .timedOut: S3Failure(.unavailable, url: url, "timed out: \(error.message)")
        case .connection: S3Failure(.unavailable, url: url, "connection failed: \(error.message)")
        case .tooLarge: S3Failure(.badResponse, url: url, "the answer was larger than asked: \(error.message)")
        case .other: S3Failure(.other, url: url, error.message)
        }
    }
}

/// How often and how long to retry a busy or unreachable store: the AWS SDKs' "standard"
/// mode (3 attempts; exponential backoff with full jitter, base 0.1 s... here 0.5 s, capped
/// at 20 s), with more attempts by default since a batch task has time to spare and a
/// failed task costs a scheduler's retry.
public struct S3RetryPolicy: Sendable, Equatable {
    /// Tries in all, the first included.
    public var attempts: Int
    public var baseSeconds: Double
    public var capSeconds: Double
    /// The transport's timeout for one request without progress.
    public var timeoutSeconds: Double

    public init(attempts: Int = 5, baseSeconds: Double = 0.5, capSeconds: Double = 20, timeoutSeconds: Double = 30) {
        self.attempts = max(1, attempts)
        self.baseSeconds = baseSeconds
        self.capSeconds = capSeconds
        self.timeoutSeconds = timeoutSeconds
    }

    /// The wait after try `attempt` (from 1): random in [0, min(cap, base * 2^(attempt-1))].
    public func delay(attempt: Int) -> Double {
        let ceiling = min(capSeconds, baseSeconds * Double(1 << min(attempt - 1, 20)))
        return Double.random(in: 0...ceiling)
    }
}

/// The credentials requests are signed with, resolved once through the chain and again before
/// they expire (five minutes' margin, as the SDKs refresh), shared by every request of a run.
public final class S3CredentialCache: Sendable {
    private let resolve: @Sendable (Int64) throws(S3Failure) -> S3Credentials
    private let cached = Mutex<S3Credentials?>(nil)

    public init(_ resolve: @escaping @Sendable (Int64) throws(S3Failure) -> S3Credentials) {
        self.resolve = resolve
    }

    /// Fixed credentials (tests, or keys given directly).
    public convenience init(fixed: S3Credentials) { self.init { _ throws(S3Failure) in fixed } }

    public func current(now: Int64) throws(S3Failure) -> S3Credentials {
        if let keys = cached.withLock({ $0 }), !keys.expires(within: 300, of: now) { return keys }
        let keys = try resolve(now)
        cached.withLock { $0 = keys }
        return keys
    }

    public func invalidate() { cached.withLock { $0 = nil } }
}
