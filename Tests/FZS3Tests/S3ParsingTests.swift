import Testing

@testable import FZS3

/// S3's error bodies, addresses, dates, content ranges, upload plans and the small JSON the
/// credential endpoints answer: parsing alone, no server. Adds well under a second.
@Suite struct S3ParsingTests {
    static func error(_ code: String, _ status: Int, extra: String = "") -> S3Failure {
        let body =
            "<?xml version=\"1.0\"?><Error><Code>\(code)</Code><Message>It &amp; said &lt;so&gt;.</Message>\(extra)</Error>"
        return S3Failure.from(
            S3HTTPResponse(status: status, headers: [:], body: Array(body.utf8)), url: "s3://bucket/a b.jpg",
            credentials: S3Credentials(
                accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "SECRET", source: "the environment"),
            signedAt: 1_796_196_000)
    }

    @Test(
        "S3 error codes: kind and exit code (1: not worth a retry, 75: retry later)",
        arguments: [
            ("AccessDenied", 403, Int32(1)), ("NoSuchBucket", 404, 1), ("NoSuchKey", 404, 1),
            ("SignatureDoesNotMatch", 403, 1), ("InvalidAccessKeyId", 403, 1), ("SlowDown", 503, 75),
            ("InternalError", 500, 75), ("RequestTimeout", 400, 75), ("ServiceUnavailable", 503, 75),
            ("SomethingNew", 502, 75), ("SomethingNew", 400, 1),
        ])
    func codes(code: String, status: Int, exit: Int32) {
        let failure = Self.error(code, status)
        #expect(failure.exitCode == exit)
        #expect(failure.retryable == (exit == 75))
        #expect(failure.description.hasPrefix("s3://bucket/a b.jpg: \(code), HTTP \(status): It & said <so>."))
        #expect(!failure.description.contains("SECRET"))
        #expect(!failure.description.contains("AKIAIOSFODNN7"))
    }

    @Test("RequestTimeTooSkewed says how many minutes the clock is off, from the server's time")
    func skew() {
        // Signed at 2026-12-02T07:20:00Z; the server said 07:00:00.
        let failure = Self.error("RequestTimeTooSkewed", 403, extra: "<ServerTime>2026-12-02T07:00:00Z</ServerTime>")
        #expect(failure.kind == .clockSkew(minutes: 20))
        #expect(failure.description.contains("the clock is 20 minutes ahead of the store's: fix the clock"))
        #expect(failure.exitCode == 1)
        let behind = Self.error("RequestTimeTooSkewed", 403, extra: "<ServerTime>2026-12-02T07:45:30Z</ServerTime>")
        #expect(behind.kind == .clockSkew(minutes: -25))
        #expect(behind.description.contains("25 minutes behind the store's"))
    }

    @Test("A HEAD's error has no body: the status speaks")
    func bodiless() {
        let f = S3Failure.from(
            S3HTTPResponse(status: 403, headers: [:], body: []), url: "s3://b/k", credentials: nil, signedAt: 0)
        #expect(f.kind == .accessDenied)
        #expect(f.code == "AccessDenied")
    }

    @Test("Dates: x-amz-date stamps, ISO 8601 and HTTP dates, leap days")
    func dates() {
        #expect(AmzDate.stamp(0) == "19700101T000000Z")
        #expect(AmzDate.stamp(1_369_353_600) == "20130524T000000Z")
        #expect(AmzDate.stamp(951_782_400) == "20000229T000000Z")
        #expect(AmzDate.stamp(4_102_444_799) == "20991231T235959Z")
        #expect(AmzDate.parseISO8601("2013-05-24T00:00:00Z") == 1_369_353_600)
        #expect(AmzDate.parseISO8601("2013-05-24T00:00:00.000Z") == 1_369_353_600)
        #expect(AmzDate.parseISO8601("20130524T000000Z") == 1_369_353_600)
        #expect(AmzDate.parseHTTPDate("Fri, 24 May 2013 00:00:00 GMT") == 1_369_353_600)
        #expect(AmzDate.parseISO8601("2013-13-24T00:00:00Z") == nil)
        for t in stride(from: Int64(-86_400 * 800), to: 86_400 * 40_000, by: 86_400 * 97 + 3_601) {
            #expect(AmzDate.parseISO8601(AmzDate.stamp(t)) == t)
        }
    }

