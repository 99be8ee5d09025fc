import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

private let havePillow = CLI.shell("/usr/bin/python3 -c 'import numpy, PIL' 2>/dev/null") == 0

/// PNG's colour chunks honoured: a file with gAMA and cHRM and no iCCP or sRGB is converted
/// by `--icc srgb` through a matrix/TRC profile made from the chunks (as the PNG
/// specification's third edition and browsers read it), checked against numpy's
/// computation of the same transform (Tools/testkit/png_chunks_reference.py) on a file
/// with Adobe RGB primaries; cICP is read and reported.
@Suite("PNG colour chunks", .enabled(if: havePillow, "needs /usr/bin/python3 with numpy and Pillow; skipped"))
struct PNGColorChunksCLITests {
    static let script = FileSystem.join(CLI.root, "Tools/testkit/png_chunks_reference.py")

    /// "max_diff max_change" of `output` against numpy's expectation for `input`.
    static func measure(_ dir: String, _ input: String, _ output: String) -> (diff: Double, change: Double)? {
        let out = FileSystem.join(dir, "measure.txt")
        guard
            CLI.shell(
                "cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(script)) check \(input) \(output) > measure.txt")
                == 0
        else {
            return nil
        }
        let v = CLI.read(out).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        return v.count == 2 ? (v[0], v[1]) : nil
    }

    @Test func gammaAndChromaticitiesAreConverted() throws {
        let dir = CLI.scratch()
        try #require(
            CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(Self.script)) write adobe.png") == 0)
        let r = CLI.run(
            ["crop", "adobe.png", "--at", "8,8", "--size", "16", "--icc", "srgb", "-o", "srgb.png"], in: dir)
        try #require(r.status == 0, "\(r)")
        let m = try #require(Self.measure(dir, "adobe.png", "srgb.png"))
        // lcms2's 8-bit transform against numpy's exact one: within rounding.
        #expect(m.diff <= 1.5, "off numpy's conversion by \(m.diff) levels")
        // Adobe RGB's green is far outside sRGB's: taken as sRGB it would be off by over 100 levels.
        #expect(m.change >= 50, "the conversion changed at most \(m.change) levels")
        // --icc keep copies the samples and the chunks.
        let keep = CLI.run(["crop", "adobe.png", "--at", "8,8", "--size", "16", "-o", "keep.png"], in: dir)
        try #require(keep.status == 0, "\(keep)")
        #expect(Self.measure(dir, "adobe.png", "keep.png")?.change == 0)
        let info = CLI.run(["info", "--json", "keep.png"], in: dir)
        let record = try #require(JSONValue.object(info.stdout.split(separator: "\n").first ?? ""))
        #expect(record["gamma"] == .number(0.45455), "\(info.stdout)")
        #expect(record["chromaticities"] != nil, "\(info.stdout)")
    }

    @Test func cicpIsReported() throws {
        let dir = CLI.scratch()
        let make = """
            import struct, zlib
            def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
            raw = b"".join(b"\\0" + bytes([x * 16, 128, 255 - x * 16]) for x in range(16))
            ihdr = struct.pack(">IIBBBBB", 1, 16, 8, 2, 0, 0, 0)
            png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", ihdr) + chunk(b"cICP", bytes([9, 16, 0, 1]))
            png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
            open("cicp.png", "wb").write(png)
            """
        CLI.write(FileSystem.join(dir, "make.py"), Array(make.utf8))
        try #require(CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 make.py") == 0)
        let r = CLI.run(["info", "--json", "cicp.png"], in: dir)
        let record = try #require(JSONValue.object(r.stdout.split(separator: "\n").first ?? ""))
        #expect(record["cicp"] == .array([.number(9), .number(16), .number(0), .number(1)]), "\(r.stdout)")
        #expect(CLI.run(["info", "cicp.png"], in: dir).stdout.contains("cICP 9/16/0/1"))
    }
}
