import FZFormat

extension ImageReader {
    /// Why no decoder takes an input, naming what it is (`FileContent`): a video, a sidecar,
    /// a format forcezoom does not read, text. It reads a few more bytes than the sniffer
    /// (a plist's DOCTYPE follows the XML line); nothing else reads the source after.
    static func unreadable(_ source: ImageSource) -> DecodeError {
        let name = source.name
        let read = source.file.read(upTo: FileContent.headLength)  // the source is at its first byte
        let head = read.count >= source.head.count ? read : source.head
        let content = FileContent.classify(head: head, name: name)
        if case .skipped(let skip) = content {
            switch skip.category {
            case .video, .livePhotoMotion, .sidecar:
                return .notAnImage(path: name, what: skip.what, reads: FormatRegistry.inputNames())
            case .image: return .unsupportedFormat(path: name, format: skip.what, reads: FormatRegistry.inputNames())
            case .other: break
            }
        }
        // Otherwise the sniffer's name for it ("PDF is not supported"), else what it is.
        switch (source.sniffed, content) {
        case (.unsupported(let what), _):
            return .unsupportedFormat(path: name, format: what, reads: FormatRegistry.inputNames())
        case (_, .skipped(let skip)):
            return .notAnImage(path: name, what: skip.what, reads: FormatRegistry.inputNames())
        case (.text, _): return .notAnImage(path: name, what: "the file is text", reads: FormatRegistry.inputNames())
        default: return .notAnImage(path: name, what: "unrecognised leading bytes", reads: FormatRegistry.inputNames())
        }
    }
}
