import FZCompare
import FZFormat
import FZSystem

/// `compare EXPECTED ACTUAL --update`: the accepted actual images become the baselines,
/// once every pair has been measured (so no file is replaced while a pair reads it).
///
/// - A changed or size-mismatched image's actual file is copied byte for byte to the same
///   relative path in EXPECTED_DIR, replacing the baseline there by rename (OutputFile:
///   a temporary file beside it, renamed into place; a link at the name is replaced, not
///   followed). A new image is copied the same way, its folders made.
/// - When the pair matched across formats (`home.png` with `home.webp`), the copy keeps the
///   actual file's name and format; the old baseline is deleted only with --prune.
/// - A missing image's baseline is deleted only with --prune.
/// - Passed and unreadable images are left alone: nothing accepts an image it cannot read.
enum FolderUpdate {
    /// The largest file copied (a baseline is an image file, read whole).
    static let maxBytes = 1 << 30

    /// Applies the update to `images` (marking what was done), stopping at the first file
    /// that cannot be written.
    /// - Throws: `OutputError` (exit 1), with the images done so far marked.
    static func apply(
        _ images: inout [FolderImage], expected: String, actual: String, prune: Bool
    ) throws(OutputError) {
        let root = try OutputFolder.open(expected)
        for i in images.indices {
            let image = images[i]
            switch image.status {
            case .changed, .size, .new:
                guard let from = image.pair.actual else { continue }
                try copy(FileSystem.join(actual, from), to: from, in: root)
                images[i].update = .copied
                if prune, let old = image.pair.expected, old != from {
                    try remove(old, in: root)
                }
            case .missing:
                guard prune, let old = image.pair.expected else { continue }
                try remove(old, in: root)
                images[i].update = .pruned
            case .passed, .unreadable:
                continue
            }
        }
    }

    /// Copies the file `source` to `relative` below `root`, replacing what is there.
    private static func copy(_ source: String, to relative: String, in root: OutputFolder) throws(OutputError) {
        let target = FileSystem.join(root.path, relative)
        if FileSystem.sameFile(source, target) { return }  // a hard link: already the same bytes
        let bytes: [UInt8]
        do { bytes = try FileSystem.readBytes(source, limit: maxBytes) } catch {
            throw .writeFailed(
                path: target,
                reason: "\(Echo.line(source)) cannot be read: \(FileSystem.readFailure(error, limit: maxBytes))")
        }
        let folder = try root.subfolder(FileSystem.directory(of: relative), create: true)
        let name = FileSystem.basename(relative)
        // The baseline was read while measuring; that is over, and replacing it is the point.
        if let st = folder.entry(name) { ReadFiles.forget(FileIdentity(st)) }
        let out = try OutputFile(in: folder, name: name, path: target, protecting: [source])
        do {
            try ImageWriter.writeBytes(bytes, into: out)
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
    }

    private static func remove(_ relative: String, in root: OutputFolder) throws(OutputError) {
        let folder = try root.subfolder(FileSystem.directory(of: relative), create: false)
        try folder.removeFile(FileSystem.basename(relative))
    }
}
