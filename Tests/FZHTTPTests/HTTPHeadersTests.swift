import FZHTTP
import FZSystem
import Testing

/// What the range client reads of a response's headers, and what a URL shows (issue 52).
/// In process, no server: well under a second.
@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test func contentRangeIsReadAndCheckedForSense() {
        let h = HTTPHeaders(parsing: "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-199/1000\r\n\r\n")
        #expect(h.contentRange?.first == 100)
        #expect(h.contentRange?.last == 199)
        #expect(h.contentRange?.total == 1000)
        // A last byte at or past the total, a range backwards, another unit: not a range.
        for bad in ["bytes 0-1000/1000", "bytes 9-3/100", "items 0-1/2", "bytes 0-1", "bytes -1-3/9"] {
            #expect(HTTPHeaders(parsing: "HTTP/1.1 206 x\r\nContent-Range: \(bad)\r\n").contentRange == nil, "\(bad)")
        }
        #expect(HTTPHeaders(parsing: "HTTP/1.1 206 x\r\ncontent-range: bytes 0-9/*\r\n").contentRange?.total == nil)
    }

    @Test func namesAreLowerCasedAndRepeatsJoined() {
        let h = HTTPHeaders(parsing: "HTTP/1.1 200 OK\r\nETag: \"a\"\r\nVary: x\r\nvary: y\r\nContent-Length:  42 \r\n")
        #expect(h["etag"] == "\"a\"")
        #expect(h["vary"] == "x, y")
        #expect(h.contentLength == 42)
        #expect(h.validator == "\"a\"")
        #expect(HTTPHeaders(parsing: "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n").contentLength == nil)
    }

    @Test func userinfoNeverShows() {
        #expect(RemoteInputs.displayName("https://user:s3cret@example.com/a@b.jpg") == "https://example.com/a@b.jpg")
        #expect(RemoteInputs.displayName("http://example.com/x.jpg") == "http://example.com/x.jpg")
        #expect(RemoteInputs.isURL("HTTPS://example.com/x"))
        #expect(!RemoteInputs.isURL("https-notes.jpg"))
    }
}
