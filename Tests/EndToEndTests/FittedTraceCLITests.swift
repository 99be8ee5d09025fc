import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `fixture --decode` on coords pieces that are no longer exact: through JPEG q80/q90 and
/// resampled by 1.5 and 0.37 (crop's own `window` is the truth), turned too; the traced
/// window within half a source pixel, the scale within 1%. Exact pieces stay exact.
@Suite("fixture --decode, fitted")
struct FittedTraceCLITests {
    static func numbers(_ v: JSONValue?, _ keys: [String]) -> [Double] {
        guard case .object(let o)? = v else { return [] }
        return keys.compactMap { if case .number(let d)? = o[$0] { d } else { nil } }
    }

    @Test(arguments: [
        ("png", "1.5"), ("png", "0.37"), ("80", "1"), ("80", "1.5"), ("80", "0.37"), ("90", "1"), ("90", "1.5"),
        ("90", "0.37"),
    ])
    func lossyAndResampledCropsTraceWithinHalfAPixel(_ source: String, _ zoom: String) throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let input = source == "png" ? "c.png" : "c\(source).jpg"
        var make = ["fixture", "coords", "--size", "700x500", "-o", input]
        if source != "png" { make += ["--quality", source] }
        try #require(CLI.run(make, in: dir).status == 0)
        let crop = CLI.run(
            ["crop", input, "--at", "301,203", "--size", "90", "--zoom", zoom, "-o", "p.png", "--json"], in: dir)
        try #require(crop.status == 0, "\(crop.stderr)")
        let truth = Self.numbers(JSONValue.object(crop.stdout)?["window"], ["x", "y", "width", "height"])
        let r = CLI.run(["fixture", "--decode", "p.png"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let o = try #require(JSONValue.object(r.stdout))
        let exact = source == "png" && zoom == "1"
        #expect(o["exact"] == (exact ? nil : .bool(false)), "\(r.stdout)")
        let got = Self.numbers(o["window"], ["x", "y", "width", "height"])
        try #require(got.count == 4 && truth.count == 4, "\(r.stdout)")
        for k in 0..<4 { #expect(abs(got[k] - truth[k]) < 0.5, "\(source) zoom \(zoom): \(got) vs \(truth)") }
        let scale = Self.numbers(o["scale"], ["x", "y"])
        #expect(scale.count == 2 && scale.allSatisfy { abs($0 / Double(zoom)! - 1) < 0.01 }, "\(r.stdout)")
        #expect(o["orientation"] == .number(1))
        let residual = Self.numbers(.object(["r": o["residual"] ?? .null]), ["r"])
        #expect(residual.count == 1 && residual[0] < 2, "\(r.stdout)")
    }

    /// A lossy, resampled crop turned a quarter: the orientation is found as well.
    @Test func turnedLossyCropKeepsItsOrientation() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        try #require(
            CLI.run(["fixture", "coords", "--size", "700x500", "--quality", "85", "-o", "c.jpg"], in: dir).status == 0)
        let crop = CLI.run(
            ["crop", "c.jpg", "--at", "400,300", "--size", "80", "--zoom", "1.5", "-o", "p.png", "--json"], in: dir)
        try #require(crop.status == 0)
        let truth = Self.numbers(JSONValue.object(crop.stdout)?["window"], ["x", "y", "width", "height"])
        try #require(CLI.run(["transform", "p.png", "--rotate", "90", "-o", "r.png"], in: dir).status == 0)
        let r = CLI.run(["fixture", "--decode", "r.png"], in: dir)
        let o = try #require(JSONValue.object(r.stdout), "\(r)")
        #expect(o["orientation"] == .number(6), "\(r.stdout)")
        let got = Self.numbers(o["window"], ["x", "y", "width", "height"])
        #expect(got.count == 4 && zip(got, truth).allSatisfy { abs($0 - $1) < 0.5 }, "\(got) vs \(truth)")
    }

    @Test func otherPicturesAreRefused() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        try #require(CLI.run(["fixture", "zoneplate", "--size", "64x64", "-o", "z.png"], in: dir).status == 0)
        let r = CLI.run(["fixture", "--decode", "z.png"], in: dir)
        #expect(r.status == 1 && r.stderr.contains("not a piece of a coords fixture"), "\(r)")
    }
}
