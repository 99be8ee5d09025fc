import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// The local nginx of the URL tests (issue 52; Tools/http/local-nginx.sh says what each
/// location does): started once per test process on 127.0.0.1, stopped when the process ends.
/// Files are copied into its root as tests ask; `fetched` counts the bytes nginx sent for the
/// requests whose URI holds a tag, from its access log ($body_bytes_sent).
package struct LocalNginx: Sendable {
    package let dir: String
    package let http: Int
    package let https: Int
    package var ca: String { FileSystem.join(dir, "ca.pem") }

    /// The server, or nil without nginx (nginx-light, `make deps`).
    package static let shared: LocalNginx? = {
        guard CLI.shell("command -v nginx >/dev/null && command -v openssl >/dev/null") == 0 else { return nil }
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/http/local-nginx.sh")
        let ports = FileSystem.join(dir, "ports")
        guard CLI.shell("\(CLI.quote(script)) start \(CLI.quote(dir)) \(getpid()) > \(CLI.quote(ports)) 2>&1") == 0
        else { return nil }
        var http = 0
        var https = 0
        for field in CLI.read(ports).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let kv = field.split(separator: "=")
            guard kv.count == 2, let n = Int(kv[1]) else { continue }
            if kv[0] == "http" { http = n } else if kv[0] == "https" { https = n }
        }
        guard http > 0, https > 0 else { return nil }
        return LocalNginx(dir: dir, http: http, https: https)
    }()

    /// Copies `file` into the root as `name` (under `sub`, e.g. "a" for /changing/).
    package func serve(_ file: String, as name: String, in sub: String? = nil) {
        let folder = sub.map { FileSystem.join(FileSystem.join(dir, "root"), $0) } ?? FileSystem.join(dir, "root")
        _ = CLI.shell(
            "mkdir -p \(CLI.quote(folder)) && cp \(CLI.quote(file)) \(CLI.quote(FileSystem.join(folder, name)))")
    }

    /// http://127.0.0.1:PORT/PATH (or https).
    package func url(_ path: String, tls: Bool = false) -> String {
        "\(tls ? "https" : "http")://127.0.0.1:\(tls ? https : http)/\(path)"
    }

    /// Body bytes nginx sent for requests whose URI contains `tag`, and how many requests.
    package func fetched(_ tag: String) -> (bytes: Int, requests: Int) {
        var bytes = 0
        var requests = 0
        for line in CLI.read(FileSystem.join(dir, "access.log")).split(separator: "\n") where line.contains(tag) {
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let n = Int(fields[2]) else { continue }
            bytes += n
            requests += 1
        }
        return (bytes, requests)
    }
}
