import FZCodecs
import FZFormat
import FZImage
import FZMetadata
import FZRender
import Geometry

/// libFuzzer's entry point: one input is one file's bytes, taken through everything
/// forcezoom does to an untrusted image: sniffing, the PNG or JPEG header (and its EXIF
/// orientation), a one-pass decode of two upright crops (as `crop` does; at 16 bits too where
/// the samples are deeper than 8), and a streamed, DCT-scaled resample of the whole image
/// (as `fit` and `thumb` do), strictly and leniently, and the colour path (ICC/APP2
/// reassembly, lcms2 on the embedded profile, CMYK through it). It returns 0 whatever
/// happens: errors are expected, crashes, hangs and leaks are the findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    // The EXIF parser on raw bytes too: inputs that are bare TIFF headers reach it directly.
    _ = EXIF.orientationValue(in: bytes)
    // The metadata rewriters on raw bytes (bare TIFF blocks, bare XMP packets), and on
    // what every file carries below: what they write must parse again.
    let anySize = PixelSize(width: 1 + bytes.count % 70000, height: 3)
    carryMetadata(ImageMetadata(exif: bytes, xmp: bytes, iptc: bytes), size: anySize)
    // The XMP namespace resolver: the bytes inside an RDF envelope that declares exif's
    // namespace under a prefix and as the default, so redeclarations and unprefixed names
    // in them are resolved in those scopes.
    carryMetadata(ImageMetadata(xmp: xmpEnvelope + bytes + xmpEnvelopeEnd), size: anySize)
    _ = IPTCBlock.iim(inResources: bytes)

    // A hash of the input places the crops, so the same input always takes the same path
    // while different inputs reach different columns and rows (JPEG crops start libjpeg
    // at an iMCU column and skip rows; PNG crops stop after their last row).
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes.prefix(4096) { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
    // The terminal's replies, the journal, HEIF boxes past 4096 children (FuzzSurfaces.swift).
    fuzzSurfaces(bytes, hash: hash)

    var options = DecodeOptions()
    // Bigger images only cost time, not coverage; the limits themselves are code under test.
    options.maxPixels = 1 << 22
    options.maxMemory = 64 << 20
    options.autoOrient = hash & 1 == 0
    // CMYK JPEGs with a profile that cannot be used: passed over, or refused (--icc srgb).
    options.strictProfiles = hash & 2 == 0
    // PNG rows inflated on a second thread (fz_png_pipe.c), whatever the image's size.
    options.threads = 2
    options.pngPipelineMinimum = hash & 4 == 0 ? 0 : 1 << 20
    for lenient in [false, true] {
        options.lenient = lenient
        guard let reader = try? ImageReader(bytes: bytes, name: "fuzz", options: options) else { continue }
        let upright = reader.header.uprightSize
        carryMetadata(reader.metadata, size: upright)
        let side = min(48, upright.width, upright.height)
        let x = Int((hash >> 8) % UInt64(upright.width - side + 1))
        let y = Int((hash >> 32) % UInt64(upright.height - side + 1))
        let square = PixelRect(x: x, y: y, width: side, height: side)
        let corner = PixelRect(x: upright.width - 1, y: upright.height - 1, width: 1, height: 1)
        if let images = try? reader.readUpright([square, corner]) {
            precondition(images.count == 2 && images[0].size == square.size, "crop size")
        }
        // At 16 bits a sample (`--depth 16`): a 16-bit PNG's rows, a 10- or 12-bit HEIF's
        // whole decode or its grid's tiles.
        if reader.hasDeepSamples, let deep = try? ImageReader(bytes: bytes, name: "fuzz", options: options) {
            let stored = deep.header.storedSize
            let s = min(side, stored.width, stored.height)
            let rect = PixelRect(x: stored.width - s, y: y % (stored.height - s + 1), width: s, height: s)
            if let images = try? deep.readStored16([rect, PixelRect(x: 0, y: 0, width: 1, height: 1)]) {
                precondition(images.count == 2 && images[0].size == rect.size, "16-bit crop size")
            }
        }
        guard let again = try? ImageReader(bytes: bytes, name: "fuzz", options: options) else {
            preconditionFailure("the same bytes opened once and not twice")
        }
        let target = PixelSize(width: min(16, upright.width), height: min(12, upright.height))
        if var (image, _) = try? again.readResampled(to: target, filter: .lanczos) {
            precondition(image.size == target, "resampled size")
            // The colour path on whatever profile the file carries: lcms2 reading it (keep's
            // check, the sRGB transform, drawn colours into it) and the transform applied.
            let color = again.header.color
            _ = KeptColor(color)
            _ = DrawingColors(output: color).map(.white)
            if let converter = try? SRGBConverter(color: color, format: image.format, path: "fuzz") {
                converter.convert(&image)
            }
        }
    }
    return 0
}

/// What an output would carry of `metadata`, written for `size` with and without the
/// location: each block that parses is rewritten, and the rewrite must parse again with
/// the orientation reset and no GPS IFD when the location is left out.
func carryMetadata(_ metadata: ImageMetadata, size: PixelSize) {
    for policy in [MetadataPolicy.keepAll, MetadataPolicy(keep: .all, location: false)] {
        guard let carried = policy.carried(metadata, upright: true).0 else { continue }
        let (exif, xmp) = carried.blocks(for: size)
        if let exif {
            guard let again = try? EXIFBlock(parsing: exif) else {
                preconditionFailure("rewritten EXIF does not parse")
            }
            precondition(again.orientation == nil || again.orientation == 1, "orientation not reset")
            precondition(policy.location || !again.hasLocation, "GPS kept")
            precondition(again.droppedEntries == 0, "rewritten EXIF has entries a reader drops (a stale pointer?)")
        }
        if let xmp {
            guard let again = try? XMPPacket(parsing: xmp) else { preconditionFailure("rewritten XMP does not parse") }
            precondition(policy.location || !again.hasLocation, "XMP location kept")
        }
        if let app13 = carried.jpegAPP13 {
            guard let iim = IPTCBlock.iim(inResources: Array(app13.dropFirst(14))),
                let again = try? IPTCBlock(parsing: iim)
            else {
                preconditionFailure("rewritten IPTC does not parse")
            }
            precondition(policy.location || !again.hasLocation, "IPTC location kept")
        }
        _ = carried.fitting(.jpeg)
    }
}

/// An RDF envelope around fuzzed bytes (`xmpEnvelope` + bytes + `xmpEnvelopeEnd`).
let xmpEnvelope = Array(
    """
    <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:a="http://ns.adobe.com/exif/1.0/">\
    <rdf:Description rdf:about="" xmlns="http://ns.adobe.com/exif/1.0/" xmlns:d="http://www.dji.com/drone-dji/1.0/">
    """.utf8)
let xmpEnvelopeEnd = Array("</rdf:Description></rdf:RDF>".utf8)
