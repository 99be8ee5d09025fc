import FZCodecs
import FZS3
import FZSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns command-line inputs into the files of a batch: files are taken as named, folders
/// are listed (and descended into with `recursive`) for images of every format a decoder
/// in `FormatRegistry.inputs` reads, recognised by their first bytes or, when the bytes say
/// nothing, named with one of those formats' extensions (`imageExtensions`, so a broken one
/// is reported, not passed over). Every other file is passed over with what it is (a video,
/// a sidecar, an image format no decoder reads: `FileContent`), for the summary, `--json`
/// and the journal: no file is skipped without its name.
///
/// In folders, names starting with `.` are skipped (hidden files, and forcezoom's own
/// temporary outputs), links to folders are not followed (no loops), and `excluded`
/// folders (the output folder) are never entered below a folder argument, so a re-run never
/// thumbnails thumbnails.
/// A file reached twice (named twice, or named and found in a folder) is taken once, and the
/// second is kept in `duplicates` for the summary to name.
public struct InputWalker: Sendable {
    /// Descend into subfolders.
    public var recursive: Bool
    /// Folders never entered, by (device, inode).
    public var excluded: [Identity]
    /// The store `s3://bucket/prefix/` arguments are listed in (nil: none named).
    public var bucket: S3Client?
    /// Prefixes never entered (the output prefix, with `--out s3://...`).
    public var excludedPrefixes: [S3Location] = []

    /// A file identity: (device, inode).
    public typealias Identity = FileIdentity

    public init(recursive: Bool = false, excluding folders: [String] = []) {
        self.recursive = recursive
        excluded = folders.compactMap { FileSystem.identity(of: $0) }
    }

    /// Expands the arguments in order.
    /// - Parameter arguments: files and folders.
    /// - Returns: the inputs (a file's `folder` is its folder as written, leading `/`
    ///   dropped; a file found in a folder has its folder relative to that one), and the
    ///   folders that could not be listed.
    public func collect(_ arguments: [String]) -> (inputs: [ThumbnailPlan.Input], failures: [ThumbnailError]) {
        let found = collectAll(arguments)
        return (found.inputs, found.failures)
    }

    /// `collect`, and the files passed over with what each is (`FileContent`).
    /// - Parameters:
    ///   - arguments: files and folders named on the command line: a file is always taken
    ///     (one that cannot be read is an error of the batch, never passed over).
    ///   - listed: `--from`'s paths: taken like a folder's files (a video in a `find`
    ///     list is named as skipped, not an error); a folder is walked.
    public func collectAll(_ arguments: [String], listed: [String] = []) -> Collected {
        var found = Collected()
        var seen: [Identity: String] = [:]
        var seenPaths = Set<String>()
        /// The path taken before for the same file, nil for a file met the first time.
        func takenBefore(_ path: String) -> String? {
            guard let id = FileSystem.identity(of: path) else { return seenPaths.insert(path).inserted ? nil : path }
            if let earlier = seen[id] { return earlier }
            seen[id] = path
            return nil
        }
        func add(_ input: ThumbnailPlan.Input, sorted: Bool, known: FileContent.Skip? = nil) {
            if let known {
                found.skipped.append(SkippedFile(input: input, skip: known))
                return
            }
            if let earlier = takenBefore(input.path) {
                found.duplicates.append(DuplicateInput(input: input, sameAs: earlier))
                return
            }
            if sorted, let skip = Self.skip(input.path) {
                found.skipped.append(SkippedFile(input: input, skip: skip))
            } else {
                found.inputs.append(input)
            }
        }
        // Apart from `found`: `add` changes it while the walk holds the failures.
        var failures: [ThumbnailError] = []
        var unsearched = 0
        for (argument, isListed) in arguments.map({ ($0, false) }) + listed.map({ ($0, true) }) {
            if let prefix = try? S3Location.parse(argument), prefix.isPrefix {
                walkBucket(
                    prefix, into: { add($0, sorted: false, known: $1) }, failures: &failures, unsearched: &unsearched)
            } else if FileSystem.kind(of: argument) == .directory {
                walk(
                    argument, relative: "", into: { add($0, sorted: true, known: $1) }, failures: &failures,
                    unsearched: &unsearched)
            } else {
                add(ThumbnailPlan.Input(path: argument, folder: Self.folderAsWritten(argument)), sorted: isListed)
            }
        }
        found.failures = failures
        found.unsearchedFolders = unsearched
        return found
    }

