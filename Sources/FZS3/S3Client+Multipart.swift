/// Uploading a finished file: one PutObject up to `S3UploadPlan.threshold`, a multipart upload
/// above it (CreateMultipartUpload, UploadPart per part read from the file, Complete), aborted
/// on any failure. Either way the object appears under its key whole or not at all: S3 makes a
/// PUT and a Complete atomic, and an aborted upload leaves no object and no parts billed.
public struct S3UploadPlan: Sendable, Equatable {
    /// Files up to this size go in one PUT: 16 MiB (the AWS CLI's is 8 MiB; one request costs
    /// less than three, and 16 MiB in flight is little).
    public var threshold: Int64
    /// Bytes per part: 16 MiB, grown so a file needs at most 10,000 parts (S3's limit) and never
    /// under 5 MiB (S3's least part but the last).
    public var partSize: Int64

    public static let minimumPart: Int64 = 5 << 20
    public static let maximumParts: Int64 = 10_000

    public init(threshold: Int64 = 16 << 20, partSize: Int64 = 16 << 20) {
        self.threshold = threshold
        self.partSize = max(partSize, Self.minimumPart)
    }

    /// The parts of a `size`-byte file as (offset, length), in order.
    public func parts(size: Int64) -> [(offset: Int64, length: Int64)] {
        let perPart = max(partSize, (size + Self.maximumParts - 1) / Self.maximumParts)
        return stride(from: Int64(0), to: size, by: Int(perPart)).map { ($0, min(perPart, size - $0)) }
    }
}

extension S3Client {
    /// Uploads `size` bytes of the file at `path` to `location`, in one PUT or in parts.
    /// - Parameters:
    ///   - sha256: the file's SHA-256 hex (the journal's), sent as S3's checksum on a single PUT.
    ///   - overwrite: false sends `If-None-Match: *` (on the PUT, or on CompleteMultipartUpload).
    /// - Returns: the object's ETag.
    @discardableResult
    public func upload(
        file path: String, size: Int64, to location: S3Location, plan: S3UploadPlan = S3UploadPlan(),
        contentType: String? = nil, sha256: String? = nil, overwrite: Bool = true
    ) throws(S3Failure) -> String {
        if size <= plan.threshold {
            return try put(
                location, body: .fileRange(path: path, offset: 0, length: size), contentType: contentType,
                sha256: sha256, overwrite: overwrite)
        }
        let name = location.description
        var headers: [String: String] = [:]
        if let contentType { headers["content-type"] = contentType }
        let created = try perform(Call(method: "POST", location: location, query: [("uploads", "")], headers: headers))
        guard let id = S3XML(created.body).value("UploadId"), !id.isEmpty else {
            throw S3Failure(.badResponse, url: name, "CreateMultipartUpload gave no UploadId")
        }
        do throws(S3Failure) {
            var etags: [String] = []
            for (index, part) in plan.parts(size: size).enumerated() {
                let response = try perform(
                    Call(
                        method: "PUT", location: location,
                        query: [("partNumber", String(index + 1)), ("uploadId", id)],
                        body: .fileRange(path: path, offset: part.offset, length: part.length),
                        payloadHash: SigV4.unsignedPayload))
                guard let etag = response.headers["etag"], !etag.isEmpty else {
                    throw S3Failure(.badResponse, url: name, "UploadPart \(index + 1) gave no ETag")
                }
                etags.append(etag)
            }
            let body = Array(Self.completion(etags).utf8)
            let done = try perform(
                Call(
                    method: "POST", location: location, query: [("uploadId", id)],
                    headers: overwrite ? [:] : ["if-none-match": "*"], body: .bytes(body),
                    payloadHash: Digest.sha256Hex(body)))
            // Complete can answer 200 and still fail: the error is in the body.
            if !S3XML(done.body).blocks("Error").isEmpty {
                throw S3Failure.from(
                    S3HTTPResponse(status: 500, headers: done.headers, body: done.body), url: name, credentials: nil,
                    signedAt: clock())
            }
            return S3XML(done.body).value("ETag") ?? done.headers["etag"] ?? ""
        } catch {
            try? abort(location, uploadID: id)
            throw error
        }
    }

    /// AbortMultipartUpload: the parts are dropped and nothing appears under the key.
    public func abort(_ location: S3Location, uploadID: String) throws(S3Failure) {
        _ = try perform(
            Call(method: "DELETE", location: location, query: [("uploadId", uploadID)], accept: [200, 204, 404]))
    }

    /// CompleteMultipartUpload's body.
    static func completion(_ etags: [String]) -> String {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for (index, etag) in etags.enumerated() {
            xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(escape(etag))</ETag></Part>"
        }
        return xml + "</CompleteMultipartUpload>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
