import FZSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// https:// and http:// inputs (issue 52) against a real nginx on 127.0.0.1 (TestSupport's
/// LocalNginx, Tools/http/local-nginx.sh): the same crop as from disk (byte-identical PNGs),
/// the bytes nginx counts, TLS on a CA made by the test, and each bad answer a server can give
/// as one line naming the URL with its exit code (1: not worth a retry; 75: worth one).
/// The lies nginx cannot tell are in HTTPInputCLITests+Lies.swift. Adds about 14 s alone
/// (25 s on a loaded machine), most of it the timeout, drop and 503 cases waiting out their retries.
@Suite(.serialized)
struct HTTPInputCLITests {
    static let nginx = LocalNginx.shared
    static let tiff = FileSystem.join(CLI.root, ".cache/formats/tiff/big-tiled.tif")
    static let jpeg = FileSystem.join(CLI.root, ".cache/photos/large.jpg")
    static let heic = FileSystem.join(CLI.root, ".cache/heicgrid/wide.heic")
    static let png = FileSystem.join(CLI.root, ".cache/photos/large.png")
    static let ready =
        nginx != nil && [tiff, jpeg, heic].allSatisfy { FileSystem.kind(of: $0) == .regular }
    static let why: Comment = "needs nginx and openssl (make deps) and make formats photos heicgrids"

    /// Each test's own tag in its URLs' query, so the access log tells its requests apart.
    static func tag(_ name: String) -> String { "t=\(name)-\(getpid())" }

    static func setUp() -> LocalNginx {
        let n = nginx!
        n.serve(tiff, as: "big-tiled.tif")
        n.serve(jpeg, as: "large.jpg")
        n.serve(heic, as: "wide.heic")
        return n
    }

    /// Runs forcezoom with `environment` before it (`NAME=value` words).
    static func run(_ arguments: [String], environment: [String] = []) -> CLIResult {
        let dir = CLI.scratch()
        let out = FileSystem.join(dir, "stdout")
        let err = FileSystem.join(dir, "stderr")
        let command =
            (["env"] + environment + [CLI.binary] + arguments).map(CLI.quote).joined(separator: " ")
            + " > \(CLI.quote(out)) 2> \(CLI.quote(err)) < /dev/null"
        let status = (system(command) >> 8) & 0xFF
        return CLIResult(status: status, stdout: CLI.read(out), stderr: CLI.read(err))
    }

    /// The crop of a URL is the crop of the file, byte for byte (PNG's encoder is
    /// deterministic), and nginx sent a fraction of the file for a tiled TIFF. The 611 KiB grid
    /// HEIC is taken whole in two requests: its tiles follow its header, and a reader going on
    /// within 1 MiB of the end takes the rest (RemoteSource.restWhole; the 2% of the bench's
    /// 200 MP grid is far from that).
    @Test(
        .enabled(if: ready, why),
        arguments: [
            ("big-tiled.tif", "7000,7000", 0.25), ("wide.heic", "200,100", 1.0), ("large.jpg", "300,200", 1.0),
        ])
    func cropOfAURLIsTheCropOfTheFile(_ name: String, _ at: String, _ most: Double) throws {
        let n = Self.setUp()
        let out = CLI.scratch()
        let tag = Self.tag("crop-\(name)")
        let url = n.url("img/\(name)?\(tag)")
        let remote = CLI.run(["crop", url, "--at", at, "--size", "400", "-o", FileSystem.join(out, "url.png")])
        try #require(remote.status == 0, "\(remote.stderr)")
        let local = CLI.run([
            "crop", FileSystem.join(FileSystem.join(n.dir, "root"), name), "--at", at, "--size", "400", "-o",
            FileSystem.join(out, "disk.png"),
        ])
        try #require(local.status == 0, "\(local.stderr)")
        #expect(CLI.bytes(FileSystem.join(out, "url.png")) == CLI.bytes(FileSystem.join(out, "disk.png")))
        let size = CLI.bytes(FileSystem.join(FileSystem.join(n.dir, "root"), name)).count
        let sent = n.fetched(tag)
        #expect(Double(sent.bytes) <= most * Double(size), "\(name): nginx sent \(sent.bytes) of \(size) bytes")
        #expect(sent.requests >= 1)
    }

    /// TLS is verified: against the test's CA with --ca-file or SSL_CERT_FILE, refused without.
    @Test(.enabled(if: ready, why))
    func tlsVerifiedAgainstTheGivenCA() throws {
        let n = Self.setUp()
        let url = n.url("img/large.jpg?\(Self.tag("tls"))", tls: true)
        let given = CLI.run(["info", url, "--ca-file", n.ca])
        #expect(given.status == 0 && given.stdout.contains("JPEG"), "\(given.stderr)")
        let env = Self.run(["info", url], environment: ["SSL_CERT_FILE=\(n.ca)"])
        #expect(env.status == 0, "\(env.stderr)")
        let refused = Self.run(["info", url], environment: ["SSL_CERT_FILE="])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("TLS") && refused.stderr.contains("--ca-file"), "\(refused.stderr)")
        #expect(refused.stderr.contains(url) && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }

