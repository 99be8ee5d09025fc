import FZFormat

extension ImageFormat {
    /// Sniffs a format from the first bytes of a file: a format a decoder reads (the
    /// registry's decoders, in order), else the name of a known format forcezoom does not
    /// read, text, or unknown.
    /// - Parameter head: at least the first `sniffLength` bytes (fewer for short files).
    public static func sniff(_ head: [UInt8]) -> Sniffed {
        if let decoder = ImageDecoders.decoder(for: head) { return .supported(decoder.format) }
        return sniffUnread(head)
    }
}

extension ImageSource {
    /// What the first bytes say the input is.
    public var sniffed: ImageFormat.Sniffed { ImageFormat.sniff(head) }
}
