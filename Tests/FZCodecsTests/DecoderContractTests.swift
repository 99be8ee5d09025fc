import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem
@testable import Geometry

/// The `ImageDecoder` contract, checked for every decoder in the registry with the same
/// tests: a new decoder is covered by adding its sample below (the first test fails until
/// it has one), not by copying checks.
struct DecoderContractTests {
    /// One small file per registered format, by `ImageFormat.rawValue`.
    static let samples: [String: String] = [
        "PNG": "Fixtures/generated/corners.png",
        "JPEG": "Fixtures/generated/jpeg-420.jpg",
        "WebP": ".cache/formats/webp-lossless.webp",
        "HEIF": ".cache/formats/heic-corners.heic",
        "RAW": "Fixtures/hostile/good.dng",  // 32x32 DNG, Tools/hostile/make-hostile.py
        "TIFF": ".cache/formats/tiff/rgb-tile-lzw.tif",
        "GIF": "Fixtures/hostile/good.gif",  // 8x6, a transparent index
        "BMP": ".cache/formats/gifbmp/wide24.bmp",  // 400x6 24-bit, bottom-up (Tools/formats/make-gif-bmp.py)
        "JPEG XL": ".cache/jxl/jxl-lossy.jxl",
        "video": ".cache/videos/h264.mp4",  // 1.5 s of H.264 (Tools/video/make-videos.sh)
    ]

    static var formats: [String] { FormatRegistry.inputs.map(\.format.rawValue) }

    static func sample(_ format: String) -> String? { samples[format].map(TestSupport.path) }

    static func bytes(_ path: String) throws -> [UInt8] {
        let file = try CFile.open(readingFrom: path).get()
        return file.read(upTo: 64 << 20)
    }

    @Test func everyRegisteredFormatHasASample() {
        for format in Self.formats { #expect(Self.samples[format] != nil, "no contract sample for \(format)") }
    }

    @Test func registrationIsConsistent() {
        let inputs = FormatRegistry.inputs
        #expect(Set(inputs.map(\.format)).count == inputs.count, "one registration per format")
        for info in inputs {
            #expect(!info.names.isEmpty && !info.extensions.isEmpty)
            #expect(info.extensions.allSatisfy { $0 == $0.lowercased() && !$0.hasPrefix(".") })
        }
        for output in OutputFormat.all {
            for ext in output.extensions { #expect(OutputFormat(forExtension: ext.uppercased()) == output) }
        }
    }

    @Test(arguments: formats)
    func headerNamesTheFormatAndASize(_ format: String) throws {
        let path = try #require(Self.sample(format))
        let reader = try ImageReader(path: path)
        #expect(reader.header.format.rawValue == format)
        #expect(reader.header.storedSize.width > 0 && reader.header.storedSize.height > 0)
        #expect(ImageFormat.sniff(try Self.bytes(path)) == .supported(reader.header.format))
    }

    @Test(arguments: formats)
    func wholeAndScaledReadsHaveTheHeaderSize(_ format: String) throws {
        let path = try #require(Self.sample(format))
        let whole = try ImageReader(path: path).readImage()
        let reader = try ImageReader(path: path)
        #expect(PixelSize(width: whole.width, height: whole.height) == reader.header.uprightSize)
        let scaled = try ImageReader(path: path)
        let denominator = scaled.reductionDenominator(keepingAtLeast: PixelSize(width: 1, height: 1))
        let size = try scaled.beginRows(denominator: denominator)
        #expect(size.width >= 1 && size.height >= 1)
        #expect(size.width <= scaled.header.storedSize.width && size.height <= scaled.header.storedSize.height)
    }

    @Test(arguments: formats)
    func aWindowIsTheSizeAskedFor(_ format: String) throws {
        let path = try #require(Self.sample(format))
        let reader = try ImageReader(path: path)
        let upright = reader.header.uprightSize
        let rect = PixelRect(
            x: upright.width / 4, y: upright.height / 4, width: upright.width / 2, height: upright.height / 2)
        let crops = try reader.readUpright([rect])
        #expect(crops.count == 1)
        #expect(crops.first.map { PixelSize(width: $0.width, height: $0.height) } == rect.size)
    }

    @Test(arguments: formats)
    func aFileCutInHalfFails(_ format: String) throws {
        let path = try #require(Self.sample(format))
        let bytes = try Self.bytes(path)
        let cut = Array(bytes.prefix(bytes.count / 2))
        #expect(throws: DecodeError.self) {
            _ = try ImageReader(bytes: cut, name: "cut").readImage()
        }
    }

    @Test(arguments: formats)
    func thePixelLimitComesFromTheHeader(_ format: String) throws {
        let path = try #require(Self.sample(format))
        var options = DecodeOptions()
        options.maxPixels = 16
        do {
            _ = try ImageReader(path: path, options: options)
            Issue.record("\(format): a \(options.maxPixels)-pixel limit let the file open")
        } catch {
            guard case .tooManyPixels = error else {
                Issue.record("\(format): \(error), not tooManyPixels")
                return
            }
        }
    }

    /// The memory a decode would hold is judged from the header too, before any pixel
    /// buffer: a 1000-byte budget refuses every sample at open.
    @Test(arguments: formats)
    func theMemoryLimitComesFromTheHeader(_ format: String) throws {
        let path = try #require(Self.sample(format))
        var options = DecodeOptions()
        options.maxMemory = 1000
        do {
            _ = try ImageReader(path: path, options: options)
            Issue.record("\(format): a \(options.maxMemory)-byte memory limit let the file open")
        } catch {
            guard case .overMemoryLimit = error else {
                Issue.record("\(format): \(error), not overMemoryLimit")
                return
            }
        }
    }
}
