import FZFormat
import FZSystem

/// What a file is, for a batch and for `info`: an image a decoder reads, or what else it is
/// (a video, a sidecar, an image format forcezoom does not read, something else), told by its
/// first bytes first and by its name only when the bytes say nothing.
///
/// Why apart from `ImageFormat.sniff`: the sniffer answers "which decoder"; this answers "what
/// is it" for the files no decoder takes, so a photo library's videos and sidecars are named as
/// such instead of "not supported". Readable formats come from `ImageDecoders` (through
/// `sniff`), so a new decoder is picked up here without a change.
public enum FileContent: Equatable, Sendable {
    /// A decoder reads it.
    case image(ImageFormat)
    /// Something no decoder reads, and what it is.
    case skipped(Skip)
    /// The bytes say nothing known: text, no known magic, or no bytes at all ("text",
    /// "unrecognised content", "empty"). A file named like an image is still attempted.
    case unidentified(String)

    /// How many leading bytes `classify` wants (a plist's DOCTYPE comes after the XML line).
    public static let headLength = 256

    /// A file that is no image forcezoom reads: its group and what it is.
    public struct Skip: Hashable, Sendable {
        /// The summary's groups, in the order it lists them.
        public enum Category: String, CaseIterable, Sendable {
            case video
            /// The movie of a Live Photo whose still is in the same batch (issue 50): the
            /// still stands for both (`LivePhotoPairs` in FZThumbnails; `classify` never says it).
            case livePhotoMotion = "live-photo motion"
            case sidecar
            /// An image format no decoder reads (the sniffer's `.unsupported` names).
            case image
            /// Anything else: text, documents, audio, unknown bytes, empty files.
            case other

            /// The summary's words for `count` files: "9 videos", "1 sidecar".
            public func words(_ count: Int) -> String {
                let one = count == 1
                switch self {
                case .video: return "\(count) video\(one ? "" : "s")"
                case .livePhotoMotion: return "\(count) Live Photo motion part\(one ? "" : "s")"
                case .sidecar: return "\(count) sidecar\(one ? "" : "s")"
                case .image:
                    return one
                        ? "1 image in a format forcezoom does not read"
                        : "\(count) images in formats forcezoom does not read"
                case .other: return "\(count) not image\(one ? "" : "s")"
                }
            }
        }

        public let category: Category
        /// What it is: "a QuickTime video, brand 'qt'", "Photoshop PSD" (never with
        /// parentheses: messages put it in some).
        public let what: String

        /// How the summary lists it in its group, when not by its extension (or format):
        /// "broken link", "link to a folder".
        public let listedAs: String?

        public init(_ category: Category, _ what: String, listedAs: String? = nil) {
            self.category = category
            self.what = what
            self.listedAs = listedAs
        }

        /// The reason a batch gives: "a QuickTime video, brand 'qt'", "Photoshop PSD, which
        /// forcezoom does not read".
        public var reason: String {
            category == .image ? "\(what), which forcezoom does not read" : what
        }
    }

    /// Extensions that name a video container no decoder reads, when the bytes are not
    /// recognised (an MPEG transport stream has no magic in its first bytes). MP4, MOV, 3GP,
    /// Matroska, WebM and AVI are FZVideo's (issue 50): its registration claims their names.
    public static let videoExtensions: Set<String> = ["mts", "m2ts", "ts", "mpg", "mpeg", "wmv", "flv"]
    /// Extensions of files cameras and editors keep beside a photo (Apple's edits, XMP,
    /// RawTherapee, DxO, Capture One, a camera's video thumbnail).
    public static let sidecarExtensions: Set<String> = ["aae", "xmp", "pp3", "dop", "cos", "on1", "thm"]

    /// Camera raw extensions no decoder claims (the RAW decoder's registration lists the
    /// rest), for raws whose bytes no decoder or magic here knows: named as images
    /// forcezoom does not read rather than "not images".
    public static let rawExtensions: Set<String> = ["fff", "mos", "mef"]

