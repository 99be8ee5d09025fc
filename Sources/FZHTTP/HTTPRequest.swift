/// One request as HTTPClient makes it, and what came back.
package struct HTTPRequest: Sendable {
    package var method = "GET"
    package var url: String
    /// "Name: value" lines.
    package var headers: [String] = []
    package var upload: [UInt8]?
    /// A body read from an open file instead: `length` bytes of `descriptor` from `offset`
    /// (pread as curl sends them: a multipart part is never held in memory).
    package var uploadFile: (descriptor: Int32, offset: Int64, length: Int)?
    /// Keep curl's own Content-Type of a POST body (off when the headers are signed).
    package var keepContentType = true
    /// A private CA bundle (--ca-file, or SSL_CERT_FILE); nil: the system's.
    package var caFile: String?
    package var connectTimeoutMs = 10_000
    /// Abort when under 1 KiB/s for this long (a stalled server).
    package var lowSpeedSeconds = 20
    package var totalTimeoutMs = 0
    /// Redirects followed before the request fails (5: a moved object and an https upgrade,
    /// not a loop).
    package var maxRedirects = 5
    /// Body bytes kept; the transfer stops past them.
    package var capacity: Int
    /// Body bytes dropped first (when the server answers a range request with 200).
    package var skip = 0
    /// Drop `skip` bytes whatever the status (not only from a 200).
    package var skipAlways = false

    package init(url: String, capacity: Int) {
        self.url = url
        self.capacity = capacity
    }
}

package struct HTTPResponse: Sendable {
    /// 0 when no response came.
    package let status: Int
    package let headers: HTTPHeaders
    package let body: [UInt8]
    /// CURLE_OK (0) or the failure.
    package let curlCode: Int32
    package let timedOut: Bool
    /// The body reached the capacity and the transfer was stopped.
    package let stopped: Bool
    /// Body bytes the server sent before the stop (the skipped ones too).
    package let bodySeen: Int
    package let redirects: Int
    /// curl's words for a failure.
    package let error: String
}
