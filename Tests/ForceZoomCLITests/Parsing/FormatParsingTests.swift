import ArgumentParser
import Testing

@testable import ForceZoomCLI

/// How outputs choose their format, parsed in process: --format, the extension, the
/// default names, and the usage errors for names no encoder claims.
@Suite("Output formats parsed in process")
struct FormatParsingTests {
    @Test func formatNamesAndExtensionsParse() throws {
        #expect(try Fit.parse(["a.png", "--screen", "10x10", "--format", "jpg"]).outputOptions.formats.format == .jpeg)
        #expect(
            try Fit.parse(["a.png", "--screen", "10x10", "--format", "HEIC"]).outputOptions.formats.format == .heic)
        let bad = ParsingTests.failure(Fit.self, ["a.png", "--screen", "10x10", "--format", "gif"]) ?? ""
        #expect(bad.contains("gif") && bad.contains("avif"), "\(bad)")
    }

    @Test func defaultNamesTakeTheFormatsExtension() throws {
        #expect(
            try Fit.parse(["a.png", "--screen", "10x10"]).outputOptions.path(input: "dir/a.png", suffix: "fit")
                == "a.fit.png")
        let webp = try Fit.parse(["a.png", "--screen", "10x10", "--format", "webp"])
        #expect(webp.outputOptions.path(input: "dir/a.png", suffix: "fit") == "a.fit.webp")
        #expect(try Crop.parse(["a.png", "--at", "1,1", "--format", "avif"]).target.path(0) == "a.crop.avif")
        let two = try Crop.parse(["a.png", "--at", "1,1", "--at", "2,2", "--lossless"]).target
        #expect(two.path(0) == "a.crop-1.jpg" && two.path(1) == "a.crop-2.jpg")
        #expect(try Thumb.parse(["d", "--format", "jpeg"]).outputName.description == "%s.thumb.jpg")
        #expect(try Thumb.parse(["d", "-r"]).outputName.description == "%d/%s.thumb.png")
        #expect(try Thumb.parse(["d", "-r", "--name", "%s.png"]).outputName.description == "%s.png")
    }

    @Test func namesNoEncoderClaimsAreUsageErrors() {
        let gif = ParsingTests.failure(Crop.self, ["a.png", "--at", "1,1", "-o", "x.gif"]) ?? ""
        #expect(
            gif.contains("'x.gif': forcezoom cannot write .gif files") && gif.contains("HEIC (.heic, .heif, .hif)"),
            "\(gif)")
        // No extension at all (a device, a FIFO) is PNG, or --format's.
        #expect(ParsingTests.failure(Transform.self, ["a.png", "--rotate", "5", "-o", "out"]) == nil)
        #expect(
            ParsingTests.failure(Transform.self, ["a.png", "--rotate", "5", "-o", "out", "--format", "png"]) == nil)
        let clash =
            ParsingTests.failure(
                Frame.self, ["a.png", "--view", "9x9", "--at", "1,1", "-o", "x.jpg", "--format", "webp"]) ?? ""
        #expect(clash.contains("--format webp but 'x.jpg' names JPEG"), "\(clash)")
        let sheet =
            ParsingTests.failure(
                Animate.self, ["a.png", "--screen", "9x9", "--from", "0,0,1,1", "--contact-sheet", "s.tiff"]) ?? ""
        #expect(sheet.contains(".tiff"), "\(sheet)")
        let apng =
            ParsingTests.failure(Animate.self, ["a.png", "--screen", "9x9", "--from", "0,0,1,1", "--apng", "a.webp"])
            ?? ""
        #expect(apng.contains("--apng writes an animated PNG"), "\(apng)")
        #expect(
            ParsingTests.failure(Fixture.self, ["solid", "--size", "2x2", "-o", "s.gif"])?.contains(".gif") == true)
        #expect(ParsingTests.failure(Compare.self, ["a.png", "b.png", "--diff", "d.bmp"])?.contains(".bmp") == true)
    }

    @Test func cropLosslessMeansABlockCopyOnlyForJPEG() throws {
        #expect(try Crop.parse(["a.jpg", "--at", "1,1", "--lossless", "-o", "x.jpg"]).copiesBlocks)
        #expect(try Crop.parse(["a.jpg", "--at", "1,1", "--lossless"]).copiesBlocks)
        let webp = try Crop.parse(["a.png", "--at", "1,1", "--lossless", "--zoom", "2", "-o", "x.webp"])
        #expect(!webp.copiesBlocks && webp.encodesLossless)
        #expect(ParsingTests.failure(Crop.self, ["a.jpg", "--at", "1,1", "--lossless", "-o", "x.png"]) != nil)
    }
}
