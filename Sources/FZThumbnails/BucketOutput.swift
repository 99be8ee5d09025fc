import FZS3
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `thumb --out s3://bucket/thumbs/` (issue 52): the batch is planned and written into a
/// local staging folder as always (temp file + rename, every check of a folder output), and
/// each finished thumbnail is then uploaded under the prefix, the key being its name below the
/// staging folder, and removed locally. S3 makes a PUT (and a multipart Complete, above
/// `S3UploadPlan.threshold`) atomic, so no partial object is ever under a final key: a failed
/// upload leaves nothing (a failed multipart is aborted). `--skip-existing` and `--resume`
/// ask the bucket (HEAD) instead of the disk.
public struct BucketOutput: Sendable {
    public let client: S3Client
    /// Where the thumbnails go: a prefix (`thumbs/`, or "" for the bucket's top).
    public let prefix: S3Location
    /// The local folder the batch writes in first (made by `makeStaging`, removed at the end).
    public let staging: String

    public init(client: S3Client, prefix: S3Location, staging: String) {
        self.client = client
        self.prefix = prefix
        self.staging = staging
    }

    /// A fresh private folder under `TMPDIR` (or /tmp) for the staged outputs.
    public static func makeStaging() throws(OutputError) -> String {
        let base = (getenv("TMPDIR").map { String(cString: $0) }).flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/forcezoom-bucket-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw .cannotCreate(path: base, reason: "no staging folder for the uploads: \(Errno(errno))")
        }
        return String(cString: template)
    }

    /// The object a staged output becomes.
    public func location(of output: String) -> S3Location {
        let name = output.hasPrefix(staging + "/") ? String(output.dropFirst(staging.count + 1)) : output
        return prefix.appending(name)
    }

    /// The `s3://` URL shown and journalled for a staged output.
    public func url(of output: String) -> String { location(of: output).description }

    /// What is under the output's key (HEAD), nil when nothing.
    public func existing(_ output: String) throws(S3Failure) -> S3ObjectInfo? { try client.head(location(of: output)) }

    /// Whether the object is still what the journal recorded: its size, and its SHA-256 when
    /// the store keeps S3's checksum (moto, AWS, MinIO do; a store that does not is judged by size).
    public func stillDone(_ record: JournalRecord?, output: String) -> Bool {
        guard let record, record.status == .ok, record.output == url(of: output), let bytes = record.bytes,
            let info = try? existing(output), info.size == bytes
        else { return false }
        return info.sha256.map { $0 == record.sha256 } ?? true
    }

    /// Uploads a finished thumbnail (its SHA-256 sent as S3's checksum, so the store checks
    /// what it stored), then removes the staged file either way.
    /// - Returns: its size and SHA-256 (for the journal), or why the upload failed.
    public func upload(_ output: String, contentType: String?) -> Result<(bytes: Int64, sha256: String), S3Failure> {
        defer { _ = PathBytes.withCPath(output) { unlink($0) } }
        guard let digest = Journal.digest(of: output) else {
            return .failure(
                S3Failure(.other, url: url(of: output), "the staged thumbnail \(output) cannot be read back"))
        }
        do throws(S3Failure) {
            try client.upload(
                file: output, size: digest.bytes, to: location(of: output), contentType: contentType,
                sha256: digest.sha256)
            return .success(digest)
        } catch {
            return .failure(error)
        }
    }

    /// The MIME type of an output name (what a browser reading the bucket needs).
    public static func contentType(of name: String) -> String? {
        switch FileSystem.fileExtension(name).lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "avif": "image/avif"
        case "heic": "image/heic"
        case "jxl": "image/jxl"
        case "gif": "image/gif"
        case "tif", "tiff": "image/tiff"
        default: nil
        }
    }
}
