import ArgumentParser
import FZOperations

/// `thumb`'s `--out` as people type it (issue 37). `--out` is the folder the thumbnails go
/// in, as it always was; but `thumb one.jpg -o small.jpg`, one input file and an output name
/// ending in an extension an encoder claims (`OutputFormat(forExtension:)`), writes that
/// file, as `crop -o` does: making a folder `small.jpg/` holding `one.thumb.png` was never
/// what was meant. Chosen over a usage error because nothing else gives `-o x.jpg` a meaning
/// with one input; a folder that already exists under such a name is still a folder (a
/// script's `--out 2024.jpg/` keeps working), and with several inputs (or a folder, or
/// `--from`) a name like that is a usage error that says --out is a folder and shows --name.
extension Thumb {
    /// Where the thumbnails go: `--out` and the name pattern (`--name` or the default), or,
    /// for `-o small.jpg` with one input file, `small.jpg`'s folder and its name as a pattern.
    func outputTarget() throws -> (folder: String, name: ThumbnailName) {
        if out.hasPrefix("s3://") { return try bucketTarget() }
        let ext = FileSystem.fileExtension(out)
        guard !ext.isEmpty, OutputFormat(forExtension: ext) != nil, FileSystem.kind(of: out) != .directory else {
            return (out, outputName)
        }
        let typed = Echo.value(out)
        guard inputs.count == 1, from == nil, FileSystem.kind(of: inputs[0]) != .directory else {
            throw ValidationError(
                "--out \(typed) is the folder thumbnails go in, and several inputs make several files; "
                    + "give a folder and name them with --name '%s.\(Echo.value(ext))' (or one input file to write \(typed))"
            )
        }
        if name != nil {
            throw ValidationError(
                "-o \(typed) names the thumbnail of the one input; drop --name, or give --out a folder for --name")
        }
        // The file's own name, `%` kept literal: the pattern language is --name's.
        let file = FileSystem.basename(out).replacing("%", with: "%%")
        return (FileSystem.directory(of: out), try ThumbnailName(file))
    }
}

extension Thumb {
    /// `--out s3://bucket/thumbs/` (a prefix, the `/` added when missing) or, with one input,
    /// `-o s3://bucket/x.jpg` (issue 52): the prefix and the name pattern, as for a folder.
    func bucketTarget() throws -> (folder: String, name: ThumbnailName) {
        let ext = FileSystem.fileExtension(out)
        let slash = out.lastIndex(of: "/") ?? out.endIndex
        guard !out.hasSuffix("/"), !ext.isEmpty, OutputFormat(forExtension: ext) != nil,
            slash > out.index(out.startIndex, offsetBy: 4)
        else {
            return (out.hasSuffix("/") ? out : out + "/", outputName)
        }
        let typed = Echo.value(out)
        guard inputs.count == 1, from == nil, !inputs[0].hasSuffix("/"), FileSystem.kind(of: inputs[0]) != .directory
        else {
            throw ValidationError(
                "-o \(typed) names one object, and several inputs make several; give --out s3://bucket/prefix/ and name them with --name"
            )
        }
        if name != nil {
            throw ValidationError(
                "-o \(typed) names the thumbnail of the one input; drop --name, or give --out a prefix for --name")
        }
        let file = String(out[out.index(after: slash)...]).replacing("%", with: "%%")
        return (String(out[...slash]), try ThumbnailName(file))
    }
}
