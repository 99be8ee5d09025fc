import FZFormat
import FZImage
import FZMetadata
import FZSystem
import Geometry

/// HDR renditions (`--gain-map apply`, issue 39) as 16-bit PNGs marked BT.2100 PQ by a cICP
/// chunk (PNG third edition; what Chrome, Safari and Android read as HDR). libpng 1.6.39 has
/// no cICP API: the chunk is written as given after the header, before any image data, as
/// eXIf and iTXt are. No iCCP, sRGB, gAMA or cHRM is written, so nothing contradicts it.
extension ImageWriter {
    /// cICP's four bytes for BT.2100 PQ (ITU-T H.273): colour primaries 9 (BT.2020), transfer
    /// 16 (SMPTE ST 2084, PQ), matrix 0 (RGB: PNG stores no YCbCr), full range 1.
    public static let pqCICP: [UInt8] = [9, 16, 0, 1]

    /// Writes `image` (its samples already PQ-coded in BT.2020) as a 16-bit PNG with the PQ
    /// cICP chunk (temporary file, renamed), carrying `metadata`'s EXIF and XMP; `folder` as
    /// `write`'s (a batch's `--out`: thumb's outputs).
    @discardableResult
    public static func writePQ(
        _ image: Image16, to path: String, in folder: (OutputFolder, shown: String)? = nil, settings: PNGSettings,
        protecting inputs: [String] = [], metadata: CarriedMetadata? = nil
    ) throws(OutputError) -> Int64? {
        // No colour: the cICP chunk is the whole colour description, and no ICC may contradict it.
        try write(
            image, to: path, in: folder, settings: settings, protecting: inputs, metadata: metadata, cicp: pqCICP)
    }
}
