import TestSupport
import Testing

@testable import FZS3

/// `--from` manifests: JSON lines, CSVs with a key/url header, S3 Inventory CSVs (no header,
/// URL-encoded keys), quoting, bounds. Adds well under a second.
@Suite struct ManifestTests {
    static func entries(_ text: String, _ kind: Manifest.Kind) throws -> [String] {
        try Manifest.entries(Array(text.utf8), kind: kind, name: "m")
    }

    @Test("Kinds from the name")
    func kinds() {
        #expect(Manifest.Kind(path: "a.JSONL") == .jsonLines)
        #expect(Manifest.Kind(path: "a.ndjson") == .jsonLines)
        #expect(Manifest.Kind(path: "inventory.csv") == .csv)
        #expect(Manifest.Kind(path: "list.txt") == .lines)
    }

    @Test("JSON lines: url, key, input or path members, JSON strings, plain lines, CRLF and blanks")
    func jsonLines() throws {
        let text = """
            {"url":"s3://b/a b.jpg","size":3}
            {"key":"photos/é.jpg"}\r
            {"input":"x/y.png","output":"t/y.jpg","status":"ok"}

            "quoted \\"name\\".jpg"
            plain/line.jpg
            """
        #expect(
            try Self.entries(text, .jsonLines) == [
                "s3://b/a b.jpg", "photos/é.jpg", "x/y.png", "quoted \"name\".jpg", "plain/line.jpg",
            ])
        let failure = #expect(throws: S3Failure.self) { try Self.entries("{\"size\":1}\n", .jsonLines) }
        #expect(failure?.message.contains("line 1") == true)
    }

    @Test("An S3 Inventory CSV: no header, bucket and URL-encoded key, more columns")
    func inventory() throws {
        let text = """
            "photos","2024/IMG%201.jpg","1024","2024-05-01T00:00:00.000Z","abc"
            "photos","caf%C3%A9+au+lait.jpg","5","2024-05-01T00:00:00.000Z","def"
            "photos","a%2Bb%25c/..%2Fd.jpg","5","x","y"
            """
        #expect(
            try Self.entries(text, .csv) == [
                "s3://photos/2024/IMG 1.jpg", "s3://photos/café au lait.jpg", "s3://photos/a+b%c/../d.jpg",
            ])
        #expect(throws: S3Failure.self) { try Self.entries("\"b\",\"bad%zz\"\n", .csv) }
    }

    @Test("A CSV with a header: the url column, or bucket and key, or key alone; quotes and commas inside")
    func headers() throws {
        #expect(
            try Self.entries("id,URL\n1,https://h/a.jpg\n2,\"s3://b/x,y.jpg\"\n", .csv) == [
                "https://h/a.jpg", "s3://b/x,y.jpg",
            ])
        #expect(try Self.entries("bucket,key,size\r\nb1,\"a \"\"q\"\".jpg\",3\r\n", .csv) == ["s3://b1/a \"q\".jpg"])
        #expect(try Self.entries("key\nk1\n\nk2", .csv) == ["k1", "k2"])
        #expect(try Self.entries("one.jpg\ntwo.jpg\n", .csv) == ["one.jpg", "two.jpg"])
    }

    @Test("Bounds: an unterminated quote and an over-long record are errors naming the manifest")
    func bounds() {
        let open = #expect(throws: S3Failure.self) { try Self.entries("a,\"b\nc\n", .csv) }
        #expect(open?.url == "m")
        let long = String(repeating: "x", count: Manifest.recordLimit + 1)
        #expect(throws: S3Failure.self) { try Self.entries(long, .csv) }
        #expect(throws: S3Failure.self) { try Self.entries(long, .lines) }
    }

    @Test("A manifest file: its kind from its name; a missing one names the path")
    func files() throws {
        let dir = CLI.scratch()
        CLI.write(dir + "/m.csv", Array("\"b\",\"k%20one.jpg\"\n".utf8))
        CLI.write(dir + "/m.jsonl", Array("{\"url\":\"s3://b/k\"}\n".utf8))
        #expect(try Manifest.read(dir + "/m.csv") == ["s3://b/k one.jpg"])
        #expect(try Manifest.read(dir + "/m.jsonl") == ["s3://b/k"])
        let missing = #expect(throws: S3Failure.self) { try Manifest.read(dir + "/none.csv") }
        #expect(missing?.description.hasPrefix(dir + "/none.csv: cannot read") == true)
    }
}
