import FZSystem

/// `--from` manifests beyond one path a line (issue 52): what a listing or an inventory gives.
/// - `.jsonl`/`.ndjson`: a JSON object a line, its `url`, `key`, `input` or `path` member
///   (the first present), or a JSON string; a line that is neither is taken as written.
/// - `.csv`: with a header row naming a `url` or `key` column (case ignored; `bucket` and `key`
///   together give `s3://bucket/key`), as Athena and Parquet-to-CSV exports write them; without
///   one, an S3 Inventory report: no header, `"bucket","key",...` with the key URL-encoded
///   (`+` a space), read back to `s3://bucket/key`; a one-column CSV is a key or URL a row.
/// RFC 4180 quoting (`""` inside quotes), CRLF or LF, blank lines skipped. A key is returned as
/// written (the caller joins it to its prefix); a record longer than `recordLimit` or a JSON
/// line without any of the members is an error naming the manifest and the line.
public enum Manifest {
    public enum Kind: Sendable, Equatable {
        case lines, jsonLines, csv

        /// The kind a manifest's name says: `.jsonl`, `.ndjson`, `.json` / `.csv` / anything else.
        public init(path: String) {
            let lower = path.lowercased()
            if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".json") {
                self = .jsonLines
            } else if lower.hasSuffix(".csv") {
                self = .csv
            } else {
                self = .lines
            }
        }
    }

    /// The longest record: a URL of a 1024-byte key, percent-encoded, with room to spare.
    public static let recordLimit = 16 << 10

    /// The most bytes of a manifest: the limit of thumb's `--from` lists.
    public static let byteLimit = 64 << 20

    /// The entries of the manifest at `path`, its kind from its name.
    public static func read(_ path: String) throws(S3Failure) -> [String] {
        let file: CFile
        switch CFile.open(readingFrom: path) {
        case .success(let f): file = f
        case .failure(let e): throw S3Failure(.other, url: path, "cannot read the manifest: \(e)")
        }
        defer { _ = file.close() }
        guard let bytes = file.readAll(limit: byteLimit) else {
            throw S3Failure(.usage, url: path, "the manifest is larger than \(byteLimit >> 20) MiB: split it")
        }
        return try entries(bytes, kind: Kind(path: path), name: path)
    }

    /// The entries of a manifest's bytes.
    public static func entries(_ bytes: [UInt8], kind: Kind, name: String) throws(S3Failure) -> [String] {
        switch kind {
        case .lines:
            return try lines(bytes, name: name).map { String(decoding: $0.1, as: UTF8.self) }
        case .jsonLines:
            var out: [String] = []
            for (number, line) in try lines(bytes, name: name) {
                let text = String(decoding: line, as: UTF8.self)
                if line.first == UInt8(ascii: "{") {
                    guard let members = FlatJSON.members(Array(line)),
                        let value = ["url", "key", "input", "path"].lazy.compactMap({ members[$0] }).first,
                        !value.isEmpty
                    else {
                        throw S3Failure(
                            .usage, url: name,
                            "line \(number) is a JSON object without a url, key, input or path member")
                    }
                    out.append(value)
                } else if line.first == UInt8(ascii: "\""),
                    let value = FlatJSON.members(Array("{\"v\":".utf8) + line + [0x7D])?["v"]
                {
                    out.append(value)
                } else {
                    out.append(text)
                }
            }
            return out
        case .csv:
            return try csvEntries(bytes, name: name)
        }
    }

    /// Non-blank lines with their numbers (from 1), a trailing CR dropped.
    static func lines(_ bytes: [UInt8], name: String) throws(S3Failure) -> [(Int, ArraySlice<UInt8>)] {
        var out: [(Int, ArraySlice<UInt8>)] = []
        for (index, raw) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
            var line = raw
            if line.last == 13 { line = line.dropLast() }
            guard line.count <= recordLimit else {
                throw S3Failure(
                    .usage, url: name, "line \(index + 1) is longer than \(recordLimit) bytes: is it a manifest?")
            }
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { out.append((index + 1, line)) }
        }
        return out
    }

    static func csvEntries(_ bytes: [UInt8], name: String) throws(S3Failure) -> [String] {
        let rows = try csvRows(bytes, name: name)
        guard let first = rows.first else { return [] }
        let header = first.map { $0.trimmingBlanks.lowercased() }
        if let url = header.firstIndex(of: "url") {
            return rows.dropFirst().compactMap { url < $0.count && !$0[url].isEmpty ? $0[url] : nil }
        }
        if let key = header.firstIndex(of: "key") {
            let bucket = header.firstIndex(of: "bucket")
            return rows.dropFirst().compactMap { row in
                guard key < row.count, !row[key].isEmpty else { return nil }
                if let bucket, bucket < row.count, !row[bucket].isEmpty { return "s3://\(row[bucket])/\(row[key])" }
                return row[key]
            }
        }
        // No header: an S3 Inventory report (bucket, URL-encoded key, ...) or one column of entries.
        var out: [String] = []
        for (index, row) in rows.enumerated() {
            guard row.count >= 2 else {
                if let only = row.first, !only.isEmpty { out.append(only) }
                continue
            }
            guard let key = S3Encoding.decode(row[1], plusIsSpace: true) else {
                throw S3Failure(
                    .usage, url: name, "row \(index + 1)'s key is not URL-encoded as S3 Inventory writes keys")
            }
            out.append("s3://\(row[0])/\(key)")
        }
        return out
    }

    /// RFC 4180 records: fields split on commas outside quotes, `""` a quote inside them.
    static func csvRows(_ bytes: [UInt8], name: String) throws(S3Failure) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var recordBytes = 0
        var line = 1
        var i = 0
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            recordBytes += 1
            guard recordBytes <= recordLimit else {
                throw S3Failure(
                    .usage, url: name,
                    "record at line \(line) is longer than \(recordLimit) bytes: is it a CSV manifest?")
            }
            if quoted {
                if b == 0x22 {
                    if i < bytes.count, bytes[i] == 0x22 {
                        field.append(0x22)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if b == 10 { line += 1 }
                    field.append(b)
                }
                continue
            }
            switch b {
            case 0x22 where field.isEmpty: quoted = true
            case 0x2C: endField()
            case 13 where i < bytes.count && bytes[i] == 10: continue
            case 10:
                endField()
                if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
                row = []
                recordBytes = 0
                line += 1
            default: field.append(b)
            }
        }
        if quoted { throw S3Failure(.usage, url: name, "a quoted field opened at line \(line) never closes") }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append(row)
        }
        return rows
    }
}
