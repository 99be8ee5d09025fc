import ArgumentParser
import Testing

@testable import ForceZoomCLI

/// `--hdr-headroom` parsed in process: a value arrives as stops, and a bad one is one line that
/// names the option and the value once (ArgumentParser's "The value ... is invalid for ..."),
/// then says why and what to write, with no second copy of the option.
@Suite("--hdr-headroom parsed")
struct HDRHeadroomParsingTests {
    @Test func aRatioArrivesAsStops() throws {
        let crop = try Crop.parse([
            "a.jpg", "--at", "1,1", "--gain-map", "apply", "--hdr-headroom", "4x", "-o", "x.png",
        ])
        #expect(crop.meta.gain.gainMap == .apply && crop.meta.gain.hdrHeadroom == .stops(2))
        let thumb = try Thumb.parse(["a.jpg", "--gain-map", "apply", "--hdr-headroom", "1.5"])
        #expect(thumb.meta.gain.hdrHeadroom == .stops(1.5))
    }

    @Test(arguments: [
        (["crop", "a.jpg", "--hdr-headroom", "x4", "-o", "x.png"], "x4", "write the ratio with the x after it"),
        (["thumb", "a.jpg", "--hdr-headroom", "40"], "40", "more than 32 stops"),
        (
            ["fit", "a.jpg", "--screen", "390x844", "--hdr-headroom=-1", "-o", "x.png"], "-1",
            "below 0 stops is darker than SDR white"
        ),
    ])
    func aBadValueIsSaidOnce(_ arguments: [String], _ value: String, _ why: String) {
        var message = "parsed"
        do { _ = try ForceZoom.parseAsRoot(arguments) } catch { message = ForceZoom.message(for: error) }
        #expect(message.components(separatedBy: "--hdr-headroom").count == 2, "\(message)")
        #expect(message.components(separatedBy: "'\(value)'").count == 2, "\(message)")
        #expect(
            message.hasSuffix(": \(why); give stops above SDR white (2.5) or a ratio to it (4x)"), "\(message)")
    }
}
