import FZHTTP
import FZSystem
import TestSupport
import Testing

@testable import FZS3

#if canImport(Glibc)
import Glibc
#endif

/// FZS3 against a real S3 server on 127.0.0.1 that checks every signature: moto in server mode
/// with authentication on (Tools/s3/moto_server.py says why and what it adds), requests carried
/// by libcurl (FZHTTP's S3HTTPTransport, the one the command line uses). Put, get, ranges, head, odd keys, pagination, wrong credentials, a
/// clock 20 minutes off, multipart, throttling, a dead endpoint, endless listings. Adds about
/// 25 s on two busy cores: moto's start (~8 s) and ~250 curl runs; the multipart case moves 11 MiB.
@Suite(.serialized) struct S3ServerTests {
    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test("Put, get, a range and head: bytes and sizes as sent, an ETag pinned with If-Match")
    func roundTrip() throws {
        let client = try MotoServer.client()
        try MotoServer.bucket(client, "round-trip")
        let object = S3Location(bucket: "round-trip", key: "photos/IMG_0001.jpg")
        let bytes = Self.random(5000, seed: 1)
        let etag = try client.put(object, body: .bytes(bytes), contentType: "image/jpeg")
        #expect(etag == "\"\(Self.md5(bytes))\"")
        let whole = try client.get(object)
        #expect(whole.bytes == bytes)
        #expect(whole.totalSize == 5000)
        let part = try client.get(object, range: 100..<1124, ifMatch: whole.etag)
        #expect(part.bytes == Array(bytes[100..<1124]))
        #expect(part.offset == 100)
        #expect(part.totalSize == 5000)
        let info = try #require(try client.head(object))
        #expect(info.size == 5000)
        #expect(info.etag == whole.etag)
        #expect(try client.head(object.appending(".missing")) == nil)
        // Replaced between reads: If-Match fails rather than mixing two objects.
        try client.put(object, body: .bytes(Array(bytes.reversed())))
        let changed = #expect(throws: S3Failure.self) { try client.get(object, range: 0..<10, ifMatch: whole.etag) }
        #expect(changed?.message.contains("changed while it was read") == true, "\(String(describing: changed))")
    }

    @Test("Keys with spaces, %, +, unicode, ../ and // round-trip and list back exactly")
    func oddKeys() throws {
        let client = try MotoServer.client()
        try MotoServer.bucket(client, "odd-keys")
        let keys = [
            "a b/c d.jpg", "100%/x%20y.jpg", "plus+sign.jpg", "日本/ünïcödé ✓.jpg", "x/../y.jpg", "q?a=b&c#d.jpg",
            "tilde~and'quote\".jpg",
        ]
        for (index, key) in keys.enumerated() {
            try client.put(S3Location(bucket: "odd-keys", key: key), body: .bytes(Array(key.utf8) + [UInt8(index)]))
        }
        for (index, key) in keys.enumerated() {
            #expect(try client.get(S3Location(bucket: "odd-keys", key: key)).bytes == Array(key.utf8) + [UInt8(index)])
        }
        var listed: [String] = []
        try client.list(S3Location(bucket: "odd-keys", key: "")) { page in listed += page.objects.map(\.location.key) }
        #expect(listed == keys.sorted(by: S3Client.binaryOrder))
    }

    @Test("ListObjectsV2 pages with continuation tokens (max-keys 2), and one level with a delimiter")
    func pagination() throws {
        let client = try MotoServer.client()
        try MotoServer.bucket(client, "pages")
        let keys = (0..<7).map { "p/\($0).jpg" } + ["p/deep/x.jpg", "p/deep/y.jpg", "q/other.jpg"]
        for key in keys { try client.put(S3Location(bucket: "pages", key: key), body: .bytes([1])) }
        var pages: [[String]] = []
        try client.list(S3Location(bucket: "pages", key: "p/"), maxKeys: 2) {
            pages.append($0.objects.map(\.location.key))
        }
        #expect(pages.count == 5)
        #expect(pages.allSatisfy { $0.count <= 2 })
        #expect(pages.flatMap { $0 } == keys.filter { $0.hasPrefix("p/") }.sorted())
        var level: [String] = []
        var folders: [String] = []
        try client.list(S3Location(bucket: "pages", key: "p/"), delimiter: "/") { page in
            level += page.objects.map(\.location.key)
            folders += page.commonPrefixes
        }
        #expect(level.count == 7)
        #expect(folders == ["p/deep/"])
    }

