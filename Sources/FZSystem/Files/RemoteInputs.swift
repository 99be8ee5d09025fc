/// Inputs named by URL (issue 52): which names are one, and who opens them. The command line
/// registers the HTTP opener at start (FZHTTP), so the readers below it read a URL through
/// `ByteSource` without depending on the network layer.
package enum RemoteInputs {
    /// How a URL input is read: the CA bundle and the memory its cache may take.
    package struct Settings: Sendable {
        /// `--ca-file`, else `SSL_CERT_FILE`; nil: the system's CAs.
        package var caFile: String?
        /// `--max-memory` in bytes (0: no limit).
        package var maxMemory: Int64
        package init(caFile: String? = nil, maxMemory: Int64) {
            self.caFile = caFile
            self.maxMemory = maxMemory
        }
    }

    package typealias Opener = @Sendable (String, Settings) throws(RemoteFailure) -> any ByteSource

    /// Set once at start, before any input is read.
    nonisolated(unsafe) package static var opener: Opener?

    /// Whether `name` is a URL forcezoom reads (http://, https:// any case, or s3://).
    package static func isURL(_ name: String) -> Bool {
        let lower = name.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || isS3(name)
    }

    /// Whether `name` is an `s3://bucket/key` URL (the case AWS's CLI takes: lower).
    package static func isS3(_ name: String) -> Bool { name.hasPrefix("s3://") }

    /// `url` as shown in messages and JSON: without userinfo (`user:secret@`), which never
    /// appears anywhere.
    package static func displayName(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let rest: Substring = url[scheme.upperBound...]
        let authorityEnd: String.Index = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        let head = String(url[..<scheme.upperBound])
        let tail = String(rest[rest.index(after: at)...])
        return head + tail
    }

    /// Opens `url` with the registered opener.
    package static func open(_ url: String, maxMemory: Int64, caFile: String?) throws(RemoteFailure) -> any ByteSource {
        guard let opener else {
            throw RemoteFailure(name: displayName(url), reason: "URLs are not read by this build", retryable: false)
        }
        return try opener(url, Settings(caFile: caFile, maxMemory: maxMemory))
    }
}
