import FZCodecs
import FZS3
import FZSystem

/// `s3://bucket/prefix/` as an input (issue 52): listed as a folder is walked. ListObjectsV2,
/// paginated, one level (`/` as delimiter, deeper keys counted for the hint to add -r) or
/// every key below with `recursive`; a key's `%d` folder is its path below the prefix, so
/// shards fall by the key below the prefix as they fall by the path below a folder argument.
/// Names starting with `.` and "folder" markers (keys ending in `/`) are passed over, and the
/// output prefix is never entered. A key whose name says image is attempted (its bytes are
/// sniffed when it is read, as a file's are); any other is sniffed now by its first 256 bytes,
/// so a video, a sidecar or a document is passed over with the same reason as on a disk.
extension InputWalker {
    func walkBucket(
        _ prefix: S3Location, into add: (ThumbnailPlan.Input, FileContent.Skip?) -> Void,
        failures: inout [ThumbnailError], unsearched: inout Int
    ) {
        guard let client = bucket else {
            failures.append(
                .bucket(S3Failure(.other, url: prefix.description, "s3:// inputs are not read by this build")))
            return
        }
        var (pages, entries) = (0, 0)
        do throws(S3Failure) {
            try client.list(prefix, delimiter: recursive ? nil : "/") { page throws(S3Failure) in
                // A store that hands out a few new keys a page, with new tokens, never repeats
                // itself: S3, MinIO and GCS fill pages to 1,000, so 1,000 pages averaging
                // under 100 entries is a listing that paginates forever (seconds, not hours).
                (pages, entries) = (pages + 1, entries + page.objects.count + page.commonPrefixes.count)
                if pages >= Self.sparsePages, entries < pages * Self.sparseEntries {
                    throw S3Failure(
                        .badResponse, url: prefix.description,
                        "the listing gave \(entries) keys in \(pages) pages (a store gives up to 1,000 a page): it paginates forever; list a narrower prefix"
                    )
                }
                unsearched += page.commonPrefixes.filter { !excludes($0, in: prefix.bucket) }.count
                for object in page.objects {
                    let key = object.location.key
                    let below = String(key.dropFirst(prefix.key.count))
                    let name = below.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
                    guard !name.isEmpty, !name.hasPrefix("."), !excludes(key, in: prefix.bucket) else { continue }
                    // `..` and `.` in a key are characters, not steps up: kept, spelled %2E, in `%d`.
                    let folder = (below.count > name.count ? String(below.dropLast(name.count + 1)) : "")
                        .split(separator: "/", omittingEmptySubsequences: false)
                        .map { $0 == ".." ? "%2E%2E" : $0 == "." ? "%2E" : String($0) }.joined(separator: "/")
                    let input = ThumbnailPlan.Input(path: object.location.description, folder: folder)
                    let skipped = try skip(object, name: name, client: client)
                    if skipped == nil { S3ListedSizes.note(object) }
                    add(input, skipped)
                }
            }
        } catch {
            failures.append(.bucket(error))
        }
    }

    /// Pages after which a listing averaging under `sparseEntries` entries a page is refused.
    static let sparsePages = 1000
    static let sparseEntries = 100

    /// Whether `key` is below an output prefix of the same bucket (a re-run never thumbnails thumbnails).
    private func excludes(_ key: String, in bucket: String) -> Bool {
        excludedPrefixes.contains { $0.bucket == bucket && !$0.key.isEmpty && key.hasPrefix($0.key) }
    }

    /// Why an object is passed over, nil to attempt it (`skip(_:)` for files, on its first bytes).
    private func skip(_ object: S3ObjectInfo, name: String, client: S3Client) throws(S3Failure) -> FileContent.Skip? {
        if Self.imageExtensions.contains(FileSystem.fileExtension(name).lowercased()) { return nil }
        if object.size == 0 { return FileContent.Skip(.other, "an empty file") }
        let head = try client.get(object.location, range: 0..<Int64(FileContent.headLength), maxBytes: 64 << 10)
        switch FileContent.classify(head: head.bytes, name: name) {
        case .image: return nil
        case .skipped(let skip): return skip
        case .unidentified(let what):
            return FileContent.Skip(.other, what == "text" ? "not an image (text)" : "not an image (\(what))")
        }
    }
}