    /// Extensions of image formats forcezoom does not read that may have no magic the
    /// sniffer knows (a TGA, a PCX), named as images forcezoom does not read. No extension
    /// the registry's decoders claim is here (FileContentTests checks it): those files are
    /// their decoder's to judge.
    public static let otherImageExtensions: Set<String> = [
        "psd", "psb", "jp2", "j2k", "jpx", "ico", "cur", "tga", "pcx", "exr", "hdr", "pbm", "pgm", "ppm", "pnm", "qoi",
        "svg", "xcf",
    ]

    /// Classifies a file.
    /// - Parameters:
    ///   - head: its first `headLength` bytes (fewer for short files; `sniffLength` is enough
    ///     for everything but telling a plist or SVG from other XML).
    ///   - name: its name or path, for the extension hint.
    public static func classify(head: [UInt8], name: String) -> FileContent {
        let ext = FileSystem.fileExtension(name).lowercased()
        let sniffed = ImageFormat.sniff(Array(head.prefix(ImageFormat.sniffLength)))
        if case .supported(let format) = sniffed { return .image(format) }
        if head.isEmpty { return .unidentified("empty") }
        if let found = container(head, ext: ext) ?? markup(head, ext: ext) { return .skipped(found) }
        switch sniffed {
        case .unsupported(let name):
            return .skipped(Skip(name == "PDF" ? .other : .image, name == "PDF" ? "a PDF document" : name))
        case .text:
            if sidecarExtensions.contains(ext) { return .skipped(Skip(.sidecar, "a .\(ext) sidecar, text")) }
            // A RAF starts with 16 bytes of ASCII ("FUJIFILMCCD-RAW ").
            return byName(ext, video: false).map { .skipped($0) } ?? .unidentified("text")
        default:
            if sidecarExtensions.contains(ext) { return .skipped(Skip(.sidecar, "a .\(ext) sidecar")) }
            return byName(ext, video: true).map { .skipped($0) } ?? .unidentified("unrecognised content")
        }
    }

    /// What the name says when the bytes say nothing known: a video or an image format
    /// forcezoom does not read. Never for a name a decoder claims: that decoder judges it
    /// (the walker attempts it, so a broken one fails with its reason).
    private static func byName(_ ext: String, video: Bool) -> Skip? {
        if FormatRegistry.inputExtensions.contains(ext) { return nil }
        if video && videoExtensions.contains(ext) { return Skip(.video, "a video by its name, .\(ext)") }
        if rawExtensions.contains(ext) { return Skip(.image, "a camera raw file by its name, .\(ext)") }
        if otherImageExtensions.contains(ext) { return Skip(.image, "an image by its name, .\(ext)") }
        return nil
    }

    /// Reads a file's head and classifies it (nil when it cannot be opened).
    public static func classify(path: String) -> FileContent? {
        guard case .success(let file) = CFile.open(readingFrom: path) else { return nil }
        return classify(head: file.read(upTo: headLength), name: path)
    }

