import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `fixture --embed-icc` for every format whose encoder carries a profile (issue 36): the
/// profile read back by tools that are not forcezoom — exiftool (PNG iCCP, JPEG APP2, WebP
/// ICCP, HEIF colr) byte for byte, Pillow for PNG, JPEG and WebP, and for JPEG XL (whose
/// profile is compressed in the codestream) djxl's decode, whose PNG carries a profile with
/// the same description and the same colorants.
@Suite("fixture --embed-icc")
struct FixtureEmbedICCCLITests {
    static let a98 = "/usr/share/color/icc/ghostscript/a98.icc"
    static let tools =
        CLI.shell("command -v exiftool > /dev/null && command -v djxl > /dev/null") == 0
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
            let out = ColorCLITests.python(
                """
                import io, subprocess
                from PIL import Image, ImageCms
                subprocess.run(['djxl', 'p.jxl', 'd.png'], check=True, capture_output=True)
                got = ImageCms.ImageCmsProfile(io.BytesIO(Image.open('d.png').info['icc_profile']))
                want = ImageCms.ImageCmsProfile('\(Self.a98)')
                g, w = got.profile, want.profile
                same = all(abs(a - b) < 2e-3 for pa, pb in ((g.red_colorant, w.red_colorant), (g.green_colorant, w.green_colorant), (g.blue_colorant, w.blue_colorant)) for a, b in zip(pa[0], pb[0]))
                print(same)
                """, in: dir)
            #expect(out == "True\n", "\(out)")
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
