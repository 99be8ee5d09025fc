/// One page of a listing: the objects, and the prefixes a delimiter rolled up ("folders").
public struct S3ListPage: Sendable, Equatable {
    public let objects: [S3ObjectInfo]
    public let commonPrefixes: [String]
}

extension S3Client {
    /// ListObjectsV2 of everything below `prefix` (`s3://bucket/photos/`), a page at a time to
    /// `each`, in S3's order (UTF-8 binary). Keys come URL-encoded (`encoding-type=url`), as
    /// the AWS CLI asks, so a key with control characters survives XML. An endless listing is
    /// an error, not a hang: a continuation token seen before, a page whose keys do not come
    /// after the last page's, a truncated page without a token, or more than `pageCap` pages
    /// (a million keys per 1,000 pages; the default allows 10^9 keys).
    /// - Parameter delimiter: `/` lists one level, with deeper keys as common prefixes.
    public func list(
        _ prefix: S3Location, delimiter: String? = nil, maxKeys: Int = 1000, pageCap: Int = 1_000_000,
        each: (S3ListPage) throws(S3Failure) -> Void
    ) throws(S3Failure) {
        let name = prefix.description
        var token: String?
        var seen: Set<String> = []
        var lastKey: String?
        for page in 1... {
            guard page <= pageCap else {
                throw S3Failure(
                    .badResponse, url: name,
                    "the listing did not end after \(pageCap) pages: a store that paginates forever, or list a narrower prefix"
                )
            }
            var query: [(String, String)] = [
                ("list-type", "2"), ("prefix", prefix.key), ("max-keys", String(maxKeys)), ("encoding-type", "url"),
            ]
            if let delimiter { query.append(("delimiter", delimiter)) }
            if let token { query.append(("continuation-token", token)) }
            let response = try perform(
                Call(
                    method: "GET", location: S3Location(bucket: prefix.bucket, key: ""), query: query,
                    maxBodyBytes: 16 << 20))
            let xml = S3XML(response.body)
            let encoded = xml.value("EncodingType") == "url"
            func key(_ text: String) throws(S3Failure) -> String {
                guard encoded else { return text }
                guard let plain = S3Encoding.decode(text, plusIsSpace: true) else {
                    throw S3Failure(.badResponse, url: name, "the listing has a key that is not URL-encoded UTF-8")
                }
                return plain
            }
            var objects: [S3ObjectInfo] = []
            for entry in xml.blocks("Contents") {
                guard let raw = entry.value("Key"), let size = entry.value("Size").flatMap({ Int64($0) }), size >= 0
                else {
                    throw S3Failure(.badResponse, url: name, "the listing has an entry without a key or size")
                }
                let k = try key(raw)
                objects.append(
                    S3ObjectInfo(
                        location: S3Location(bucket: prefix.bucket, key: k), size: size, etag: entry.value("ETag") ?? ""
                    ))
            }
            var prefixes: [String] = []
            for entry in xml.blocks("CommonPrefixes") {
                if let p = entry.value("Prefix") { prefixes.append(try key(p)) }
            }
            if let first = (objects.map(\.location.key) + prefixes).min(by: Self.binaryOrder), let lastKey,
                !Self.binaryOrder(lastKey, first)
            {
                throw S3Failure(
                    .badResponse, url: name,
                    "the listing went back to keys it had given (\(first)): a store that paginates forever")
            }
            if let last = (objects.map(\.location.key) + prefixes).max(by: Self.binaryOrder) { lastKey = last }
            try each(S3ListPage(objects: objects, commonPrefixes: prefixes))
            guard xml.value("IsTruncated") == "true" else { return }
            guard let next = xml.value("NextContinuationToken"), !next.isEmpty else {
                throw S3Failure(.badResponse, url: name, "a truncated listing page gave no continuation token")
            }
            guard seen.insert(next).inserted else {
                throw S3Failure(
                    .badResponse, url: name,
                    "the listing gave the same continuation token twice: a store that paginates forever")
            }
            token = next
        }
    }

    /// S3 lists keys in UTF-8 byte order, which is not String's `<`.
    static func binaryOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
