/// AWS Signature Version 4 for S3 (docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html):
/// the canonical request, the string to sign, the signing key chain and the `authorization`
/// header. S3's rules, which differ from other services': the path is encoded once and never
/// normalised (`a/../b` and `a//b` are keys, signed as they are sent), and the payload hash is
/// always sent as `x-amz-content-sha256` (`UNSIGNED-PAYLOAD` for a body read from a file).
public struct SigV4: Sendable {
    public var credentials: S3Credentials
    public var region: String
    public var service: String

    /// What `x-amz-content-sha256` says for a body not hashed before sending.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// SHA-256 of no bytes.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to send: `headers` (names lowered) plus `host`, `x-amz-date`,
    /// `x-amz-content-sha256`, `x-amz-security-token` for session credentials, and
    /// `authorization`, which signs all of them.
    /// - Parameters:
    ///   - path: the URL's path, already encoded (`S3Encoding.path`), as it is sent.
    ///   - query: the query's names and values, not encoded; sent as `S3Encoding.query` gives them.
    ///   - now: seconds since 1970 (the clock is injected, so a skewed clock can be tested).
    public func sign(
        method: String, host: String, path: String, query: [(String, String)], headers: [String: String] = [:],
        payloadHash: String, now: Int64
    ) -> [String: String] {
        var all: [String: String] = [:]
        for (name, value) in headers { all[name.lowercased()] = value }
        let stamp = AmzDate.stamp(now)
        all["host"] = host
        all["x-amz-date"] = stamp
        all["x-amz-content-sha256"] = payloadHash
        if let token = credentials.sessionToken { all["x-amz-security-token"] = token }
        let names = all.keys.sorted()
        let canonical = Self.canonicalRequest(
            method: method, path: path, query: S3Encoding.query(query), headers: all, signed: names,
            payloadHash: payloadHash)
        let scope = "\(stamp.prefix(8))/\(region)/\(service)/aws4_request"
        let toSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n\(Digest.sha256Hex(Array(canonical.utf8)))"
        let key = Self.signingKey(secret: credentials.secretAccessKey, day: String(stamp.prefix(8)), region, service)
        let signature = Digest.hex(Digest.hmac(key: key, Array(toSign.utf8)))
        all["authorization"] =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(names.joined(separator: ";")), Signature=\(signature)"
        return all
    }

    /// The canonical request: method, path, sorted encoded query, `name:value` lines of the
    /// signed headers (values trimmed, inner runs of spaces made one), their names, the payload hash.
    static func canonicalRequest(
        method: String, path: String, query: String, headers: [String: String], signed: [String], payloadHash: String
    ) -> String {
        let lines = signed.map { "\($0):\(Self.trimmed(headers[$0] ?? ""))\n" }.joined()
        return
            "\(method)\n\(path.isEmpty ? "/" : path)\n\(query)\n\(lines)\n\(signed.joined(separator: ";"))\n\(payloadHash)"
    }

    /// kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), service), "aws4_request").
    static func signingKey(secret: String, day: String, _ region: String, _ service: String) -> [UInt8] {
        var key = Digest.hmac(key: Array("AWS4\(secret)".utf8), Array(day.utf8))
        for part in [region, service, "aws4_request"] { key = Digest.hmac(key: key, Array(part.utf8)) }
        return key
    }

    /// A header value as signed: leading and trailing blanks dropped, inner runs made one space.
    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}

/// S3's URI encoding (SigV4's UriEncode): every byte but `A-Z a-z 0-9 - _ . ~` as `%XX` in
/// upper-case hex, a space as `%20` (never `+`), and `/` kept in a path but encoded in a query.
public enum S3Encoding {
    /// `/bucket/key` with each byte of the key encoded but its slashes: no dot segment removed.
    public static func path(_ raw: String) -> String { encode(raw, keepSlash: true) }

    /// `name=value&...` sorted by encoded name then value, as signed and as sent.
    public static func query(_ items: [(String, String)]) -> String {
        items.map { (encode($0.0, keepSlash: false), encode($0.1, keepSlash: false)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    public static func encode(_ text: String, keepSlash: Bool) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F, 0x2E, 0x7E:
                out.append(Character(Unicode.Scalar(byte)))
            case 0x2F where keepSlash: out.append("/")
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// The text of a percent-encoded string (`+` is a space when `plusIsSpace`, as in S3
    /// Inventory's keys and form-encoded queries); nil when an escape is malformed or the
    /// bytes are not UTF-8.
    public static func decode(_ text: String, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == 0x25 {
                guard utf8.count >= 2, let high = hexValue(utf8.removeFirst()), let low = hexValue(utf8.removeFirst())
                else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte == 0x2B && plusIsSpace ? 0x20 : byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
