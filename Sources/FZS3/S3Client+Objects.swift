import FZSystem

/// What S3 says about an object (HeadObject, a listing's `<Contents>`).
public struct S3ObjectInfo: Sendable, Equatable {
    public let location: S3Location
    public let size: Int64
    /// The entity tag, quotes kept as S3 sends it (`"9b2c..."`): compared, never parsed.
    public let etag: String
    /// The SHA-256 checksum S3 stored with it, as hex, when it was uploaded with one.
    public let sha256: String?

    public init(location: S3Location, size: Int64, etag: String, sha256: String? = nil) {
        self.location = location
        self.size = size
        self.etag = etag
        self.sha256 = sha256
    }
}

/// A range of an object's bytes (GetObject).
public struct S3ObjectBytes: Sendable, Equatable {
    public let bytes: [UInt8]
    /// The first byte's offset in the object.
    public let offset: Int64
    /// The object's whole size (from `Content-Range`, or the length of a whole-object GET).
    public let totalSize: Int64
    public let etag: String
}

extension S3Client {
    /// HeadObject: nil when there is no such object (404), so `--skip-existing` can ask.
    public func head(_ location: S3Location) throws(S3Failure) -> S3ObjectInfo? {
        let response = try perform(
            Call(method: "HEAD", location: location, headers: ["x-amz-checksum-mode": "ENABLED"], accept: [200, 404]))
        guard response.status == 200 else { return nil }
        guard let size = response.headers["content-length"].flatMap({ Int64($0) }), size >= 0 else {
            throw S3Failure(.badResponse, url: location.description, "HEAD gave no Content-Length")
        }
        let sha = response.headers["x-amz-checksum-sha256"].flatMap(Self.hexOfBase64)
        return S3ObjectInfo(location: location, size: size, etag: response.headers["etag"] ?? "", sha256: sha)
    }

    /// GetObject of `range` (all of it when nil, up to `maxBytes`). `ifMatch` pins the entity
    /// tag of an earlier read, so an object replaced mid-read fails (412) instead of mixing two.
    public func get(
        _ location: S3Location, range: Range<Int64>? = nil, ifMatch: String? = nil, maxBytes: Int = 64 << 20
    ) throws(S3Failure) -> S3ObjectBytes {
        let name = location.description
        var headers: [String: String] = [:]
        if let range {
            guard range.lowerBound >= 0, !range.isEmpty else {
                throw S3Failure(.usage, url: name, "an empty or negative byte range was asked for")
            }
            headers["range"] = "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
        }
        if let ifMatch, !ifMatch.isEmpty { headers["if-match"] = ifMatch }
        // Room for an error's XML body too, however small the range: the 206 is checked below.
        let limit = max(64 << 10, range.map { Int(min(Int64(maxBytes), $0.upperBound - $0.lowerBound)) } ?? maxBytes)
        let response: S3HTTPResponse
        do {
            response = try perform(
                Call(method: "GET", location: location, headers: headers, maxBodyBytes: limit, accept: [200, 206]))
        } catch let failure where failure.status == 412 {
            throw S3Failure(
                .badResponse, url: name, code: failure.code, status: 412,
                "the object changed while it was read (its ETag is no longer \(ifMatch ?? "")): read it again")
        }
        let etag = response.headers["etag"] ?? ""
        if response.status == 206 {
            guard let (first, last, total) = response.headers["content-range"].flatMap(Self.contentRange),
                let range, first == range.lowerBound, last - first + 1 == Int64(response.body.count),
                last < range.upperBound
            else {
                throw S3Failure(
                    .badResponse, url: name, status: 206, "the Content-Range does not match the bytes asked for or sent"
                )
            }
            return S3ObjectBytes(bytes: response.body, offset: first, totalSize: total, etag: etag)
        }
        // 200: the whole object (no range asked, or a store that ignores ranges): cut the range.
        let total = Int64(response.body.count)
        guard let range else { return S3ObjectBytes(bytes: response.body, offset: 0, totalSize: total, etag: etag) }
        let lower = Int(min(range.lowerBound, total))
        let upper = Int(min(range.upperBound, total))
        return S3ObjectBytes(
            bytes: Array(response.body[lower..<upper]), offset: Int64(lower), totalSize: total, etag: etag)
    }

    /// PutObject of `body`: bytes in memory are hashed and signed; a file range is sent as
    /// `UNSIGNED-PAYLOAD` (TLS guards it in transit) with `sha256` as S3's checksum header when
    /// given, so the store verifies what it stored. With `overwrite` false it sends
    /// `If-None-Match: *`: an object already under the key (another task's, `--skip-existing`
    /// racing) makes it fail with `.exists` instead of replacing it. Returns the new ETag.
    @discardableResult
    public func put(
        _ location: S3Location, body: S3Body, contentType: String? = nil, sha256: String? = nil,
        overwrite: Bool = true
    ) throws(S3Failure) -> String {
        var headers: [String: String] = [:]
        if let contentType { headers["content-type"] = contentType }
        if !overwrite { headers["if-none-match"] = "*" }
        var hash = SigV4.unsignedPayload
        if case .bytes(let bytes) = body { hash = Digest.sha256Hex(bytes) }
        if let checksum = (sha256 ?? (hash == SigV4.unsignedPayload ? nil : hash)).flatMap(Self.base64OfHex) {
            headers["x-amz-checksum-sha256"] = checksum
            headers["x-amz-sdk-checksum-algorithm"] = "SHA256"
        }
        do throws(S3Failure) {
            let response = try perform(
                Call(method: "PUT", location: location, headers: headers, body: body, payloadHash: hash))
            return response.headers["etag"] ?? ""
        } catch let failure where !overwrite && failure.status == 412 {
            throw S3Failure(
                .exists, url: location.description, code: failure.code, status: 412,
                "an object is already under this key, and it was not to be replaced")
        }
    }

    /// DeleteObject (a 404 is no error: the object is gone either way).
    public func delete(_ location: S3Location) throws(S3Failure) {
        _ = try perform(Call(method: "DELETE", location: location, accept: [200, 204, 404]))
    }

    /// `bytes a-b/total` → (a, b, total).
    static func contentRange(_ value: String) -> (Int64, Int64, Int64)? {
        guard value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/")
        let bounds = parts.first?.split(separator: "-") ?? []
        guard parts.count == 2, bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]),
            let total = Int64(parts[1]), first <= last, last < total
        else { return nil }
        return (first, last, total)
    }

    static func base64OfHex(_ hex: String) -> String? {
        guard hex.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return String(decoding: Base64.encode(Digest.bytes(hex: hex)), as: UTF8.self)
    }

    static func hexOfBase64(_ text: String) -> String? { Digest.base64Decode(text).map(Digest.hex) }
}
