import Synchronization

/// The sizes a listing gave, by `s3://` URL (issue 52): a batch that listed a prefix opens each
/// small object with one request for the whole of it (RemoteSource's first request), instead of
/// a first block and then the rest, a third fewer requests for a folder of photos. A size is
/// taken once, when its object is opened; one the store changed since is only a first range
/// of another length, which the reader's checks handle as for any object.
package enum S3ListedSizes {
    private static let sizes = Mutex<[String: Int64]>([:])

    /// Remembers the size a listing gave `object`.
    package static func note(_ object: S3ObjectInfo) {
        let url = object.location.description
        sizes.withLock { $0[url] = object.size }
    }

    /// The size listed for `url`, forgotten as it is given.
    package static func take(_ url: String) -> Int64? {
        sizes.withLock { $0.removeValue(forKey: url) }
    }
}
