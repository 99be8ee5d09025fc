import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// moto on 127.0.0.1 with SigV4 checked (Tools/s3/moto_server.py says what it adds in front
/// of moto), started once per test process for the S3 suites (issue 52: FZS3Tests in process,
/// S3CLITests through the binary) and gone when the test runner is: it watches our pid.
package struct LocalMoto: Sendable {
    package let port: Int
    package let key: String
    package let secret: String
    package let role: String
    package let webToken: String
    package let containerToken: String
    package var endpoint: String { "http://127.0.0.1:\(port)" }

    /// The server, or nil without moto (`pip install moto[server]`, `make deps`).
    package static let shared: LocalMoto? = {
        let dir = CLI.scratch()
        let file = dir + "/state.json"
        let started = CLI.shell(
            "\(CLI.python) \(CLI.quote(CLI.root + "/Tools/s3/moto_server.py")) \(file) \(getpid()) > \(dir)/log.txt 2>&1 &"
        )
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
                return LocalMoto(
                    port: Int(port), key: text("key"), secret: text("secret"), role: text("role"),
                    webToken: text("webToken"), containerToken: text("containerToken"))
            }
            usleep(100_000)
        }
        return nil
    }()

    /// The environment a client of the server runs with: its IAM user's keys, nothing from
    /// this machine's AWS files or instance metadata.
    package func environment(secret: String? = nil) -> [String] {
        [
            "AWS_ACCESS_KEY_ID=\(key)", "AWS_SECRET_ACCESS_KEY=\(secret ?? self.secret)", "AWS_REGION=us-east-1",
            "AWS_ENDPOINT_URL_S3=\(endpoint)", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
            "AWS_EC2_METADATA_DISABLED=true",
        ]
    }

    /// Runs Tools/s3/objects.py (boto3, Pillow: the independent client) with `arguments`;
    /// its stdout, or nil when it failed.
    package func objects(_ arguments: [String]) -> String? {
        let dir = CLI.scratch()
        let script = CLI.root + "/Tools/s3/objects.py"
        let command =
            (["env"] + environment() + [CLI.python, script] + arguments).map(CLI.quote).joined(separator: " ")
            + " > \(dir)/out 2> \(dir)/err"
        return CLI.shell(command) == 0 ? CLI.read(dir + "/out") : nil
    }
}