    @Test("Wrong secret, unknown key, missing bucket and key: exit 1, the URL named, no secret shown")
    func refusals() throws {
        let good = try MotoServer.client()
        try MotoServer.bucket(good, "refusals")
        let object = S3Location(bucket: "refusals", key: "k.jpg")
        try good.put(object, body: .bytes([1, 2, 3]))
        let wrong = try MotoServer.client(secret: "not-the-secret-at-all")
        let signature = #expect(throws: S3Failure.self) { try wrong.get(object) }
        #expect(signature?.kind == .signature)
        #expect(signature?.code == "SignatureDoesNotMatch")
        #expect(signature?.exitCode == 1)
        let text = signature?.description ?? ""
        #expect(text.hasPrefix("s3://refusals/k.jpg: SignatureDoesNotMatch, HTTP 403"))
        #expect(!text.contains("not-the-secret"))
        #expect(!text.contains(MotoServer.state?.key ?? "-"))
        let missingBucket = #expect(throws: S3Failure.self) {
            try good.get(S3Location(bucket: "no-such-bucket", key: "k"))
        }
        #expect(missingBucket?.code == "NoSuchBucket")
        #expect(missingBucket?.exitCode == 1)
        let missingKey = #expect(throws: S3Failure.self) { try good.get(object.appending("x")) }
        #expect(missingKey?.code == "NoSuchKey")
        #expect(missingKey?.exitCode == 1)
    }

    @Test("A clock 20 minutes fast: RequestTimeTooSkewed, said as such, exit 1")
    func skewedClock() throws {
        let client = try MotoServer.client(clock: { S3Client.systemClock() + 20 * 60 })
        let failure = #expect(throws: S3Failure.self) { try client.get(S3Location(bucket: "round-trip", key: "x")) }
        #expect(failure?.kind == .clockSkew(minutes: 20))
        #expect(failure?.description.contains("the clock is 20 minutes ahead of the store's: fix the clock") == true)
        #expect(failure?.exitCode == 1)
    }

    @Test("Multipart above the threshold: 11 MiB in three parts reads back whole; a failed upload leaves no object")
    func multipart() throws {
        let client = try MotoServer.client()
        try MotoServer.bucket(client, "multipart")
        let dir = CLI.scratch()
        let bytes = Self.random(11 << 20, seed: 7)
        CLI.write(dir + "/big.bin", bytes)
        let plan = S3UploadPlan(threshold: 5 << 20, partSize: 5 << 20)
        #expect(plan.parts(size: Int64(bytes.count)).count == 3)
        let object = S3Location(bucket: "multipart", key: "big/file.bin")
        let etag = try client.upload(file: dir + "/big.bin", size: Int64(bytes.count), to: object, plan: plan)
        #expect(etag.hasSuffix("-3\""))
        let back = try client.get(object, maxBytes: 12 << 20)
        #expect(back.bytes == bytes)
        // A part that cannot be read (the file is shorter than said): aborted, nothing under the key.
        let broken = S3Location(bucket: "multipart", key: "big/broken.bin")
        #expect(throws: S3Failure.self) {
            try client.upload(file: dir + "/missing.bin", size: Int64(bytes.count), to: broken, plan: plan)
        }
        #expect(try client.head(broken) == nil)
        // Small files go in one PUT, with the SHA-256 the journal holds as S3's checksum.
        CLI.write(dir + "/small.bin", Array(bytes[0..<1000]))
        let sha = SHA256.hex(Array(bytes[0..<1000]))
        let small = S3Location(bucket: "multipart", key: "small.bin")
        try client.upload(file: dir + "/small.bin", size: 1000, to: small, plan: plan, sha256: sha)
        #expect(try client.get(small).bytes == Array(bytes[0..<1000]))
        // The store keeps the checksum and gives it back (moto does not verify it as S3 does).
        #expect(try client.head(small)?.sha256 == sha)
        // Not replacing: If-None-Match: * refuses a key that exists (exit 1), and writes a new one.
        CLI.write(dir + "/other.bin", Array(bytes[0..<1000].reversed()))
        let kept = #expect(throws: S3Failure.self) {
            try client.upload(file: dir + "/other.bin", size: 1000, to: small, plan: plan, overwrite: false)
        }
        #expect(kept?.kind == .exists)
        #expect(kept?.exitCode == 1)
        #expect(try client.get(small).bytes == Array(bytes[0..<1000]))
        try client.upload(
            file: dir + "/other.bin", size: 1000, to: small.appending(".new"), plan: plan, overwrite: false)
        #expect(try client.head(small.appending(".new"))?.size == 1000)
    }

    @Test("Throttling (503 SlowDown) is retried with backoff; past the tries, exit 75; a dead endpoint too")
    func retries() throws {
        let client = try MotoServer.client(retry: S3RetryPolicy(attempts: 4, baseSeconds: 0.01, capSeconds: 0.05))
        try MotoServer.bucket(client, "slowdown")
        try client.put(S3Location(bucket: "slowdown", key: "k"), body: .bytes([9]))
        #expect(try client.get(S3Location(bucket: "slowdown", key: "k")).bytes == [9])
        let once = try MotoServer.client(retry: S3RetryPolicy(attempts: 1))
        let throttled = #expect(throws: S3Failure.self) {
            for _ in 0..<3 { _ = try once.get(S3Location(bucket: "slowdown", key: "k")) }
        }
        #expect(throttled?.code == "SlowDown")
        #expect(throttled?.exitCode == 75)
        let keys = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "x", source: "the test")
        let dead = S3Client(
            transport: S3HTTPTransport(), endpoint: try S3Endpoint(url: "http://127.0.0.1:9"), region: "us-east-1",
            credentials: S3CredentialCache(fixed: keys), retry: S3RetryPolicy(attempts: 3, baseSeconds: 0.01))
        let refused = #expect(throws: S3Failure.self) { try dead.head(S3Location(bucket: "any-bucket", key: "k")) }
        #expect(refused?.exitCode == 75)
        #expect(refused?.message.contains("gave up after 3 tries") == true)
        // A server that accepts and never answers: curl's timeout (1 s), twice, then exit 75.
        let dir = CLI.scratch()
        _ = CLI.shell(
            "\(CLI.python) -c 'import socket,sys,time,os; s=socket.socket(); s.bind((\"127.0.0.1\",0)); s.listen(8); open(sys.argv[1],\"w\").write(str(s.getsockname()[1])); time.sleep(20)' \(dir)/port > /dev/null 2>&1 &"
        )
        var port = ""
        for _ in 0..<100 where port.isEmpty {
            usleep(100_000)
            port = CLI.read(dir + "/port")
        }
        let silent = S3Client(
            transport: S3HTTPTransport(), endpoint: try S3Endpoint(url: "http://127.0.0.1:\(port)"),
            region: "us-east-1",
            credentials: S3CredentialCache(fixed: keys),
            retry: S3RetryPolicy(attempts: 2, baseSeconds: 0.01, timeoutSeconds: 1))
        let timedOut = #expect(throws: S3Failure.self) { try silent.get(S3Location(bucket: "any-bucket", key: "k")) }
        #expect(timedOut?.exitCode == 75)
        #expect(timedOut?.message.hasPrefix("timed out") == true)
    }

    @Test("Endless listings end: a repeated continuation token, or a page cap")
    func endless() throws {
        let client = try MotoServer.client()
        let same = #expect(throws: S3Failure.self) {
            try client.list(S3Location(bucket: "endless-same", key: "")) { _ in }
        }
        #expect(same?.message.contains("same continuation token twice") == true)
        #expect(same?.exitCode == 1)
        var pages = 0
        let growing = #expect(throws: S3Failure.self) {
            try client.list(S3Location(bucket: "endless-growing", key: ""), pageCap: 6) { _ in pages += 1 }
        }
        #expect(pages == 6)
        #expect(growing?.message.contains("did not end after 6 pages") == true)
    }

    @Test(
        "The chain's remote sources against the server: web identity via STS, the container endpoint, IMDSv2, a profile"
    )
    func chain() throws {
        let state = try #require(MotoServer.state)
        let dir = CLI.scratch()
        CLI.write(dir + "/web-token", Array(state.webToken.utf8))
        CLI.write(dir + "/container-token", Array((state.containerToken + "\n").utf8))
        CLI.write(
            dir + "/credentials",
            Array("[batch]\naws_access_key_id = \(state.key)\naws_secret_access_key = \(state.secret)\n".utf8))
        let base = [
            "HOME": dir, "AWS_ENDPOINT_URL_S3": state.endpoint, "AWS_REGION": "us-east-1",
            "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:9",
        ]
        let sources: [([String: String], String)] = [
            (
                [
                    "AWS_WEB_IDENTITY_TOKEN_FILE": dir + "/web-token", "AWS_ROLE_ARN": state.role,
                    "AWS_ENDPOINT_URL_STS": state.endpoint,
                ],
                "web identity"
            ),
            (
                [
                    "AWS_CONTAINER_CREDENTIALS_FULL_URI": state.endpoint + "/container-credentials",
                    "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": dir + "/container-token",
                ], "the container endpoint"
            ),
            (["AWS_EC2_METADATA_SERVICE_ENDPOINT": state.endpoint], "EC2 instance role thumbs"),
            (["AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials", "AWS_PROFILE": "batch"], "profile batch"),
        ]
        let writer = try MotoServer.client()
        try MotoServer.bucket(writer, "chain")
        try writer.put(S3Location(bucket: "chain", key: "k"), body: .bytes([4, 2]))
        for (extra, source) in sources {
            let env = base.merging(extra) { $1 }
            let client = try S3Client.standard(transport: S3HTTPTransport(), environment: env)
            #expect(try client.get(S3Location(bucket: "chain", key: "k")).bytes == [4, 2], "\(source)")
            let keys = try client.credentials.current(now: S3Client.systemClock())
            #expect(keys.source.hasPrefix(source))
            #expect((keys.sessionToken != nil) == (source != "profile batch"))
        }
        // A wrong web identity token: STS refuses, and the token is not in the message.
        CLI.write(dir + "/bad-token", Array("forged".utf8))
        let env = base.merging([
            "AWS_WEB_IDENTITY_TOKEN_FILE": dir + "/bad-token", "AWS_ROLE_ARN": state.role,
            "AWS_ENDPOINT_URL_STS": state.endpoint,
        ]) { $1 }
        let client = try S3Client.standard(transport: S3HTTPTransport(), environment: env)
        let refused = #expect(throws: S3Failure.self) { try client.get(S3Location(bucket: "chain", key: "k")) }
        #expect(refused?.description.contains("InvalidIdentityToken") == true)
        #expect(refused?.description.contains("forged") == false)
    }

    /// MD5 hex of `bytes` through md5sum (S3's ETag of a single PUT), an independent tool.
    static func md5(_ bytes: [UInt8]) -> String {
        let dir = CLI.scratch()
        CLI.write(dir + "/b", bytes)
        _ = CLI.shell("md5sum \(dir)/b | cut -c1-32 > \(dir)/m")
        return String(CLI.read(dir + "/m").prefix(32))
    }
}
