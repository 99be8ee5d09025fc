/// A response's header lines, names in lower case (a repeated header's values joined by ", ").
package struct HTTPHeaders: Sendable, Equatable {
    package var fields: [String: String] = [:]

    package init(_ fields: [String: String] = [:]) { self.fields = fields }

    /// The header block of one response (its status line first).
    package init(parsing text: String) {
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {  // "\r\n" is one Character
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
    }

    package subscript(_ name: String) -> String? { fields[name] }

    /// Content-Range "bytes first-last/total" (RFC 9110 14.4); nil when absent or not that.
    package var contentRange: (first: Int, last: Int, total: Int?)? {
        guard let value = self["content-range"], value.hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6)
        let parts = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let ends = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Int(ends[0]), let last = Int(ends[1]), first >= 0, last >= first else {
            return nil
        }
        if parts[1] == "*" { return (first, last, nil) }
        guard let total = Int(parts[1]), total > last else { return nil }
        return (first, last, total)
    }

    /// Content-Length, when a valid number.
    package var contentLength: Int? { self["content-length"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } }

    /// The validator that names this version of the object: ETag, else Last-Modified.
    package var validator: String? { self["etag"] ?? self["last-modified"] }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
