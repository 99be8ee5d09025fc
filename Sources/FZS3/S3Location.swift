/// `s3://bucket/key` (an object) or `s3://bucket/prefix/` (the objects below it), as the AWS
/// CLI reads them: the key is taken as written, not percent-decoded (`s3://b/a%20b` is the key
/// `a%20b`), so any key can be named.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    public let bucket: String
    /// The object's key, or a prefix; empty for the whole bucket.
    public let key: String

    public init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    /// Parses `s3://bucket[/key]`; nil when `text` is no S3 URL (a path, say).
    public static func parse(_ text: String) throws(S3Failure) -> S3Location? {
        guard text.hasPrefix("s3://") else { return nil }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        let key = String(rest.dropFirst(bucket.count + 1))
        guard Self.validBucket(bucket) else {
            throw S3Failure(
                .usage, url: text,
                "no valid bucket name (3 to 63 lower-case letters, digits, dots and hyphens): write s3://bucket/key")
        }
        return S3Location(bucket: bucket, key: key)
    }

    /// True when `text` starts `s3://`, before it is parsed.
    public static func isS3(_ text: String) -> Bool { text.hasPrefix("s3://") }

    /// A prefix to list rather than one object: the whole bucket or a key ending in `/`.
    public var isPrefix: Bool { key.isEmpty || key.hasSuffix("/") }

    /// The key `below` this prefix names.
    public func appending(_ below: String) -> S3Location { S3Location(bucket: bucket, key: key + below) }

    public var description: String { "s3://\(bucket)/\(key)" }

    /// S3's bucket naming rules, loosely (legacy upper-case and underscore names are refused
    /// by S3 today too): 3-63 characters of `a-z 0-9 . -`, starting and ending alphanumeric.
    static func validBucket(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        func alnum(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }
        return alnum(bytes[0]) && alnum(bytes[bytes.count - 1])
            && bytes.allSatisfy { alnum($0) || $0 == 0x2E || $0 == 0x2D }
    }
}

/// Where requests go: AWS's regional endpoint or an S3-compatible store's
/// (`AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`), and whether the bucket goes in the host
/// (virtual-hosted style, AWS's default) or the path (path style: asked for, or forced for
/// an IP address or localhost, which have no bucket subdomains, and for a dotted bucket over
/// https, whose name breaks the certificate's wildcard).
public struct S3Endpoint: Sendable, Equatable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int?
    /// A path the store is mounted under (`https://gw.example/s3`), usually empty.
    public let basePath: String
    public let pathStyle: Bool

    public init(url: String, pathStyle: Bool = false) throws(S3Failure) {
        let parts = url.split(separator: "://", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0] == "http" || parts[0] == "https" else {
            throw S3Failure(.usage, url: url, "no endpoint URL: give http://host[:port] or https://host[:port]")
        }
        scheme = parts[0]
        let authority = String(parts[1].prefix { $0 != "/" })
        var path = String(parts[1].dropFirst(authority.count))
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                throw S3Failure(.usage, url: url, "the endpoint's port is no number from 1 to 65535")
            }
            host = String(authority[..<colon])
            port = number
        } else {
            host = authority
            port = nil
        }
        guard !host.isEmpty, !authority.contains("@") else {
            throw S3Failure(.usage, url: url, "the endpoint URL names no host (and takes no user:password@)")
        }
        self.pathStyle = pathStyle || Self.isAddressOrLocal(host) || !basePath.isEmpty
    }

    /// AWS's endpoint for `region`.
    public static func aws(region: String, pathStyle: Bool = false) -> S3Endpoint {
        // The region comes from the environment or config: only a DNS label is put in a host.
        let safe = region.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        return (try? S3Endpoint(url: "https://s3.\(safe ? region : "us-east-1").amazonaws.com", pathStyle: pathStyle))!
    }

    public var description: String { "\(scheme)://\(authority(host))\(basePath)" }

    /// The host, path and URL for `location` (path already S3-encoded).
    public func address(_ location: S3Location) -> (host: String, path: String, base: String) {
        let virtual = !pathStyle && !(scheme == "https" && location.bucket.contains("."))
        let host = virtual ? "\(location.bucket).\(self.host)" : self.host
        let raw = virtual ? "/\(location.key)" : "\(basePath)/\(location.bucket)/\(location.key)"
        let path = S3Encoding.path(raw)
        let authority = authority(host)
        return (authority, path, "\(scheme)://\(authority)\(path)")
    }

    private func authority(_ host: String) -> String {
        guard let port, port != (scheme == "https" ? 443 : 80) else { return host }
        return "\(host):\(port)"
    }

    static func isAddressOrLocal(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
