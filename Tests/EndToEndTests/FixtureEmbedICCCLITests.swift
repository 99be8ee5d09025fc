import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `fixture --embed-icc` for every format whose encoder carries a profile (issue 36): the
/// profile read back by tools that are not forcezoom — exiftool (PNG iCCP, JPEG APP2, WebP
/// ICCP, HEIF colr) byte for byte, Pillow for PNG, JPEG and WebP, and for JPEG XL (whose
/// profile is compressed in the codestream) jxlinfo's size of it and, for a lossless file,
/// djxl's decode carrying it byte for byte.
@Suite("fixture --embed-icc")
struct FixtureEmbedICCCLITests {
    static let a98 = "/usr/share/color/icc/ghostscript/a98.icc"
    static let tools =
        CLI.shell("command -v exiftool > /dev/null && command -v djxl > /dev/null && command -v jxlinfo > /dev/null")
        == 0
        && FileSystem.kind(of: a98) == .regular

    @Test(.enabled(if: tools), arguments: ["png", "jpg", "webp", "heic", "avif", "jxl"])
    func profileIsCarried(_ ext: String) throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let name = "p.\(ext)"
        let r = CLI.run(["fixture", "coords", "--size", "48x32", "--embed-icc", Self.a98, "-o", name], in: dir)
        try #require(r.status == 0, "\(r)")
        let profile = CLI.bytes(Self.a98)
        if ext == "jxl" {
            // libjxl keeps the profile in the codestream (compressed), where exiftool does not
            // look: jxlinfo names it, and a lossless file's decode by djxl carries it unchanged
            // (a lossy one is decoded to the space djxl chooses).
            let info = FileSystem.join(dir, "info.txt")
            _ = CLI.shell("jxlinfo p.jxl > info.txt 2>&1", in: dir)
            #expect(CLI.read(info).contains("\(profile.count)-byte ICC profile"), "\(CLI.read(info))")
            let lossless = CLI.run(
                ["fixture", "coords", "--size", "48x32", "--lossless", "--embed-icc", Self.a98, "-o", "l.jxl"], in: dir)
            try #require(lossless.status == 0, "\(lossless)")
            #expect(CLI.shell("djxl l.jxl l.png > /dev/null 2>&1", in: dir) == 0)
            let out = ColorCLITests.python(
                "from PIL import Image; print(Image.open('l.png').info.get('icc_profile') == open('\(Self.a98)', 'rb').read())",
                in: dir)
            #expect(out == "True\n", "\(out)")
            // Without the flag: no ICC profile, an sRGB colour encoding.
            #expect(CLI.run(["fixture", "coords", "--size", "48x32", "-o", "n.jxl"], in: dir).status == 0)
            _ = CLI.shell("jxlinfo n.jxl > info.txt 2>&1", in: dir)
            #expect(!CLI.read(info).contains("ICC profile"), "\(CLI.read(info))")
            return
        }
        #expect(CLI.shell("exiftool -b -ICC_Profile \(name) > got.icc", in: dir) == 0)
        #expect(CLI.bytes(FileSystem.join(dir, "got.icc")) == profile, "\(ext): exiftool reads the profile back")
        if ["png", "jpg", "webp"].contains(ext) {
            let out = ColorCLITests.python(
                "from PIL import Image; print(Image.open('\(name)').info.get('icc_profile') == open('\(Self.a98)', 'rb').read())",
                in: dir)
            #expect(out == "True\n", "\(ext): Pillow reads the profile back: \(out)")
        }
    }

    @Test func jxlIsWrittenAsJXL() throws {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let r = CLI.run(["fixture", "coords", "--size", "48x32", "-o", "c.jxl"], in: dir)
        try #require(r.status == 0, "\(r)")
        // A JPEG XL codestream (FF 0A) or container (the JXL box), not a PNG named .jxl.
        let head = Array(CLI.bytes(FileSystem.join(dir, "c.jxl")).prefix(12))
        #expect(
            head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]), "\(head)")
        let bad = CLI.run(["fixture", "coords", "--size", "48x32", "--exif-orientation", "6", "-o", "e.jxl"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--exif-orientation"), "\(bad)")
    }
}
