import FZHTTP
import FZS3
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The S3 suites' client of moto on 127.0.0.1 (TestSupport's LocalMoto).
enum MotoServer {
    /// The server (TestSupport's LocalMoto, shared with the end-to-end S3 suite).
    static var state: LocalMoto? { LocalMoto.shared }

    /// A client of the server with its IAM user's keys, path style, quick retries.
    static func client(
        secret: String? = nil, clock: @escaping @Sendable () -> Int64 = S3Client.systemClock,
        retry: S3RetryPolicy = S3RetryPolicy(attempts: 3, baseSeconds: 0.05, capSeconds: 0.2, timeoutSeconds: 20)
    ) throws -> S3Client {
        let state = try #require(Self.state, "moto did not start (pip install 'moto[server]')")
        let keys = S3Credentials(accessKeyID: state.key, secretAccessKey: secret ?? state.secret, source: "the test")
        return S3Client(
            transport: S3HTTPTransport(), endpoint: try S3Endpoint(url: state.endpoint), region: "us-east-1",
            credentials: S3CredentialCache(fixed: keys), retry: retry, clock: clock)
    }

    /// Creates a bucket (CreateBucket through FZS3's signing: a PUT of the bucket).
    static func bucket(_ client: S3Client, _ name: String) throws {
        try client.put(S3Location(bucket: name, key: ""), body: .empty)
    }
}
