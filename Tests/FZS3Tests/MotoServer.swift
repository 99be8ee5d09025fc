import FZHTTP
import FZS3
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// moto on 127.0.0.1 (Tools/s3/moto_server.py), started once for the suites that need it and
/// gone when the test runner is (it watches our pid).
enum MotoServer {
    struct State {
        let port: Int
        let key: String
        let secret: String
        let role: String
        let webToken: String
        let containerToken: String
        var endpoint: String { "http://127.0.0.1:\(port)" }
    }

    static let state: State? = {
        let dir = CLI.scratch()
        let file = dir + "/state.json"
        let started = CLI.shell(
            "\(CLI.python) \(CLI.root)/Tools/s3/moto_server.py \(file) \(getpid()) > \(dir)/log.txt 2>&1 &")
        guard started == 0 else { return nil }
        // moto's import takes seconds on a loaded machine: wait up to a minute for it to serve.
        for _ in 0..<600 {
            if access(file, F_OK) == 0, let json = JSONValue.object(CLI.read(file)),
                case .number(let port)? = json["port"],
                CLI.shell("curl -s -o /dev/null --max-time 2 http://127.0.0.1:\(Int(port))/moto-api/ 2>/dev/null") == 0
            {
                func text(_ key: String) -> String {
                    if case .string(let s)? = json[key] { return s }
                    return ""
                }
                return State(
                    port: Int(port), key: text("key"), secret: text("secret"), role: text("role"),
                    webToken: text("webToken"), containerToken: text("containerToken"))
            }
            usleep(100_000)
        }
        return nil
    }()

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
