import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem

/// The one place an output's name becomes a format, and JPEG's flattening arithmetic.
struct OutputFormatTests {
    @Test func extensionsChooseAndFormatFillsIn() throws {
        #expect(try OutputFormat.chosen(forPath: "a/b.JPEG").get() == .jpeg)
        #expect(try OutputFormat.chosen(forPath: "x.hif").get() == .heic)
        #expect(try OutputFormat.chosen(forPath: "-").get() == .png)
        #expect(try OutputFormat.chosen(forPath: "-", requested: .avif).get() == .avif)
        #expect(try OutputFormat.chosen(forPath: "x.tmp", requested: .webp).get() == .webp)
        #expect(throws: OutputFormatProblem.unknownExtension(path: "x.gif", ext: "gif")) {
            try OutputFormat.chosen(forPath: "x.gif").get()
        }
        #expect(try OutputFormat.chosen(forPath: "/dev/stdout").get() == .png)
        #expect(throws: OutputFormatProblem.contradicts(path: "x.png", named: .png, requested: .jpeg)) {
            try OutputFormat.chosen(forPath: "x.png", requested: .jpeg).get()
        }
        #expect(OutputFormatProblem.unknownExtension(path: "x.gif", ext: "gif").exitCode == 2)
    }

    @Test func qualityHundredStaysLossyForWebP() throws {
        // Lossy WebP is a "VP8 " chunk, lossless "VP8L": quality 100 asks for neither.
        let image = Image(width: 8, height: 8, format: .rgb, pixels: [UInt8](repeating: 90, count: 192))
        func chunk(quality: Int, lossless: Bool) throws -> String {
            let path = FileSystem.join(TestSupport.scratch(), "q\(quality)-\(lossless).webp")
            let settings = EncodeSettings(quality: quality, lossless: lossless)
            try ImageWriter.write(image, to: path, encoding: OutputFormat.webp.encoding(settings), threads: 1)
            return String(decoding: CLI.bytes(path)[12..<16], as: UTF8.self)
        }
        #expect(try chunk(quality: 100, lossless: false) == "VP8 ")
        #expect(try chunk(quality: 50, lossless: true) == "VP8L")
        #expect(OutputChoice(quality: 100).encoding(for: "x.webp").settings.lossless == false)
    }

    @Test func flatteningIsPremultipliedOverTheBackground() {
        // Opaque, half and clear pixels whose colour under the alpha is pure red.
        let rgba = Image(width: 3, height: 1, format: .rgba, pixels: [255, 0, 0, 255, 255, 0, 0, 128, 255, 0, 0, 0])
        let onWhite = rgba.flattened(onto: .white)
        #expect(onWhite.format == .rgb)
        #expect(onWhite.pixels == [255, 0, 0, 255, 127, 127, 255, 255, 255])
        let onBlue = rgba.flattened(onto: Color(r: 0, g: 0, b: 255))
        #expect(onBlue.pixels == [255, 0, 0, 128, 0, 127, 0, 0, 255])
        // A transparent background is white; gray stays gray on gray.
        #expect(rgba.flattened(onto: .transparent) == onWhite)
        let gray = Image(width: 1, height: 1, format: .grayAlpha, pixels: [0, 64]).flattened(onto: .white)
        #expect(gray.format == .gray && gray.pixels == [191])
        let opaque = Image(width: 1, height: 1, format: .rgb, pixels: [1, 2, 3])
        #expect(opaque.flattened(onto: .black) == opaque)
    }
}
