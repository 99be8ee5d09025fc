import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// The kit's tolerances hold for every correct decoder, not only libheif (issue 36): each
/// kit file decoded by Pillow's own plugins, dwebp, heif-convert and libvips alone (those
/// installed; Tools/testkit/check_kit.py --decoder) meets its manifest tolerance. Debian's
/// Pillow 9.4 has no AVIF plugin; a Python whose Pillow has one (Pillow 11+) is used too
/// when FORCEZOOM_PILLOW_PYTHON names it (the tolerances were measured with Pillow 13).
@Suite("fixture kit decoders")
struct FixtureKitDecodersCLITests {
    static func present(_ tool: String) -> Bool { CLI.shell("command -v \(tool) > /dev/null") == 0 }

    static var runs: [(python: String, decoder: String)] {
        var out: [(String, String)] = [(CLI.python, "pillow")]
        for tool in ["dwebp", "heif-convert", "vips"] where present(tool) { out.append((CLI.python, tool)) }
        if present("djpeg") { out.append((CLI.python, "djpeg-fast")) }
        if let other = getenv("FORCEZOOM_PILLOW_PYTHON").map({ String(cString: $0) }), !other.isEmpty {
            out.append((other, "pillow"))
        }
        return out
    }

    @Test(.enabled(if: FixtureKitCLITests.pillow)) func everyDecoderMeetsTheTolerances() throws {
        let dir = FixtureKitCLITests.made.dir
        try #require(FixtureKitCLITests.made.first.status == 0)
        let script = CLI.quote(FileSystem.join(CLI.root, "Tools/testkit/check_kit.py"))
        var checked: [String: Int] = [:]
        for (python, decoder) in Self.runs {
            let log = FileSystem.join(dir, "decoder-\(decoder).jsonl")
            let err = FileSystem.join(dir, "decoder-\(decoder).err")
            let code = CLI.shell(
                "\(CLI.quote(python)) \(script) a --decoder \(decoder) > \(CLI.quote(log)) 2> \(CLI.quote(err))",
                in: dir)
            #expect(code == 0, "\(decoder) (\(python)): \(CLI.read(err))")
            let lines = CLI.read(log).split(separator: "\n").compactMap { JSONValue.object($0) }
            #expect(lines.allSatisfy { $0["pass"] == .bool(true) }, "\(decoder): \(CLI.read(log))")
            checked[decoder, default: 0] += lines.count
        }
        // Pillow 9.4 reads the 46 JPEG (3 of them Ultra HDR), PNG and WebP files (a Pillow with
        // AVIF and pillow-heif all 59); dwebp the 13 WebP, heif-convert the 11 HEIC and 2 AVIF,
        // djpeg the 17 JPEG, libvips everything.
        #expect((checked["pillow"] ?? 0) >= 46, "\(checked)")
        if Self.present("dwebp") { #expect(checked["dwebp"] == 13, "\(checked)") }
        if Self.present("heif-convert") { #expect(checked["heif-convert"] == 13, "\(checked)") }
        if Self.present("djpeg") { #expect(checked["djpeg-fast"] == 17, "\(checked)") }
        if Self.present("vips") { #expect(checked["vips"] == 59, "\(checked)") }
    }

    /// Every lossy entry says what its tolerance was measured through; exact ones say nothing.
    @Test func manifestSaysWhatTolerancesWereMeasuredWith() throws {
        try #require(FixtureKitCLITests.made.first.status == 0)
        for f in FixtureKitCLITests.files {
            guard case .array(let with)? = f["measuredWith"] else {
                Issue.record("no measuredWith in \(f)")
                continue
            }
            if case .object(let t)? = f["tolerance"], t["psnr"] != nil {
                #expect(with.count >= 3, "\(f)")
            } else {
                #expect(with.isEmpty, "\(f)")
            }
        }
    }
}
