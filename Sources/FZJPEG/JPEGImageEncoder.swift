import FZFormat
import FZImage
import FZMetadata
import FZSystem
import Geometry

/// JPEG output (libjpeg-turbo): lossy at `--quality`, 4:2:0, baseline; no alpha (flattened
/// onto the background); EXIF and XMP in APP1 segments, ICC in APP2, IPTC in APP13, each
/// segment holding at most 65533 bytes.
package enum JPEGImageEncoder: ImageEncoder {
    /// The payload a JPEG marker segment holds: 65535 less its 2 length bytes.
    package static let segmentLimit = 65533
    /// APP1's EXIF and XMP payloads start with a prefix, which the limit counts.
    static let exifLimit = segmentLimit - JPEGMetadata.exifPrefix.count
    static let xmpLimit = segmentLimit - JPEGMetadata.xmpNamespace.count

    package static let registration = OutputFormat(
        format: .jpeg, name: "JPEG", extensions: ["jpg", "jpeg"], keepsAlpha: false,
        metadata: MetadataContainers(
            exif: .init(limit: exifLimit, place: "JPEG's 64 KiB APP1 segment"),
            xmp: .init(limit: xmpLimit, place: "JPEG's 64 KiB APP1 segment"),
            iptc: .init(limit: segmentLimit, place: "JPEG's 64 KiB APP13 segment"), icc: true),
        options: [.quality], gainMaps: [.ultraHDR], encoder: JPEGImageEncoder.self)

    package static func encode(_ image: Image, _ r: EncodeRequest) throws(OutputError) {
        let flat = image.flattened(onto: r.background)
        var coding = JPEGWriter.Coding(quality: r.settings.quality, subsampling: 420, progressive: false, app1: nil)
        // Gray+alpha flattened onto a coloured background becomes RGB: a gray profile no longer fits.
        coding.icc = flat.format.isGray == image.format.isGray ? r.color?.icc : nil
        // `CarriedMetadata.fitting` warned of larger blocks; one that still comes here (a
        // format chosen otherwise) is left out, not written broken.
        func fits(_ segment: [UInt8]?) -> [UInt8]? { segment.flatMap { $0.count <= segmentLimit ? $0 : nil } }
        if let exif = r.exif { coding.app1 = fits(JPEGMetadata.exifPrefix + exif) }
        coding.app1XMP = fits(r.xmp.map { JPEGMetadata.xmpNamespace + $0 })
        coding.app13 = fits(r.metadata?.jpegAPP13)
        let writer = try JPEGWriter(
            file: r.out.file, path: r.out.path, size: flat.size, channels: flat.format.channels, coding: coding)
        try ImageWriter.inBands(flat) { rows, count throws(OutputError) in try writer.write(rows: rows, count: count) }
        try writer.finish()
    }
}

/// The fixture kit's JPEGs: what `forcezoom fixture` varies beyond the quality (arithmetic
/// coding, progressive, restart intervals, CMYK/YCCK, RGB coding, an XMP orientation), kept
/// here so the fixture kit hands rows and options over without building libjpeg's settings.
extension JPEGImageEncoder {
    /// A fixture JPEG's coding.
    package struct FixtureOptions: Hashable, Sendable {
        package var quality = EncodeSettings.defaultQuality
        /// 444, 422, 420, 440 or 411.
        package var subsampling = 444
        package var progressive = false
        package var arithmetic = false
        /// RGB kept without the YCbCr transform.
        package var rgbCoded = false
        /// For 4-channel (CMYK) rows: stored as YCCK instead of CMYK.
        package var ycck = false
        /// A restart marker every N MCU rows (0: none).
        package var restartRows = 0
        /// An ICC profile written as it is (APP2).
        package var icc: [UInt8]?

        package init() {}
    }

    /// Writes packed rows (1 gray, 3 RGB or 4 Adobe-inverted CMYK bytes a pixel) into `out`.
    /// - Parameters:
    ///   - exif: a TIFF block, written as APP1 after "Exif\0\0".
    ///   - xmp: an XMP packet; the writer takes one APP1, so the file is then encoded in
    ///     memory first and an XMP APP1 segment put after the EXIF one.
    package static func writeFixture(
        rows: [UInt8], size: PixelSize, channels: Int, options o: FixtureOptions, exif: [UInt8]?, xmp: [UInt8]?,
        into out: OutputFile
    ) throws(OutputError) {
        let coding = JPEGWriter.Coding(
            quality: o.quality, subsampling: o.subsampling, progressive: o.progressive, arithmetic: o.arithmetic,
            rgbCoded: o.rgbCoded, ycck: o.ycck, restartRows: o.restartRows,
            app1: exif.map { JPEGMetadata.exifPrefix + $0 }, icc: o.icc)
        guard let xmp else {
            let writer = try JPEGWriter(file: out.file, path: out.path, size: size, channels: channels, coding: coding)
            try rows.withBytes { buffer throws(OutputError) in try writer.write(rows: buffer, count: size.height) }
            try writer.finish()
            return
        }
        guard let memory = CFile.memoryStream() else {
            throw OutputError.writeFailed(path: out.path, reason: "open_memstream failed")
        }
        let writer = try JPEGWriter(file: memory, path: out.path, size: size, channels: channels, coding: coding)
        try rows.withBytes { buffer throws(OutputError) in try writer.write(rows: buffer, count: size.height) }
        try writer.finish()
        _ = memory.close()
        let jpeg = memory.memoryContents
        let payload = JPEGMetadata.xmpNamespace + xmp
        let segment: [UInt8] =
            [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        // After SOI and the segments the writer put first (APP0, the EXIF APP1): before the first
        // segment that is not APP0/APP1.
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] == 0xE0 || jpeg[at + 1] == 0xE1 {
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        try ImageWriter.writeBytes(Array(jpeg[..<at]) + segment + Array(jpeg[at...]), into: out)
    }
}
