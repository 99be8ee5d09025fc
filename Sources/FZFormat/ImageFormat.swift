/// A file format as sniffed from its first bytes (never from its name).
///
/// A struct, not an enum: a decoder file declares its own format (`static let png`), so a
/// new format is one decoder file plus one entry in `ImageDecoders.all`.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// How many leading bytes `sniff` wants: enough for the first IFD of a TIFF-based camera
    /// RAW (NEF, ARW, PEF, DNG), which says it is a RAW (DNGVersion, a colour filter array,
    /// the Make) where its first 32 bytes say only "TIFF" (`RAWSniffer`).
    public static let sniffLength = 4096

    /// What the leading bytes say the file is.
    public enum Sniffed: Equatable, Sendable {
        case supported(ImageFormat)
        /// A known image or document format forcezoom does not read (its name).
        case unsupported(String)
        /// Printable text, not an image.
        case text
        case unknown
    }

    /// What the first bytes of a file say when no decoder claims them (`sniff`, in
    /// FZCodecs, asks the decoders first): the name of a known format forcezoom does not
    /// read, text, or unknown.
    /// - Parameter head: at least the first `sniffLength` bytes (fewer for short files).
    package static func sniffUnread(_ head: [UInt8]) -> Sniffed {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<(offset + magic.count)]) == magic
        }
        func ascii(_ s: String, at offset: Int = 0) -> Bool { starts(Array(s.utf8), at: offset) }
        if ascii("ftyp", at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            return .unsupported("an ISO media file (\(brand))")
        }
        if starts([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) {
            return .unsupported("JPEG 2000")
        }
        if ascii("8BPS") { return .unsupported("Photoshop PSD") }
        if ascii("%PDF") { return .unsupported("PDF") }
        if ascii("qoif") { return .unsupported("QOI") }
        if starts([0, 0, 1, 0]) { return .unsupported("ICO") }
        if ascii("\u{8A}MNG") { return .unsupported("MNG") }
        if starts([0x76, 0x2F, 0x31, 0x01]) { return .unsupported("OpenEXR") }
        if ascii("P") && head.count > 2 && (0x31...0x37).contains(head[1])
            && [0x0A, 0x0D, 0x20, 0x09].contains(head[2])
        {
            return .unsupported("Netpbm")
        }
        if ascii("<svg") || ascii("<?xml") { return .unsupported("SVG/XML") }
        // Text as it always was judged: by its first 32 bytes (the head grew for RAW's IFD0).
        let lead = head.prefix(32)
        if !lead.isEmpty && lead.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return .text
        }
        return .unknown
    }

    public var description: String { rawValue }
}
