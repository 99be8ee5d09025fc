import TestSupport
import Testing

@testable import FZJPEG
@testable import Geometry

/// The marker walk `crop --lossless` checks before TurboJPEG reads anything: the frame, the
/// sampling factors and the scan count, against what the hostile files were built with.
struct JPEGFrameTests {
    static func file(_ name: String) -> [UInt8] { CLIBytes.read(TestSupport.path("Fixtures/hostile/\(name)")) }

    /// make-hostile.py's valid scan bomb: 1 DC scan + 3 components x 63 coefficients x 14.
    @Test func countsEveryScanOfABomb() throws {
        let frame = try #require(JPEGFrame(Self.file("jpeg-scan-bomb.jpg")))
        #expect(frame.progressive && frame.marker == 0xC2)
        #expect(frame.scans == 1 + 3 * 63 * 14)
        #expect(frame.size == PixelSize(width: 256, height: 256))
    }

    /// A baseline 4:4:4 file: one scan, three components of 1x1, 128 bytes a block each.
    @Test func readsABaselineFrame() throws {
        let frame = try #require(JPEGFrame(Self.file("good.jpg")))
        #expect(!frame.progressive && frame.scans == 1)
        let blocks = Int64((frame.size.width + 7) / 8) * Int64((frame.size.height + 7) / 8)
        #expect(frame.samplingFactors == "1x1,1x1,1x1")
        #expect(frame.coefficientBytes == blocks * 128 * 3)
    }

    /// No SOI, or cut before the frame: nil (TurboJPEG then says what is wrong); every cut
    /// of a real file is walked without a trap.
    @Test func refusesWhatIsNoFrame() {
        #expect(JPEGFrame([0x89, 0x50, 0x4E, 0x47]) == nil)
        let bytes = Self.file("good.jpg")
        #expect(JPEGFrame(Array(bytes.prefix(4))) == nil)
        for n in 0..<bytes.count { _ = JPEGFrame(Array(bytes.prefix(n))) }
    }
}