    /// Video and audio containers: ISO media (`ftyp`) with a brand no decoder took, RIFF AVI,
    /// Matroska/WebM, MPEG program streams, Flash video, ASF.
    private static func container(_ head: [UInt8], ext: String) -> Skip? {
        func ascii(_ s: String, at offset: Int = 0) -> Bool {
            let m = Array(s.utf8)
            return head.count >= offset + m.count && Array(head[offset..<(offset + m.count)]) == m
        }
        if ascii("ftyp", at: 4) && head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            let shown = Echo.value(brand.trimmingSpaces)
            // No parentheses inside: an error puts the text in some ("not an image (...)").
            switch isoBrands[brand] {
            case .some((.video, let kind)): return Skip(.video, "\(kind) video, brand '\(shown)'")
            case .some((.image, let kind)): return Skip(.image, kind)
            case .some((let category, let kind)): return Skip(category, "\(kind), ISO media brand '\(shown)'")
            case .none:
                if videoExtensions.contains(ext) { return Skip(.video, "a video, ISO media brand '\(shown)'") }
                return Skip(.other, "ISO media of brand '\(shown)', no image forcezoom reads")
            }
        }
        if ascii("RIFF") && ascii("AVI ", at: 8) { return Skip(.video, "an AVI video") }
        if ascii("RIFF") && ascii("WAVE", at: 8) { return Skip(.other, "WAV audio") }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return Skip(.video, "a Matroska/WebM video") }
        if head.starts(with: [0, 0, 1, 0xBA]) { return Skip(.video, "an MPEG program stream video") }
        if ascii("FLV\u{01}") { return Skip(.video, "a Flash video") }
        if head.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) {
            return Skip(.video, "a Windows Media video")
        }
        // An MPEG transport stream (.MTS from camcorders): a sync byte every 188 bytes, or
        // every 192 after a 4-byte time code (M2TS).
        for (start, step) in [(0, 188), (4, 192)] where head.count > start + step && head[start] == 0x47 {
            if head[start + step] == 0x47 { return Skip(.video, "an MPEG transport stream video") }
        }
        if ascii("ID3") || ascii("fLaC") || ascii("OggS") { return Skip(.other, "audio") }
        if ascii("bplist00") {
            return sidecarExtensions.contains(ext)
                ? Skip(.sidecar, "a .\(ext) sidecar, binary property list") : Skip(.other, "a binary property list")
        }
        return nil
    }

    /// ISO media brands that are not images, and what they hold. Brands a decoder reads
    /// (HEIF's) never get here: `sniff` took them first.
    static let isoBrands: [String: (Skip.Category, String)] = [
        "qt  ": (.video, "a QuickTime"), "isom": (.video, "an MP4"), "iso2": (.video, "an MP4"),
        "iso4": (.video, "an MP4"), "iso5": (.video, "an MP4"), "iso6": (.video, "an MP4"), "mp41": (.video, "an MP4"),
        "mp42": (.video, "an MP4"), "avc1": (.video, "an MP4"), "dash": (.video, "an MP4"), "M4V ": (.video, "an MP4"),
        "M4VH": (.video, "an MP4"), "M4VP": (.video, "an MP4"), "f4v ": (.video, "a Flash MP4"),
        "MSNV": (.video, "an MP4"), "XAVC": (.video, "an MP4"), "3gp4": (.video, "a 3GPP"), "3gp5": (.video, "a 3GPP"),
        "3gp6": (.video, "a 3GPP"), "3gp7": (.video, "a 3GPP"), "3g2a": (.video, "a 3GPP2"), "M4A ": (.other, "audio"),
        "M4B ": (.other, "an audio book"), "M4P ": (.other, "audio"), "crx ": (.image, "Canon CR3 raw"),
        "jp2 ": (.image, "JPEG 2000"),
        "jpx ": (.image, "JPEG 2000"), "jpm ": (.image, "JPEG 2000"),
    ]

    /// XML and text that is metadata: an XMP packet whatever its name, a property list or
    /// XML named like a sidecar (Apple's .AAE), SVG.
    private static func markup(_ head: [UInt8], ext: String) -> Skip? {
        let text = String(decoding: head.prefix(headLength), as: UTF8.self)
        let bom = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        guard bom.hasPrefix("<") else { return nil }
        if bom.hasPrefix("<?xpacket") || bom.contains("<x:xmpmeta") {
            return Skip(.sidecar, ext == "xmp" ? "an XMP sidecar" : "XMP metadata, a sidecar")
        }
        if sidecarExtensions.contains(ext) {
            let plist = bom.contains("<!DOCTYPE plist") || bom.contains("<plist")
            return Skip(.sidecar, "a .\(ext) sidecar, \(plist ? "XML property list" : "XML")")
        }
        if bom.hasPrefix("<svg") || bom.contains("<svg") || (bom.hasPrefix("<?xml") && ext == "svg") {
            return Skip(.image, "SVG")
        }
        if bom.hasPrefix("<?xml") {
            let plist = bom.contains("<!DOCTYPE plist") || bom.contains("<plist")
            return Skip(.other, plist ? "an XML property list" : "an XML document")
        }
        return nil
    }
}

extension String {
    /// Without trailing spaces (ISO brands are padded: "qt  ").
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
