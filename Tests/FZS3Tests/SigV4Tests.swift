import FZSystem
import TestSupport
import Testing

@testable import FZS3

/// SigV4 against AWS's published vectors (the S3 API reference's "Examples: Signature
/// Calculations" and the SigV4 test suite's get-vanilla cases) and against botocore's
/// S3SigV4Auth (Tools/s3/sign_reference.py) for keys with spaces, `%`, unicode and `../`.
/// Adds about a second (one python3 run).
@Suite struct SigV4Tests {
    static let docKeys = S3Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        source: "test")
    /// 2013-05-24T00:00:00Z, the S3 examples' time.
    static let docTime: Int64 = 1_369_353_600

    static func signature(_ headers: [String: String]) -> String {
        String(headers["authorization"]?.split(separator: "=").last ?? "")
    }

    @Test("The S3 reference's GET Object example (Range: bytes=0-9)")
    func getObject() {
        let signer = SigV4(credentials: Self.docKeys, region: "us-east-1")
        let headers = signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", query: [],
            headers: ["Range": "bytes=0-9"], payloadHash: SigV4.emptyPayloadHash, now: Self.docTime)
        #expect(Self.signature(headers) == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(
            headers["authorization"]?.hasPrefix(
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            ) == true)
        #expect(headers["x-amz-date"] == "20130524T000000Z")
    }

    @Test("The S3 reference's PUT Object example (a $ in the key, a signed date and storage class)")
    func putObject() {
        let signer = SigV4(credentials: Self.docKeys, region: "us-east-1")
        let body = Array("Welcome to Amazon S3.".utf8)
        let hash = Digest.sha256Hex(body)
        #expect(hash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let headers = signer.sign(
            method: "PUT", host: "examplebucket.s3.amazonaws.com", path: S3Encoding.path("/test$file.text"), query: [],
            headers: ["date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY"],
            payloadHash: hash, now: Self.docTime)
        #expect(Self.signature(headers) == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test("The S3 reference's GET Bucket Lifecycle and List Objects examples (query strings sorted)")
    func queries() {
        let signer = SigV4(credentials: Self.docKeys, region: "us-east-1")
        let lifecycle = signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/", query: [("lifecycle", "")],
            payloadHash: SigV4.emptyPayloadHash, now: Self.docTime)
        #expect(Self.signature(lifecycle) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
        let list = signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/",
            query: [("prefix", "J"), ("max-keys", "2")],
            payloadHash: SigV4.emptyPayloadHash, now: Self.docTime)
        #expect(Self.signature(list) == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test("The SigV4 test suite's get-vanilla and get-vanilla-query-order-key-case")
    func testSuite() {
        let keys = S3Credentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", source: "test")
        let signer = SigV4(credentials: keys, region: "us-east-1", service: "service")
        // 2015-08-30T12:36:00Z. The suite signs host and x-amz-date only: the canonical request is
        // built directly, since sign() always adds x-amz-content-sha256 as S3 requires.
        let headers = ["host": "example.amazonaws.com", "x-amz-date": "20150830T123600Z"]
        for (query, expected) in [
            ("", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
            (
                S3Encoding.query([("Param2", "value2"), ("Param1", "value1")]),
                "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"
            ),
        ] {
            let canonical = SigV4.canonicalRequest(
                method: "GET", path: "/", query: query, headers: headers, signed: ["host", "x-amz-date"],
                payloadHash: SigV4.emptyPayloadHash)
            let toSign =
                "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + Digest.sha256Hex(Array(canonical.utf8))
            let key = SigV4.signingKey(secret: keys.secretAccessKey, day: "20150830", "us-east-1", "service")
            #expect(Digest.hex(Digest.hmac(key: key, Array(toSign.utf8))) == expected)
        }
        _ = signer
    }

    @Test("S3's URI encoding: unreserved kept, space as %20, slash kept in paths only, dot segments kept")
    func encoding() {
        #expect(S3Encoding.path("/b/a b+c%d/../é~_.-") == "/b/a%20b%2Bc%25d/../%C3%A9~_.-")
        #expect(S3Encoding.encode("a/b=c&d", keepSlash: false) == "a%2Fb%3Dc%26d")
        #expect(S3Encoding.query([("b", "2"), ("a", "1"), ("A", "0")]) == "A=0&a=1&b=2")
        #expect(S3Encoding.decode("a%20b+c%2F%C3%A9", plusIsSpace: true) == "a b c/é")
        #expect(S3Encoding.decode("a%2") == nil)
        #expect(S3Encoding.decode("%FF") == nil)
    }

    @Test("Keys with spaces, %, unicode and ../, a session token and a query: as botocore signs them")
    func againstBotocore() throws {
        let keys = S3Credentials(
            accessKeyID: "ASIAEXAMPLEKEY123456", secretAccessKey: "s3cr3t/with+chars", sessionToken: "token/+=abc",
            source: "test")
        let signer = SigV4(credentials: keys, region: "eu-west-3")
        let host = "127.0.0.1:9000"
        let cases: [(String, String, [(String, String)], [String: String])] = [
            ("GET", "/bucket/photos/a b%c/IMG_0001.jpg", [], ["range": "bytes=0-1023"]),
            ("GET", "/bucket/日本/ünïcödé ✓.jpg", [], [:]),
            ("PUT", "/bucket/../x/./y//z.jpg", [], ["content-type": "image/jpeg"]),
            (
                "GET", "/bucket", [("list-type", "2"), ("prefix", "a b/é"), ("continuation-token", "1/+=x")],
                [:]
            ),
            ("POST", "/bucket/k", [("uploads", "")], [:]),
        ]
        var lines = ""
        var ours: [String] = []
        for (index, (method, raw, query, extra)) in cases.enumerated() {
            let path = S3Encoding.path(raw)
            let queryText = S3Encoding.query(query)
            let now = Int64(1_796_190_000 + index * 3_600)
            let payload = method == "PUT" ? SigV4.unsignedPayload : SigV4.emptyPayloadHash
            let headers = signer.sign(
                method: method, host: host, path: path, query: query, headers: extra, payloadHash: payload, now: now)
            ours.append(headers["authorization"] ?? "")
            let url = "http://\(host)\(path)" + (queryText.isEmpty ? "" : "?\(queryText)")
            let sent = extra.merging(["x-amz-security-token": keys.sessionToken ?? ""]) { a, _ in a }
            lines +=
                JSON.object([
                    ("method", .string(method)), ("url", .string(url)),
                    ("headers", .object(sent.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })),
                    ("payload", .string(payload)), ("now", .int(Int(now))), ("key", .string(keys.accessKeyID)),
                    ("secret", .string(keys.secretAccessKey)), ("token", .string(keys.sessionToken ?? "")),
                    ("region", .string("eu-west-3")),
                ]).description + "\n"
        }
        let dir = CLI.scratch()
        CLI.write(dir + "/cases.jsonl", Array(lines.utf8))
        let status = CLI.shell(
            "\(CLI.python) \(CLI.root)/Tools/s3/sign_reference.py < \(dir)/cases.jsonl > \(dir)/out.txt 2> \(dir)/err.txt"
        )
        #expect(status == 0, "\(CLI.read(dir + "/err.txt"))")
        let theirs = CLI.read(dir + "/out.txt").split(separator: "\n").map(String.init)
        #expect(theirs == ours)
    }
}
