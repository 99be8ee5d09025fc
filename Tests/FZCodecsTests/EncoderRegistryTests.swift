import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZHEIF
@testable import FZImage
@testable import FZMetadata
@testable import FZSystem
@testable import Geometry

/// The encoder registry (`ImageEncoders.all`): what each encoder declares is what it does.
struct EncoderRegistryTests {
    /// Every encoder, skipping HEIC/AVIF where libheif has no encoder for them.
    static var available: [OutputFormat] {
        OutputFormat.all.filter { $0.format != .heif || HEIFEncoder.available(avif: $0.name == "AVIF") }
    }

    /// 4x2 RGBA: opaque red, half-transparent green, clear blue, then opaque gray.
    static let image = Image(
        width: 4, height: 2, format: .rgba,
        pixels: [
            255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 128, 128, 128, 255,
            255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 128, 128, 128, 255,
        ])

    @Test func namesAndExtensionsAreUnique() {
        let extensions = OutputFormat.all.flatMap(\.extensions)
        #expect(Set(extensions).count == extensions.count, "\(extensions)")
        let names = OutputFormat.all.map { $0.name.lowercased() }
        #expect(Set(names).count == names.count)
        #expect(OutputFormat.all.count == ImageEncoders.all.count)
        for format in OutputFormat.all {
            #expect(!format.extensions.isEmpty && format.extensions.allSatisfy { $0 == $0.lowercased() })
            #expect(OutputFormat(forExtension: format.extensions[0]) == format)
            #expect(OutputFormat(named: format.name) == format)
        }
    }

    @Test(arguments: available)
    func writesWhatItsFormatSniffsAndKeepsAlphaAsDeclared(_ format: OutputFormat) throws {
        let path = FileSystem.join(TestSupport.scratch(), "registry.\(format.extensions[0])")
        var settings = EncodeSettings()
        settings.lossless = format.encoderOptions.contains(.lossless)
        try ImageWriter.write(Self.image, to: path, encoding: format.encoding(settings), threads: 1)
        let reader = try ImageReader(path: path)
        #expect(reader.header.format == format.format)
        let decoded = try reader.readImage()
        #expect(decoded.size == Self.image.size)
        #expect(decoded.format.hasAlpha == format.keepsAlpha, "\(format): \(decoded.format)")
        if format.keepsAlpha {
            let rgba = decoded.converted(to: .rgba)
            #expect(rgba.pixels[7] > 100 && rgba.pixels[7] < 156, "\(format): half alpha \(rgba.pixels[7])")
            #expect(rgba.pixels[11] < 10, "\(format): clear pixel's alpha \(rgba.pixels[11])")
        } else {
            // Flattened onto white: the clear blue pixel is white.
            let rgb = decoded.converted(to: .rgb)
            #expect(rgb.pixels[6] > 240 && rgb.pixels[7] > 240 && rgb.pixels[8] > 240, "\(Array(rgb.pixels[6..<9]))")
        }
    }

    /// An EXIF block of about 70 000 bytes: over JPEG's segment, nothing for the others.
    static func bigEXIF() throws -> CarriedMetadata {
        let n = 70000
        var bytes = MetadataRewriteTests.tiff(
            ifd0: [(0x927C, 7, UInt32(n), [0, 0, 0, 0])], tail: [UInt8](repeating: 1, count: n))
        bytes.replaceSubrange(18..<22, with: [UInt8(8 + 2 + 12 + 4), 0, 0, 0])
        return try #require(MetadataPolicy.keepAll.carried(ImageMetadata(exif: bytes), upright: true).0)
    }

    @Test(arguments: OutputFormat.all)
    func metadataOverTheDeclaredLimitIsLeftOutWithAWarning(_ format: OutputFormat) throws {
        let carried = try Self.bigEXIF()
        let size = try #require(carried.blocks(for: PixelSize(width: 1, height: 1)).exif?.count)
        let (fitted, warnings) = carried.fitting(format)
        let slot = try #require(format.metadata.exif, "every encoder writes EXIF")
        if slot.holds(size) {
            #expect(warnings.isEmpty)
            #expect(fitted?.exif != nil)
        } else {
            #expect(fitted == nil)
            #expect(warnings == ["EXIF block of \(size) bytes is over \(slot.place); left out of the output"])
        }
        // JPEG's declared limits are what one 65533-byte segment holds after each prefix.
        if format == .jpeg {
            #expect(!slot.holds(size))
            #expect(slot.limit == 65533 - 6)
            #expect(format.metadata.xmp?.limit == 65533 - 29)
            #expect(format.metadata.iptc?.limit == 65533)
        } else {
            #expect(format.metadata.iptc == nil, "IPTC has a place only in JPEG's APP13")
        }
    }

    @Test func qualityAndLosslessOptionsAreDeclaredOnce() {
        #expect(EncoderOption.quality.defaultValue == EncodeSettings().quality)
        #expect(EncoderOption.quality.problem(0) == "--quality must be 1-100, got 0")
        #expect(EncoderOption.quality.problem(100) == nil)
        #expect(EncoderOption.compression.problem(10) == "--compression must be 0-9, got 10")
        #expect(
            OutputFormat.all.filter { $0.encoderOptions.contains(.lossless) }.map(\.name) == [
                "WebP", "HEIC", "AVIF", "JPEG XL",
            ])
    }
}