    @Test("s3:// URLs: bucket and key as written; bad bucket names are usage errors")
    func locations() throws {
        let object = try #require(try S3Location.parse("s3://photos/2024/a%20b.jpg"))
        #expect(object.bucket == "photos")
        #expect(object.key == "2024/a%20b.jpg")
        #expect(!object.isPrefix)
        #expect(try S3Location.parse("s3://photos/2024/")?.isPrefix == true)
        #expect(try S3Location.parse("s3://photos")?.key == "")
        #expect(try S3Location.parse("/tmp/x.jpg") == nil)
        for bad in ["s3://", "s3://ab/k", "s3://Upper/k", "s3://-x-/k", "s3://a_b_c/k"] {
            let failure = #expect(throws: S3Failure.self) { try S3Location.parse(bad) }
            #expect(failure?.exitCode == 2)
        }
    }

    @Test("Addresses: virtual host on AWS, path style for IPs, localhost, dotted buckets over https, or when asked")
    func addresses() throws {
        let key = S3Location(bucket: "photos", key: "a b/../é.jpg")
        let aws = S3Endpoint.aws(region: "eu-west-1")
        #expect(aws.address(key).base == "https://photos.s3.eu-west-1.amazonaws.com/a%20b/../%C3%A9.jpg")
        let dotted = S3Location(bucket: "my.photos", key: "k")
        #expect(aws.address(dotted).base == "https://s3.eu-west-1.amazonaws.com/my.photos/k")
        let local = try S3Endpoint(url: "http://127.0.0.1:9000")
        #expect(local.address(key).host == "127.0.0.1:9000")
        #expect(local.address(key).path == "/photos/a%20b/../%C3%A9.jpg")
        #expect(try S3Endpoint(url: "http://localhost:80").address(key).host == "localhost")
        let minio = try S3Endpoint(url: "https://minio.corp:443", pathStyle: true)
        #expect(minio.address(key).base == "https://minio.corp/photos/a%20b/../%C3%A9.jpg")
        #expect(throws: S3Failure.self) { try S3Endpoint(url: "http://user:pw@host") }
        #expect(throws: S3Failure.self) { try S3Endpoint(url: "http://host:99999") }
    }

    @Test("Content-Range is checked: bounds, order, total")
    func contentRange() {
        #expect(S3Client.contentRange("bytes 0-9/100")! == (0, 9, 100))
        #expect(S3Client.contentRange("bytes 9-0/100") == nil)
        #expect(S3Client.contentRange("bytes 0-100/100") == nil)
        #expect(S3Client.contentRange("bytes */100") == nil)
        #expect(S3Client.contentRange("items 0-9/100") == nil)
    }

    @Test("Upload plans: one PUT to the threshold, parts of 16 MiB, at most 10,000 parts, never under 5 MiB")
    func plans() {
        let plan = S3UploadPlan()
        let parts = plan.parts(size: 40 << 20)
        #expect(parts.map(\.length) == [16 << 20, 16 << 20, 8 << 20])
        #expect(parts.map(\.offset) == [0, 16 << 20, 32 << 20])
        let huge = plan.parts(size: 400 << 30)
        #expect(huge.count <= 10_000)
        #expect(huge.reduce(0) { $0 + $1.length } == 400 << 30)
        #expect(S3UploadPlan(partSize: 1).partSize == 5 << 20)
        #expect(S3Client.completion(["\"a&b\""]).contains("<ETag>&quot;a&amp;b&quot;</ETag>"))
    }

    @Test("XML: elements by name, entities, empty elements, prefixes of other names skipped")
    func xml() {
        let doc = S3XML(Array("<R><KeyCount>2</KeyCount><Key>a&amp;b&#x20;&#233;</Key><Key/><Key>c</Key></R>".utf8))
        #expect(doc.values("Key") == ["a&b é", "", "c"])
        #expect(doc.value("KeyCount") == "2")
        #expect(doc.value("Missing") == nil)
    }

    @Test("The credential endpoints' JSON: strings, escapes, nested values skipped")
    func json() {
        let text = #"{"Code":"Success","Nested":{"a":[1,{"b":"}"}]},"AccessKeyId":"ASIA\u0041","Secret":"a\"b","N":12}"#
        let members = FlatJSON.members(Array(text.utf8))
        #expect(members?["AccessKeyId"] == "ASIAA")
        #expect(members?["Secret"] == "a\"b")
        #expect(members?["N"] == "12")
        #expect(FlatJSON.members(Array("[1]".utf8)) == nil)
        #expect(FlatJSON.members(Array(#"{"a":"b""#.utf8)) == nil)
    }

    @Test("Base64 of checksums round-trips through hex")
    func base64() {
        let hex = SigV4.emptyPayloadHash
        let b64 = S3Client.base64OfHex(hex)
        #expect(b64 == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(S3Client.hexOfBase64(b64 ?? "") == hex)
        #expect(Digest.base64Decode("not base64!") == nil)
    }
}