    /// What `collectAll` found.
    public struct Collected: Sendable {
        /// The files to thumbnail, in order.
        public var inputs: [ThumbnailPlan.Input] = []
        /// The folders that could not be listed.
        public var failures: [ThumbnailError] = []
        /// The files passed over, each with what it is, in order.
        public var skipped: [SkippedFile] = []
        /// The files reached a second time (named twice, or named and found in a folder), dropped.
        public var duplicates: [DuplicateInput] = []
        /// Without `recursive`: the subfolders of the folders named that were not searched
        /// (hidden ones and the output folder not counted), for the summary's hint to add -r.
        public var unsearchedFolders = 0
    }

    private func walk(
        _ root: String, relative: String, into add: (ThumbnailPlan.Input, FileContent.Skip?) -> Void,
        failures: inout [ThumbnailError],
        unsearched: inout Int
    ) {
        let folder = relative.isEmpty ? root : FileSystem.join(root, relative)
        // A folder named as input is always read, even if it is also the output folder
        // (the plan then refuses outputs that would overwrite inputs).
        if !relative.isEmpty, let id = FileSystem.identity(of: folder), excluded.contains(id) { return }
        let names: [String]
        do { names = try FileSystem.list(folder) } catch {
            failures.append(.cannotListFolder(path: folder, reason: error.description))
            return
        }
        // Hidden names are passed over unnamed: they are the system's (.DS_Store) or
        // forcezoom's own temporary outputs, never a user's photo.
        for name in names where !name.hasPrefix(".") {
            let path = FileSystem.join(folder, name)
            switch Self.linkKind(path) {
            case .directory:
                if recursive {
                    walk(
                        root, relative: relative.isEmpty ? name : relative + "/" + name, into: add, failures: &failures,
                        unsearched: &unsearched)
                } else if let id = FileSystem.identity(of: path), !excluded.contains(id) {
                    unsearched += 1
                }
            case .regular, .other:
                // .other includes links: followed only to regular files. Anything else is
                // passed over with its name: a broken link, a FIFO, a device.
                let input = ThumbnailPlan.Input(path: path, folder: relative)
                add(input, Self.notAFile(path))
            case .missing:
                break
            }
        }
    }

    /// The kind of the entry itself, a link not followed (a link is `.other`).
    package static func linkKind(_ path: String) -> FileSystem.Kind {
        guard let st = FileSystem.status(path, follow: false) else { return .missing }
        return FileSystem.kind(st)
    }

    /// Names that say "image": a file so named whose bytes say nothing known (a cut-off
    /// download, text saved as .jpg, an HEIF brand nobody knew) is attempted, so the batch
    /// reports it as failed with its reason. Bytes that say what the file is win over the
    /// name: a `.jpg` that is a video is skipped as a video.
    package static let imageExtensions = FormatRegistry.inputExtensions

    /// Why a file found in a folder or a list is passed over, nil to attempt it: a format a
    /// decoder reads, a name that says image with bytes that say nothing, or a file that
    /// cannot be opened (attempting it names the reason).
    package static func skip(_ path: String) -> FileContent.Skip? {
        guard let content = FileContent.classify(path: path) else { return nil }
        switch content {
        case .image: return nil
        case .skipped(let skip): return skip
        case .unidentified(let what):
            if imageExtensions.contains(FileSystem.fileExtension(path).lowercased()) { return nil }
            switch what {
            case "empty": return FileContent.Skip(.other, "an empty file")
            case "text": return FileContent.Skip(.other, "not an image (text)")
            default: return FileContent.Skip(.other, "not an image (\(what))")
            }
        }
    }

