import FZCodecs
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// How `compare EXPECTED_DIR ACTUAL_DIR` pairs the images of two folders.
///
/// The images of a folder are the regular files below it whose extension a decoder claims
/// (`FormatRegistry.inputExtensions`, any case), found by walking its subfolders; hidden
/// names (a leading dot: `.git`, editors' temporaries) and symbolic links to folders are
/// skipped, so a walk never leaves the folder or loops.
///
/// The pairing rule, in this order:
/// 1. the same relative path on both sides pairs (as reg-cli and Playwright pair);
/// 2. what is left pairs by its relative path without the extension, when that names one
///    image on each side and no other: `expected/home.png` with `actual/home.webp`, so a
///    service that changed format is still compared;
/// 3. everything else is new (only in ACTUAL_DIR) or missing (only in EXPECTED_DIR). Two
///    images of one stem on a side (`a.png` and `a.jpg`) are ambiguous: neither pairs by
///    stem, each stays new or missing unless its exact path pairs.
public struct FolderPairing: Sendable {
    /// One image or pair: relative paths (`/`-separated, from the folder given).
    public struct Pair: Sendable, Equatable {
        /// The name shown and sorted by: the expected image's path, else the actual one's.
        public var key: String
        public var expected: String?
        public var actual: String?
    }

    /// Every image, sorted by key.
    public let pairs: [Pair]

    /// Why a folder cannot be walked.
    public struct Failure: ForceZoomError, Sendable {
        public let message: String
        package init(message: String) { self.message = message }
        /// 2: the folder given is unusable, as an unreadable input is.
        public var exitCode: Int32 { 2 }
        public var description: String { message }
    }

    /// The most images a folder may hold, and how deep its subfolders may go: a count from
    /// the file system bounded before the lists grow with it.
    public static let maxImages = 1_000_000
    public static let maxDepth = 64

    /// Walks both folders and pairs their images.
    /// - Throws: `Failure` when a folder (or a subfolder) cannot be listed, or holds more
    ///   than `maxImages` images or nests deeper than `maxDepth`.
    public init(expected: String, actual: String) throws(Failure) {
        let e = try Self.images(in: expected)
        let a = try Self.images(in: actual)
        pairs = Self.pair(expected: e, actual: a)
    }

    /// The pairing rule on two lists of relative paths.
    package static func pair(expected: [String], actual: [String]) -> [Pair] {
        let actualSet = Set(actual)
        var out: [Pair] = []
        var leftExpected: [String] = []
        for path in expected {
            if actualSet.contains(path) {
                out.append(Pair(key: path, expected: path, actual: path))
            } else {
                leftExpected.append(path)
            }
        }
        let expectedSet = Set(expected)
        let leftActual = actual.filter { !expectedSet.contains($0) }
        // Stems count over every image of a side, paired or not: a stem is unambiguous only
        // when one image of each side has it.
        let expectedStems = Dictionary(grouping: expected, by: stem)
        let actualStems = Dictionary(grouping: actual, by: stem)
        var pairedActual = Set<String>()
        for path in leftExpected {
            let s = stem(path)
            if expectedStems[s]?.count == 1, let others = actualStems[s], others.count == 1,
                !expectedSet.contains(others[0])
            {
                out.append(Pair(key: path, expected: path, actual: others[0]))
                pairedActual.insert(others[0])
            } else {
                out.append(Pair(key: path, expected: path, actual: nil))
            }
        }
        for path in leftActual where !pairedActual.contains(path) {
            out.append(Pair(key: path, expected: nil, actual: path))
        }
        return out.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// A relative path without its last extension.
    package static func stem(_ path: String) -> String {
        let ext = FileSystem.fileExtension(path)
        return ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
    }

    /// The images below `root`, as relative paths.
    package static func images(in root: String) throws(Failure) -> [String] {
        guard FileSystem.kind(of: root) == .directory else {
            throw Failure(message: "\(Echo.line(root)): not a folder (compare takes two images or two folders)")
        }
        let extensions = FormatRegistry.inputExtensions
        var found: [String] = []
        var pending: [(relative: String, depth: Int)] = [("", 0)]
        while let next = pending.popLast() {
            let (relative, depth) = next
            let folder = relative.isEmpty ? root : FileSystem.join(root, relative)
            let names: [String]
            do { names = try FileSystem.list(folder) } catch {
                throw Failure(message: "\(Echo.line(folder)): cannot be listed: \(error)")
            }
            for name in names where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard let st = FileSystem.status(FileSystem.join(root, path), follow: false) else { continue }
                switch FileSystem.kind(st) {
                case .directory:
                    guard depth < maxDepth else {
                        throw Failure(
                            message:
                                "\(Echo.line(FileSystem.join(root, path))): folders nest deeper than \(maxDepth); compare a folder nearer the images"
                        )
                    }
                    pending.append((path, depth + 1))
                case .regular:
                    if extensions.contains(FileSystem.fileExtension(name).lowercased()) { found.append(path) }
                default:
                    // A link to an image is read as the image (the decoder follows it);
                    // a link to a folder is not walked.
                    if st.st_mode & S_IFMT == S_IFLNK, FileSystem.kind(of: FileSystem.join(root, path)) == .regular,
                        extensions.contains(FileSystem.fileExtension(name).lowercased())
                    {
                        found.append(path)
                    }
                }
                if found.count > maxImages {
                    throw Failure(
                        message: "\(Echo.line(root)): more than \(maxImages) images; compare smaller folders")
                }
            }
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
