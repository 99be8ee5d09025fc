import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import FZThumbnails
@testable import Geometry

/// A HEIC grid's thumbnail whose box pre-shrink is averaged in Y'CbCr inside the tiles
/// (`HEIFBlockStream`, issue 38) against a Lanczos reduction of heif-convert's whole decode,
/// and against the same pipeline run over heif-convert's RGB (a PNG, whose rows are
/// averaged after conversion, as HEIC grids were before): a little further from the reference,
/// which rounds and clips every pixel before it reduces (so does the RGB average), while the
/// Y'CbCr average rounds and clips only each block's mean.
struct HEIFThumbnailQualityTests {
    @Test(arguments: [("wide.heic", "128"), ("wide.heic", "x40")])
    func blockAveragedThumbnailKeepsItsQuality(_ name: String, _ size: String) throws {
        let heic = TestSupport.path(".cache/heicgrid/\(name)")
        let png = TestSupport.path(".cache/heicgrid/\(name.split(separator: ".")[0]).ref.png")
        let reader = try ImageReader(path: heic)
        let g = try ThumbnailGeometry(source: reader.header.uprightSize, size: ThumbnailSize(parsing: size))
        let (thumb, _) = try reader.readResampled(
            to: g.output, filter: .lanczos, headroom: Thumbnailer.headroom, boxShrink: true)
        let (before, _) = try ImageReader(path: png).readResampled(
            to: g.output, filter: .lanczos, headroom: Thumbnailer.headroom, boxShrink: true)
        let full = try ImageReader(path: png).readImage().converted(to: .rgb)
        let reference = ThumbnailQualityTests.lanczos(full, to: g.output)
        let p = ThumbnailQualityTests.psnr(thumb, reference)
        let q = ThumbnailQualityTests.psnr(before, reference)
        #expect(p >= ThumbnailQualityTests.minimumPSNR, "\(name) \(size): \(p) dB")
        // Measured: 42.9 against 44.0 dB at 128 px, 43.6 against 44.0 at 40 px high (the
        // reference rounds and clips each pixel before reducing, as the RGB average does).
        #expect(p >= q - 1.5, "\(name) \(size): \(p) dB against \(q) dB averaging RGB")
        #expect(ThumbnailQualityTests.psnr(thumb, before) >= 45, "\(name) \(size)")
    }
}