    /// The folder of a path as written, for `%d`: "" for a bare name, leading `/` and `.`
    /// components dropped.
    package static func folderAsWritten(_ path: String) -> String {
        let d = FileSystem.directory(of: path)
        return d.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// Reads a list of paths, one per line or NUL-separated (`find -print0`), or a manifest:
    /// `.csv` and `.jsonl` names are read by FZS3's `Manifest` (a key/url column or member).
    /// - Parameters:
    ///   - path: the list file, or "-" for standard input.
    ///   - nulSeparated: split on NUL bytes instead of newlines.
    /// - Returns: the non-empty entries (a line's trailing carriage return dropped).
    /// - Throws: `ThumbnailError.cannotReadList`.
    public static func readList(_ path: String, nulSeparated: Bool) throws(ThumbnailError) -> [String] {
        let name = StandardStream.inputName(path)
        let file: CFile
        // Standard input is streamed like a file, so the limits below hold as it arrives
        // (`yes | forcezoom thumb --from -` stops at the first over-long entry).
        let opened = StandardStream.isNamed(path) ? CFile.standardInput() : CFile.open(readingFrom: path)
        switch opened {
        case .success(let f): file = f
        case .failure(let e): throw .cannotReadList(path: name, reason: e.description)
        }
        // Read in chunks, bounded: the whole list at most `listLimit` bytes, each entry at
        // most PATH_MAX (4096) bytes, so /dev/zero or a binary file fails at once. The entry
        // check looks at windows of entryLimit + 1 bytes from the last separator seen: each
        // window needs a separator, found from its end, so the work is a few bytes a window
        // whatever the list holds (all separators, or long paths).
        var bytes: [UInt8] = []
        let separator: UInt8 = nulSeparated ? 0 : 10
        var checked = 0  // every entry before this offset is within the limit
        var entries = 0
        while true {
            let chunk = file.read(upTo: 1 << 16)
            bytes += chunk
            // Counted as they come, so `yes | forcezoom thumb --from -` stops within a few
            // megabytes instead of holding millions of tiny paths.
            entries += chunk.reduce(0) { $0 + ($1 == separator ? 1 : 0) }
            if entries > Self.entryCountLimit {
                throw .cannotReadList(path: name, reason: "more than \(Self.entryCountLimit) entries; split the list")
            }
            while checked + Self.entryLimit < bytes.count {
                let window = bytes[checked...(checked + Self.entryLimit)]
                guard let last = window.lastIndex(of: separator) else {
                    throw .cannotReadList(
                        path: name,
                        reason:
                            "an entry is longer than \(Self.entryLimit) bytes (PATH_MAX); is it a list of paths\(nulSeparated ? "" : ", or NUL-separated (-0)")?"
                    )
                }
                checked = last + 1
            }
            if bytes.count > Self.listLimit {
                throw .cannotReadList(path: name, reason: "more than \(Self.listLimit >> 20) MiB; split the list")
            }
            if chunk.count < 1 << 16 { break }
        }
        // A manifest (issue 52): `.csv` (a key/url column, or an S3 Inventory report) or `.jsonl`.
        let kind = Manifest.Kind(path: path)
        if !nulSeparated, kind != .lines {
            do throws(S3Failure) {
                return try Manifest.entries(bytes, kind: kind, name: name)
            } catch {
                throw .cannotReadList(path: name, reason: error.message)
            }
        }
        return split(bytes, nulSeparated: nulSeparated)
    }

    /// The most bytes of a --from list (a million paths of 64 bytes).
    public static let listLimit = 64 << 20
    /// The most entries of a --from list (blank lines count): each becomes a path held
    /// until the batch ends.
    public static let entryCountLimit = 2_000_000
    /// The longest entry: PATH_MAX.
    public static let entryLimit = 4096

    /// Splits list bytes into paths (see `readList`).
    package static func split(_ bytes: [UInt8], nulSeparated: Bool) -> [String] {
        let separator: UInt8 = nulSeparated ? 0 : 10
        return bytes.split(separator: separator, omittingEmptySubsequences: true).compactMap { entry in
            var e = entry
            if !nulSeparated && e.last == 13 { e = e.dropLast() }
            return e.isEmpty ? nil : PathBytes.string(of: e)
        }
    }
}
