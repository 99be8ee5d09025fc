import FZCodecs
import FZSystem

extension InputWalker {
    /// Why an entry of a folder that is no folder itself is no file to read, nil for a regular
    /// file (or a link to one): a broken link, a link to a folder (never followed: no loops),
    /// a FIFO, socket or device. Each is passed over with its name (no file is skipped
    /// without its name), in the summary's "other" group, listed by what it is.
    package static func notAFile(_ path: String) -> FileContent.Skip? {
        let link = linkKind(path) == .other ? FileSystem.linkTarget(path) : nil
        guard let st = FileSystem.status(path) else {
            let target = link.map { " to '\(Echo.value($0))'" } ?? ""
            return FileContent.Skip(.other, "a broken link\(target), which names nothing", listedAs: "broken link")
        }
        switch FileSystem.kind(st) {
        case .regular: return nil
        case .directory:
            return FileContent.Skip(.other, "a link to a folder, not followed", listedAs: "link to a folder")
        case .other, .missing:
            let what = FileSystem.kindName(st).replacing(" (named pipe)", with: "")
            return FileContent.Skip(.other, "not a regular file: \(what)", listedAs: String(what.trimmingPrefix("a ")))
        }
    }
}
