import FZMetadata
import Geometry

/// Whether an output's XMP leaves room for the Ultra HDR description. The primary's XMP and
/// the gain map's directory share one APP1 segment (65,533 payload bytes, the XMP signature
/// counted), which `assemble` cannot exceed. This is known before any output is written, so
/// `--json` can say the map was dropped, and the writer is not left to notice it afterwards.
extension UltraHDRContainer {
    /// Bytes kept in reserve for what writing for the output's size changes: the dimension
    /// fields `XMPPacket.rewritten` fills in are measured here at 1x1 pixels, and each can grow
    /// by up to 4 digits (65535x65535).
    static let sizeReserve = 64

    /// Why `metadata`'s XMP (as an output carries it, for any size) leaves no room for the gain
    /// map's description beside it in JPEG's segment; nil when it does (or there is no XMP).
    public static func noRoom(beside metadata: CarriedMetadata?) -> String? {
        guard let xmp = metadata?.withoutGainMap().blocks(for: PixelSize(width: 1, height: 1)).xmp else { return nil }
        let own = (try? XMPPacket(parsing: xmp))?.removing(namespaces: ownedNamespaces) ?? xmp
        // The longest gain-map length the directory can state: ten digits.
        let joined = primaryXMP(keeping: own, gainMapLength: 9_999_999_999).count
        let needed = JPEGSegments.xmpSignature.count + joined + sizeReserve
        guard needed > 0xFFFF - 2 else { return nil }
        return "the input's XMP (\(xmp.count) bytes) leaves no room for the gain map's Ultra HDR description"
            + " in JPEG's 64 KiB XMP segment; the output is SDR (--strip keeps the map)"
    }
}
