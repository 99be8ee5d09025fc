import ArgumentParser
import FZOperations

/// `thumb --size 320,640,1280` (issue 38): several sizes need several names. The default
/// name puts the size in (`%s-%z.thumb.png`: photo-320.thumb.png, photo-640.thumb.png, as a
/// `srcset` lists them, and as sharp users name a ladder); a --name that would give two
/// sizes one name is a usage error asking for %z, and so is `-o small.jpg`, which names one
/// file (guessing small-320.jpg would be a name nobody typed).
extension Thumb {
    func validateLadder() throws {
        guard sizes.isLadder else { return }
        let typed = Echo.value(sizes.asTyped)
        let ext = FileSystem.fileExtension(out)
        if !ext.isEmpty, OutputFormat(forExtension: ext) != nil, FileSystem.kind(of: out) != .directory,
            inputs.count == 1, from == nil
        {
            throw ValidationError(
                "-o \(Echo.value(out)) names one file and --size \(typed) makes \(sizes.sizes.count); "
                    + "give a folder and name them with --name '%s-%z.\(Echo.value(ext))'")
        }
        if let name, !name.distinguishes(sizes) {
            throw ValidationError(
                "--size \(typed) makes \(sizes.sizes.count) sizes of each input and --name \(Echo.value(name.pattern)) gives them one name; "
                    + "add %z (the size as typed), or %w and %h (its width and height): --name '%s-%z.jpg'")
        }
    }
}
