import FZS3
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A test-only S3Transport: each request is one run of the curl command line tool with the
/// headers FZS3 computed (from a file, `-H @file`, so no header is on a command line), the URL
/// sent as is (`--path-as-is`) and the response's status, headers and body read back from
/// files. The real client is libcurl's (issue 52); this one only carries bytes, so what the
/// S3 tests check is FZS3's signing and parsing against a real server.
struct CurlTransport: S3Transport {
    let directory: String
    private static let counter = Atomic<Int>(0)

    init() { directory = CLI.scratch() }

    func send(_ request: S3HTTPRequest) throws -> S3HTTPResponse {
        let n = Self.counter.add(1, ordering: .relaxed).newValue
        let base = "\(directory)/\(n)"
        var lines = request.headers.map { "\($0.key): \($0.value)" }
        if request.headers["content-type"] == nil { lines.append("Content-Type:") }
        lines.append("Expect:")
        CLI.write(base + ".request-headers", Array((lines.joined(separator: "\n") + "\n").utf8))
        var arguments = [
            "curl", "-sS", "--path-as-is", "-H", "@\(base).request-headers", "-D", "\(base).headers", "-o",
            "\(base).body", "--max-time", String(Int(request.timeoutSeconds.rounded(.up))), "-w", "%{http_code}",
        ]
        arguments += request.method == "HEAD" ? ["--head"] : ["-X", request.method]
        switch request.body {
        case .empty:
            if request.method == "PUT" || request.method == "POST" {
                CLI.write(base + ".send", [])
                arguments += ["--data-binary", "@\(base).send"]
            }
        case .bytes(let bytes):
            CLI.write(base + ".send", bytes)
            arguments += ["--data-binary", "@\(base).send"]
        case .fileRange(let path, let offset, let length):
            // A part of a file: cut with dd (byte offsets), then sent as a file.
            let cut =
                "dd if=\(CLI.quote(path)) of=\(CLI.quote(base + ".send")) bs=65536 iflag=skip_bytes,count_bytes skip=\(offset) count=\(length) status=none"
            guard CLI.shell(cut) == 0 else { throw S3TransportFailure(.other, "cannot read \(path)") }
            arguments += ["--data-binary", "@\(base).send"]
        }
        arguments.append(request.url)
        let status = CLI.shell(
            arguments.map(CLI.quote).joined(separator: " ")
                + " > \(CLI.quote(base + ".status")) 2> \(CLI.quote(base + ".err"))")
        defer { _ = CLI.shell("rm -f \(CLI.quote(base)).*") }
        switch status {
        case 0: break
        case 28: throw S3TransportFailure(.timedOut, CLI.read(base + ".err"))
        case 7, 52, 55, 56: throw S3TransportFailure(.connection, CLI.read(base + ".err"))
        default: throw S3TransportFailure(.other, "curl exit \(status): \(CLI.read(base + ".err"))")
        }
        let body = access(base + ".body", F_OK) == 0 ? CLI.bytes(base + ".body") : []
        guard body.count <= request.maxBodyBytes else {
            throw S3TransportFailure(.tooLarge, "\(body.count) bytes, at most \(request.maxBodyBytes) asked")
        }
        return S3HTTPResponse(
            status: Int(CLI.read(base + ".status")) ?? 0, headers: Self.headers(CLI.read(base + ".headers")), body: body
        )
    }

    /// The last response's headers (after any `100 Continue`), names lower-cased. Split as
    /// bytes: "\r\n" is one Character, which String's split would not cut.
    static func headers(_ text: String) -> [String: String] {
        let lines = Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false).map {
            String(decoding: $0.last == 13 ? $0.dropLast() : $0, as: UTF8.self)
        }
        var out: [String: String] = [:]
        for line in lines {
            if line.hasPrefix("HTTP/") {
                out = [:]
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...].drop { $0 == " " })
            out[name] = out[name].map { "\($0), \(value)" } ?? value
        }
        return out
    }
}

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
            transport: CurlTransport(), endpoint: try S3Endpoint(url: state.endpoint), region: "us-east-1",
            credentials: S3CredentialCache(fixed: keys), retry: retry, clock: clock)
    }

    /// Creates a bucket (CreateBucket through FZS3's signing: a PUT of the bucket).
    static func bucket(_ client: S3Client, _ name: String) throws {
        try client.put(S3Location(bucket: name, key: ""), body: .empty)
    }
}
