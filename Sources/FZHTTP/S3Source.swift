import FZS3
import FZSystem
import Synchronization

/// An object behind an `s3://bucket/key` URL, fetched by range with signed GETs (issue 52):
/// what a `RemoteSource` reads through, as `HTTPSource` for https://. The first answer's ETag
/// is sent back as `If-Match` on every later range, so an object replaced mid-read fails
/// (412, exit 75: read it again) instead of mixing two versions; its length must stay the
/// first one. Retries are FZS3's (`S3RetryPolicy`, `AWS_MAX_ATTEMPTS`).
package final class S3Source: RangeFetcher {
    package let name: String
    private let location: S3Location
    private let client: S3Client
    private var etag: String?
    private var total: Int?
    package var honoursRanges: Bool { true }  // FZS3 cuts the range of a 200 itself

    package init(location: S3Location, client: S3Client) {
        self.location = location
        self.client = client
        name = location.description
    }

    package func fetch(_ range: Range<Int>) throws(RemoteFailure) -> (bytes: [UInt8], total: Int) {
        let got: S3ObjectBytes
        do throws(S3Failure) {
            got = try client.get(
                location, range: Int64(range.lowerBound)..<Int64(range.upperBound), ifMatch: etag,
                maxBytes: range.count)
        } catch  where error.status == 416 && range.lowerBound == 0 && total == nil {
            return ([], 0)  // an empty object has no byte 0
        } catch {
            throw error.remoteFailure
        }
        if etag == nil, !got.etag.isEmpty { etag = got.etag }
        let size = Int(got.totalSize)
        if let total, total != size {
            throw RemoteFailure(
                name: name, reason: "changed while being read (its length went from \(total) to \(size) bytes)",
                retryable: true)
        }
        total = size
        return (got.bytes, size)
    }
}

/// The S3 side of the command line (issue 52): one client per process, made on the first
/// `s3://` name from the standard places (S3Settings, CredentialChain) over the shared
/// libcurl transport, so every input, listing and upload of a batch shares its credentials
/// and its connections.
package enum S3Access {
    private static let made = Mutex<Result<S3Client, S3Failure>?>(nil)

    /// The process's client; the same failure for every caller when the settings are wrong.
    package static func client() throws(S3Failure) -> S3Client {
        let result = made.withLock { cached -> Result<S3Client, S3Failure> in
            if let cached { return cached }
            let environment = S3Settings.processEnvironment()
            let attempts = environment["AWS_MAX_ATTEMPTS"].flatMap { Int($0) }.map { max(1, min($0, 20)) } ?? 5
            // Seconds of the first backoff (0.5; tests shorten it).
            let base = environment["FORCEZOOM_S3_BACKOFF"].flatMap { Double($0) }.map { max(0, min($0, 5)) } ?? 0.5
            let retry = S3RetryPolicy(attempts: attempts, baseSeconds: base)
            let made = Result { () throws(S3Failure) in
                try S3Client.standard(transport: S3HTTPTransport.shared, environment: environment, retry: retry)
            }
            cached = made
            return made
        }
        return try result.get()
    }

    /// Opens `s3://bucket/key` for reading by range.
    package static func open(_ url: String, settings: RemoteInputs.Settings) throws(RemoteFailure) -> any ByteSource {
        let fetcher: S3Source
        do throws(S3Failure) {
            guard let location = try S3Location.parse(url), !location.isPrefix else {
                throw S3Failure(.usage, url: url, "names no object (a prefix ends in /): write s3://bucket/key")
            }
            fetcher = S3Source(location: location, client: try client())
        } catch {
            throw error.remoteFailure
        }
        return try RemoteSource(
            fetcher: fetcher, maxMemory: settings.maxMemory, listedSize: S3ListedSizes.take(url).map(Int.init))
    }
}

extension S3Failure {
    /// As the readers' failure: the `s3://` URL, S3's words, and exit 75 when worth a retry.
    package var remoteFailure: RemoteFailure {
        let said = [code, status.map { "HTTP \($0)" }].compactMap { $0 }.joined(separator: ", ")
        return RemoteFailure(
            name: url, reason: said.isEmpty ? message : "\(said): \(message)",
            retryable: exitCode == Self.temporaryExitCode)
    }
}
