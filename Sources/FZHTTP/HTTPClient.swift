import CFZCurl
import FZSystem

/// One libcurl easy handle (the one file that holds libcurl's pointers): requests made
/// through it reuse its connection and TLS session (keep-alive), so a source's range
/// requests after the first cost no new handshake. Not shared between threads: a caller
/// serialises its requests (RemoteSource's lock does).
package final class HTTPClient: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    /// - Throws: the missing-library failure (one line naming the package) when
    ///   libcurl.so.4 cannot be opened.
    package init(name: String) throws(RemoteFailure) {
        try Self.requireLibrary(name: name)
        guard let h = fz_curl_handle_new() else {
            throw RemoteFailure(name: name, reason: "libcurl could not make a handle", retryable: false)
        }
        handle = h
    }

    deinit { fz_curl_handle_free(handle) }

    /// libcurl.so.4 opens and has every function used (asked once; fz_loader.h).
    static func requireLibrary(name: String) throws(RemoteFailure) {
        var why = [CChar](repeating: 0, count: 512)
        guard why.withUnsafeMutableBufferPointer({ fz_curl_available($0.baseAddress, $0.count) }) == 0 else { return }
        let text = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        throw RemoteFailure(
            name: name,
            reason:
                "URLs are read through libcurl, which cannot be loaded (\(text)); install package libcurl4 (apt-get install libcurl4)",
            retryable: false)
    }

    /// Makes one request; the body bytes past `skip` (when the answer is 200, or always with
    /// `skipAlways`) up to `capacity` come back, and the transfer stops there.
    package func perform(_ request: HTTPRequest) -> HTTPResponse {
        // Not zeroed: curl writes what came (`received`), the rest is cut; a 16 MiB bound
        // costs only the pages the body touches.
        var body = [UInt8](unsafeUninitializedCapacity: max(request.capacity, 1)) { _, count in
            count = max(request.capacity, 1)
        }
        let response = UnsafeMutablePointer<fz_http_response>.allocate(capacity: 1)
        defer { response.deallocate() }
        let lines = request.headers.map { strdup($0) } + [nil]
        defer { for line in lines { free(line) } }
        let upload = request.upload ?? []
        let code: Int32 = request.method.withCString { method in
            request.url.withCString { url in
                withCaFile(request.caFile) { ca in
                    lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
                        upload.withUnsafeBufferPointer { up in
                            body.withUnsafeMutableBufferPointer { out in
                                var q = fz_http_request()
                                q.method = method
                                q.url = url
                                q.headers = headers.baseAddress
                                q.upload = request.upload == nil ? nil : up.baseAddress
                                q.upload_length = request.uploadFile.map { $0.length } ?? up.count
                                q.upload_fd = request.uploadFile?.descriptor ?? -1
                                q.upload_offset = request.uploadFile?.offset ?? 0
                                q.has_upload = request.upload != nil || request.uploadFile != nil ? 1 : 0
                                q.keep_content_type = request.keepContentType ? 1 : 0
                                q.ca_file = ca
                                q.connect_timeout_ms = request.connectTimeoutMs
                                q.low_speed_seconds = request.lowSpeedSeconds
                                q.total_timeout_ms = request.totalTimeoutMs
                                q.max_redirects = request.maxRedirects
                                q.body = out.baseAddress
                                q.capacity = request.capacity
                                q.skip = Int64(request.skip)
                                q.skip_only_on_200 = request.skipAlways ? 0 : 1
                                return fz_http_perform(handle, &q, response)
                            }
                        }
                    }
                }
            }
        }
        let r = response.pointee
        body.removeSubrange(min(r.received, body.count)...)
        let headerText = String(
            decoding: UnsafeRawBufferPointer(start: fz_http_response_headers(response), count: r.header_length),
            as: UTF8.self)
        let error = withUnsafeBytes(of: r.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return HTTPResponse(
            status: r.status, headers: HTTPHeaders(parsing: headerText), body: body, curlCode: code,
            timedOut: r.timed_out != 0, stopped: r.stopped != 0, bodySeen: Int(r.body_seen), redirects: r.redirects,
            error: error)
    }

    private func withCaFile<R>(_ path: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let path else { return body(nil) }
        return path.withCString { body($0) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
