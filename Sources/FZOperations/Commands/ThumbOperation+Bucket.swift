import FZHTTP
import FZS3
import FZSystem
import FZThumbnails

#if canImport(Glibc)
import Glibc
#endif

/// `thumb` with a bucket (issue 52): `s3://bucket/prefix/` inputs listed, `--out s3://...`
/// staged locally and uploaded (BucketOutput), `--journal s3://.../%k.jsonl` kept as a local
/// file that is uploaded whole every `journalUploadSeconds` and at the end.
struct ThumbBucket {
    /// How often a journal in a bucket is rewritten while the batch runs (and once at its end).
    static let journalUploadSeconds = 30.0

    var client: S3Client?
    var output: BucketOutput?
    /// The journal's object and the local file standing for it.
    var journal: (object: S3Location, local: String)?
    /// Where the local files go (outputs staged, the journal), removed at the end.
    var staging: String?
    private var lastUpload = 0.0

    /// The bucket side of a run: nothing when no argument names one.
    init(operation: ThumbOperation, out: String) throws {
        let named = operation.inputs + [out] + (operation.journal.map { [$0] } ?? [])
        guard named.contains(where: S3Location.isS3) else { return }
        let client = try S3Access.client()
        self.client = client
        let stage = try BucketOutput.makeStaging()
        staging = stage
        if let prefix = try S3Location.parse(out) {
            output = BucketOutput(client: client, prefix: prefix, staging: stage + "/out")
        }
        if let pattern = operation.journal, S3Location.isS3(pattern) {
            let (shard, _) = try operation.shard?.resolve(environment: ShardEngine.environment()) ?? (.whole, nil)
            guard let object = try S3Location.parse(Journal.path(pattern: pattern, shard: shard)), !object.isPrefix
            else {
                throw ToolFailure(
                    "--journal \(Echo.value(pattern)): name an object (s3://bucket/journal-%k.jsonl)", exitCode: 2)
            }
            let local = stage + "/journal.jsonl"
            // The journal goes on where it was (appended, as a local one): fetched whole first.
            if try client.head(object) != nil {
                let bytes = try client.get(object, maxBytes: InputWalker.listLimit).bytes
                guard Self.write(bytes, to: local) else {
                    throw ToolFailure("\(object): the journal cannot be staged in \(stage)", exitCode: 1)
                }
            }
            journal = (object, local)
        }
    }

    /// The folder the batch writes in: the staging folder with a bucket, else `out`.
    func folder(_ out: String) -> String { output?.staging ?? out }

    /// A refusal of the plan as the user sees it: an output staged locally named by the
    /// s3:// URL it would be uploaded to (the staging folder is ours, not the user's).
    func named(_ error: ThumbnailError) -> ThumbnailError {
        guard let output else { return error }
        func url(_ path: String) -> String { path.hasPrefix(output.staging + "/") ? output.url(of: path) : path }
        switch error {
        case .collision(let o, let inputs): return .collision(output: url(o), inputs: inputs)
        case .wouldOverwriteInput(let i, let o): return .wouldOverwriteInput(input: i, output: url(o))
        case .outsideOutputFolder(let i, let o): return .outsideOutputFolder(input: i, output: url(o))
        case .unsupportedOutputFormat(let o): return .unsupportedOutputFormat(output: url(o))
        case .journalIsBatchFile(let j, let f, let r): return .journalIsBatchFile(journal: j, file: url(f), role: r)
        default: return error
        }
    }

    /// `body`'s result (the plan), its refusal `named` as the user sees it.
    func naming<T>(_ body: () throws(ThumbnailError) -> T) throws(ThumbnailError) -> T {
        do { return try body() } catch { throw named(error) }
    }

    /// The journal path ShardRun opens (the local stand-in of one in a bucket).
    func journalPath(_ pattern: String?) -> String? { journal?.local ?? pattern }

    /// Rewrites the journal's object whole when `journalUploadSeconds` have passed (`force`: now).
    mutating func uploadJournal(elapsed: Double, force: Bool = false) -> S3Failure? {
        guard let journal, let client, force || elapsed - lastUpload >= Self.journalUploadSeconds else { return nil }
        lastUpload = elapsed
        guard let digest = Journal.digest(of: journal.local) else { return nil }
        do throws(S3Failure) {
            try client.upload(
                file: journal.local, size: digest.bytes, to: journal.object, contentType: "application/x-ndjson",
                sha256: digest.sha256)
            return nil
        } catch {
            return error
        }
    }

    /// Removes the staging folder (outputs are removed as they are uploaded; what is left is
    /// folders, the journal, and what an interrupted job left).
    func cleanUp() {
        if let staging { Self.removeTree(staging) }
    }

    /// A new file holding `bytes` (the staged journal).
    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = PathBytes.withCPath(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    /// The staging tree, links not followed (only forcezoom's own files are in it).
    private static func removeTree(_ path: String) {
        if InputWalker.linkKind(path) == .directory, let names = try? FileSystem.list(path) {
            for name in names { removeTree(FileSystem.join(path, name)) }
            _ = PathBytes.withCPath(path) { rmdir($0) }
        } else {
            _ = PathBytes.withCPath(path) { unlink($0) }
        }
    }
}