    /// A server that ignores ranges (200, the whole body): the same crop, each transfer
    /// stopped once the reader had what it asked for (a crop near the top of a 26 MB PNG needs
    /// its first rows): nginx logs each 200 with fewer bytes sent than the file has.
    @Test(.enabled(if: ready && FileSystem.kind(of: png) == .regular, why))
    func aServerThatIgnoresRanges() throws {
        let n = Self.setUp()
        n.serve(Self.png, as: "large.png")
        let out = CLI.scratch()
        let tag = Self.tag("noranges")
        let a = CLI.run([
            "crop", n.url("noranges/large.png?\(tag)"), "--at", "300,200", "--size", "200", "-o",
            FileSystem.join(out, "a.png"),
        ])
        let b = CLI.run(["crop", Self.png, "--at", "300,200", "--size", "200", "-o", FileSystem.join(out, "b.png")])
        try #require(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(CLI.bytes(FileSystem.join(out, "a.png")) == CLI.bytes(FileSystem.join(out, "b.png")))
        let size = CLI.bytes(Self.png).count
        let log = CLI.read(FileSystem.join(n.dir, "access.log")).split(separator: "\n").filter { $0.contains(tag) }
        #expect(!log.isEmpty && log.allSatisfy { $0.split(separator: " ")[1] == "200" }, "\(log)")
        let sent = log.compactMap { Int($0.split(separator: " ")[2]) }
        #expect(sent.allSatisfy { $0 < size }, "nginx sent \(sent) of \(size) bytes per request")
    }

    /// A redirect is followed; a loop stops at the bound, exit 1, quickly.
    @Test(.enabled(if: ready, why))
    func redirectsAreBounded() {
        let n = Self.setUp()
        let moved = CLI.run(["info", n.url("moved/large.jpg?\(Self.tag("moved"))"), "--json"])
        #expect(moved.status == 0 && moved.stdout.contains("\"JPEG\""), "\(moved.stderr)")
        let clock = Stopwatch()
        let loop = CLI.run(["info", n.url("loop")])
        #expect(loop.status == 1 && loop.stderr.contains("redirected more than 5 times"), "\(loop.stderr)")
        #expect(clock.elapsed < 10)
    }

    /// The bad answers: each one line naming the URL, with its exit code.
    @Test(
        .enabled(if: ready, why),
        arguments: [
            ("img/missing.jpg", 1, "not found (HTTP 404)"), ("forbidden/large.jpg", 1, "access denied (HTTP 403)"),
            ("busy/large.jpg", 75, "HTTP 503"), ("drop/large.jpg", 75, "the connection failed"),
            ("img/page.jpg", 1, "not an image"), ("changing/big-tiled.tif", 75, "changed while being read"),
        ])
    func badAnswers(_ path: String, _ code: Int32, _ words: String) {
        let n = Self.setUp()
        n.serve(FileSystem.join(CLI.root, "README.md"), as: "page.jpg")
        // An object replaced after the first request: /changing/ serves a/ for a request from
        // byte 0 and b/ after it (another file, so another ETag).
        n.serve(Self.tiff, as: "big-tiled.tif", in: "a")
        n.serve(Self.jpeg, as: "big-tiled.tif", in: "b")
        let url = n.url(path)
        let clock = Stopwatch()
        let r = CLI.run([
            "crop", url, "--at", "7000,7000", "--size", "100", "-o", FileSystem.join(CLI.scratch(), "c.png"),
        ])
        #expect(r.status == code, "\(path): \(r.status) \(r.stderr)")
        #expect(r.stderr.contains(words) && r.stderr.contains(url), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(clock.elapsed < 20, "\(path): \(clock.elapsed) s")
    }

    /// A stalled server (100 bytes/s) times out, three tries in all: exit 75, bounded time.
    @Test(.enabled(if: ready, why))
    func aStalledServerTimesOut() {
        let n = Self.setUp()
        let url = n.url("slow/large.jpg")
        let clock = Stopwatch()
        let r = Self.run(["crop", url, "--at", "10,10", "-o", "/dev/null"], environment: ["FORCEZOOM_HTTP_TIMEOUT=1"])
        #expect(r.status == 75 && r.stderr.contains("timed out"), "\(r.stderr)")
        #expect(clock.elapsed < 20, "\(clock.elapsed) s")
    }

    /// Userinfo never shows; the URL, not a temporary path, is the input's name in JSON.
    @Test(.enabled(if: ready, why))
    func theURLIsTheNameAndCredentialsNeverShow() throws {
        let n = Self.setUp()
        let secret = n.url("img/missing.jpg").replacing("127.0.0.1", with: "someone:s3cr3t@127.0.0.1")
        let r = CLI.run(["info", secret])
        #expect(r.status == 1 && !r.stderr.contains("s3cr3t") && r.stderr.contains("127.0.0.1"), "\(r.stderr)")
        let url = n.url("img/wide.heic?\(Self.tag("json"))")
        let info = CLI.run(["info", url, "--json"])
        try #require(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("\"\(url)\""), "\(info.stdout)")
    }

    /// README's `forcezoom crop https://...` line, its host made the local nginx (TLS, the
    /// test's CA): the crop it says, 400x400.
    @Test(.enabled(if: ready, why))
    func theReadmeURLExampleRuns() throws {
        let n = Self.setUp()
        let readme = CLI.read(FileSystem.join(CLI.root, "README.md"))
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("$ forcezoom crop https://") })
        var words = Array(line.dropFirst(2).split(separator: " ").map(String.init).dropFirst())  // "forcezoom"
        try #require(words.count > 2 && words[0] == "crop")
        let name = try #require(words[1].split(separator: "/").last)
        words[1] = n.url("img/\(name)", tls: true)
        let dir = CLI.scratch()
        let r = CLI.run(words + ["--ca-file", n.ca], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let info = CLI.run(["info", FileSystem.join(dir, "detail.png")])
        #expect(info.stdout.contains("PNG 400x400"), "\(info.stdout)")
    }
}
