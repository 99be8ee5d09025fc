/// Where a format stores each kind of metadata and how large a block it holds.
public struct MetadataContainers: Hashable, Sendable {
    /// One container: the largest block it holds (nil: no limit) and, for the warning when
    /// a block is larger, where it would go ("JPEG's 64 KiB APP1 segment").
    public struct Slot: Hashable, Sendable {
        public let limit: Int?
        public let place: String
        public static let unlimited = Slot(limit: nil, place: "")
        public init(limit: Int?, place: String) {
            self.limit = limit
            self.place = place
        }

        /// Whether `bytes` fits.
        public func holds(_ bytes: Int) -> Bool { limit.map { bytes <= $0 } ?? true }
    }

    /// The EXIF block (TIFF bytes), the XMP packet (XML bytes), the IPTC record (as JPEG's
    /// APP13 payload); nil where the format has no place for it.
    public var exif: Slot?
    public var xmp: Slot?
    public var iptc: Slot?
    /// Whether an ICC profile is written.
    public var icc: Bool

    public init(exif: Slot?, xmp: Slot?, iptc: Slot?, icc: Bool) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
        self.icc = icc
    }

    /// EXIF, XMP and ICC without a size limit, no IPTC (PNG, WebP, HEIF).
    public static let exifXMPICC = MetadataContainers(exif: .unlimited, xmp: .unlimited, iptc: nil, icc: true)
}
