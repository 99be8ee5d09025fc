import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem

/// Every command writes every format by its output's extension (or --format), refuses an
/// extension no encoder claims (exit 2, naming the formats), and JPEG flattens alpha onto
/// the background: checked on the built binary, the pixels by Pillow and dwebp.
@Suite(.serialized)
struct OutputFormatsCLITests {
    static let dir = CLI.scratch()
    static let python = "/usr/bin/python3"
    static let hasPillow = CLI.shell("\(python) -c 'import PIL' 2>/dev/null") == 0
    static let hasDwebp = CLI.shell("command -v dwebp >/dev/null") == 0

    /// A 64x48 RGBA gradient whose alpha falls from opaque to clear: every colour under a
    /// transparent pixel is a strong one, so an unblended JPEG shows it.
    static let input: String = {
        let path = FileSystem.join(dir, "rgba.png")
        _ = CLI.run(["fixture", "gradient", "--size", "64x48", "--color", "rgba", "--fade", "-o", path])
        return path
    }()

    static let extensions = ["png", "jpg", "webp", "heic", "avif"]

    /// The arguments that make `command` write `out` from `input`.
    static func arguments(_ command: String, out: String) -> [String] {
        switch command {
        case "crop": return ["crop", input, "--at", "31,23", "--size", "33", "-o", out]
        case "fit": return ["fit", input, "--screen", "40x30", "-o", out]
        case "frame": return ["frame", input, "--view", "50x40", "--at", "25,20", "-o", out]
        case "transform": return ["transform", input, "--rotate", "30", "-o", out]
        case "animate":
            let ext = FileSystem.fileExtension(out)
            let pattern = String(out.dropLast(ext.count + 1)) + "-%d." + ext
            return ["animate", input, "--screen", "40x30", "--from", "0,0,10,10", "--frames", "2", "-o", pattern]
        case "thumb":
            return [
                "thumb", input, "--size", "20", "--out", FileSystem.directory(of: out), "--name",
                FileSystem.basename(out),
            ]
        case "fixture": return ["fixture", "checker", "--size", "33x17", "-o", out]
        default: return ["compare", input, input, "--diff", out]
        }
    }

    static let commands = ["crop", "fit", "frame", "transform", "animate", "thumb", "fixture", "compare"]

    /// The format a reader sniffs from the first bytes: PNG, JPEG, WebP, HEIC, AVIF or nil.
    static func sniff(_ b: [UInt8]) -> String? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if b.count > 12 && b[0..<4] == [0x52, 0x49, 0x46, 0x46][...] && Array(b[8..<12]) == Array("WEBP".utf8) {
            return "webp"
        }
        if b.count > 12 && Array(b[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if brand == "avif" || brand == "avis" { return "avif" }
            if ["heic", "heix", "mif1"].contains(brand) { return "heic" }
        }
        return nil
    }

    @Test(arguments: commands)
    func everyExtensionGivesItsFormat(_ command: String) throws {
        for ext in Self.extensions {
            let folder = FileSystem.join(Self.dir, "\(command)-\(ext)")
            #expect(CLI.shell("mkdir -p \(CLI.quote(folder))") == 0)
            let out = FileSystem.join(folder, "out.\(ext)")
            let r = CLI.run(Self.arguments(command, out: out), in: folder)
            #expect(r.status == 0, "\(command) .\(ext): \(r.stderr)")
            let written = command == "animate" ? FileSystem.join(folder, "out-1.\(ext)") : out
            #expect(Self.sniff(CLI.bytes(written)) == ext, "\(command) -o out.\(ext) wrote something else")
        }
    }

    @Test(arguments: commands)
    func unknownExtensionIsAUsageErrorNamingTheFormats(_ command: String) {
        let out = FileSystem.join(Self.dir, "\(command)-refused.gif")
        let r = CLI.run(Self.arguments(command, out: out))
        #expect(r.status == 2, "\(command): \(r.stderr)")
        for name in ["PNG (.png)", "JPEG (.jpg, .jpeg)", "WebP (.webp)", "HEIC (.heic", "AVIF (.avif)"] {
            #expect(r.stderr.contains(name), "\(command): \(r.stderr)")
        }
        #expect(r.stderr.contains(".gif"), "the message quotes what was typed: \(r.stderr)")
        #expect(CLI.shell("ls \(CLI.quote(Self.dir))/\(command)-refused* >/dev/null 2>&1") != 0, "nothing written")
    }

    @Test func formatChoosesStandardOutputAndExtensionlessNames() {
        let stdout = FileSystem.join(Self.dir, "stdout.bin")
        let command = ([CLI.binary, "crop", Self.input, "--at", "5,5", "--format", "webp", "-o", "-"]).map(CLI.quote)
            .joined(separator: " ")
        #expect(CLI.shell("\(command) > \(CLI.quote(stdout))") == 0)
        #expect(Self.sniff(CLI.bytes(stdout)) == "webp")
        let bare = FileSystem.join(Self.dir, "bare")
        #expect(CLI.run(["fit", Self.input, "--screen", "20x20", "--format", "avif", "-o", bare]).status == 0)
        #expect(Self.sniff(CLI.bytes(bare)) == "avif")
        // Without --format a name with no extension (a device, a FIFO) is PNG, as before.
        let r = CLI.run(["fit", Self.input, "--screen", "20x20", "-o", bare + "2"])
        #expect(r.status == 0 && Self.sniff(CLI.bytes(bare + "2")) == "png", "\(r.stderr)")
        // --format against the extension: refused, not silently one or the other.
        let c = CLI.run([
            "crop", Self.input, "--at", "5,5", "--format", "jpeg", "-o", FileSystem.join(Self.dir, "c.png"),
        ])
        #expect(c.status == 2 && c.stderr.contains("--format jpeg but"), "\(c.stderr)")
    }

    /// A lossless WebP has a "VP8L" chunk; a lossy one "VP8 " (and "ALPH" for alpha).
    static func webpIsLossless(_ b: [UInt8]) -> Bool { b.contains(subsequence: Array("VP8L".utf8)) }

    @Test func webpQuality100StaysLossyAndLosslessIsAskedByName() {
        let lossy = FileSystem.join(Self.dir, "q100.webp")
        let exact = FileSystem.join(Self.dir, "lossless.webp")
        let opaque = FileSystem.join(Self.dir, "opaque.png")
        _ = CLI.run(["fixture", "noise", "--size", "40x30", "-o", opaque])
        #expect(
            CLI.run(["crop", opaque, "--at", "20,15", "--size", "30", "--quality", "100", "-o", lossy]).status == 0)
        #expect(CLI.run(["crop", opaque, "--at", "20,15", "--size", "30", "--lossless", "-o", exact]).status == 0)
        #expect(!Self.webpIsLossless(CLI.bytes(lossy)), "--quality 100 must stay lossy, as cwebp")
        #expect(Self.webpIsLossless(CLI.bytes(exact)))
        let thumb = FileSystem.join(Self.dir, "tq")
        #expect(
            CLI.run(["thumb", opaque, "--size", "20", "--quality", "100", "--out", thumb, "--name", "%s.webp", "-q"])
                .status == 0)
        #expect(!Self.webpIsLossless(CLI.bytes(FileSystem.join(thumb, "opaque.webp"))))
    }

    @Test(.enabled(if: hasPillow && hasDwebp, "needs Pillow (/usr/bin/python3) and dwebp; skipped"))
    func losslessOutputsArePixelExact() throws {
        // The PNG crop equals Pillow's crop of the input, alpha included; the lossless WebP
        // decoded by dwebp equals the PNG.
        let png = FileSystem.join(Self.dir, "exact.png")
        let webp = FileSystem.join(Self.dir, "exact.webp")
        #expect(CLI.run(["crop", Self.input, "--at", "31,23", "--size", "33", "-o", png]).status == 0)
        #expect(CLI.run(["crop", Self.input, "--at", "31,23", "--size", "33", "--lossless", "-o", webp]).status == 0)
        let decoded = FileSystem.join(Self.dir, "exact.dwebp.png")
        #expect(CLI.shell("dwebp -quiet \(CLI.quote(webp)) -o \(CLI.quote(decoded))") == 0)
        let script = """
            import sys
            from PIL import Image, ImageChops
            src, png, dw = (Image.open(p).convert('RGBA') for p in sys.argv[1:4])
            ref = src.crop((15, 7, 48, 40))
            print(max(ImageChops.difference(ref, png).getextrema(), key=lambda e: e[1])[1],
                  max(ImageChops.difference(png, dw).getextrema(), key=lambda e: e[1])[1])
            """
        let out = try Self.python(script, [Self.input, png, decoded])
        #expect(out == "0 0", "max differences (Pillow crop vs PNG, PNG vs dwebp): \(out)")
    }

    /// Runs a Pillow script; its stdout, trimmed.
    static func python(_ script: String, _ args: [String]) throws -> String {
        let file = FileSystem.join(dir, "check.py")
        let out = FileSystem.join(dir, "check.out")
        CLI.write(file, Array(script.utf8))
        let status = CLI.shell(
            "\(python) \(CLI.quote(file)) \(args.map(CLI.quote).joined(separator: " ")) > \(CLI.quote(out)) 2>&1")
        let text = CLI.read(out).split(separator: "\n").joined(separator: " ")
        try #require(status == 0, "python: \(text)")
        return text
    }

    /// Pillow's alpha_composite of `png` (RGBA) over `background`, against `jpeg`: the mean
    /// and the largest difference, and the same for the alpha simply dropped.
    static let compositeScript = """
        import sys
        from PIL import Image, ImageChops, ImageStat
        png = Image.open(sys.argv[1]).convert('RGBA')
        jpg = Image.open(sys.argv[2]).convert('RGB')
        bg = Image.new('RGBA', png.size, tuple(int(sys.argv[3][i:i + 2], 16) for i in (0, 2, 4)) + (255,))
        ref = Image.alpha_composite(bg, png).convert('RGB')
        def diff(a, b):
            d = ImageChops.difference(a, b)
            return sum(ImageStat.Stat(d).mean) / 3, max(e[1] for e in d.getextrema())
        m, x = diff(ref, jpg)
        dm, dx = diff(png.convert('RGB'), jpg)
        print('%.3f %d %.3f %d' % (m, x, dm, dx))
        """

    /// (mean, max) against the composite, (mean, max) against the alpha dropped.
    static func compare(png: String, jpeg: String, background: String) throws -> [Double] {
        try python(compositeScript, [png, jpeg, background]).split(separator: " ").compactMap { Double($0) }
    }

    @Test(.enabled(if: hasPillow, "needs Pillow (/usr/bin/python3); skipped"))
    func jpegCropIsTheCompositeOverTheBackground() throws {
        for (option, hex) in [(nil, "ffffff"), ("#204080", "204080")] {
            let png = FileSystem.join(Self.dir, "flat-\(hex).png")
            let jpg = FileSystem.join(Self.dir, "flat-\(hex).jpg")
            let extra = option.map { ["--background", $0] } ?? []
            #expect(CLI.run(["crop", Self.input, "--at", "31,23", "--size", "33", "-o", png] + extra).status == 0)
            #expect(
                CLI.run(["crop", Self.input, "--at", "31,23", "--size", "33", "--quality", "100", "-o", jpg] + extra)
                    .status == 0)
            let d = try Self.compare(png: png, jpeg: jpg, background: hex)
            try #require(d.count == 4)
            // Within JPEG's quantisation at quality 100 with 4:2:0 chroma (the gradient's
            // colour edges): small on average, bounded everywhere; dropping the alpha is far off.
            #expect(d[0] < 1.5 && d[1] <= 24, "against the composite over #\(hex): mean \(d[0]), max \(d[1])")
            #expect(d[2] > 20, "the alpha dropped would differ much more (mean \(d[2]))")
        }
    }

    @Test(.enabled(if: hasPillow, "needs Pillow (/usr/bin/python3); skipped"))
    func jpegThumbnailIsTheCompositeOverTheBackground() throws {
        let out = FileSystem.join(Self.dir, "thumbs")
        for (background, hex) in [("white", "ffffff"), ("black", "000000")] {
            for ext in ["png", "jpg"] {
                let r = CLI.run([
                    "thumb", Self.input, "--size", "32", "--out", out, "--name", "%s.\(background).\(ext)", "--quality",
                    "100",
                    "--background", background, "-q",
                ])
                #expect(r.status == 0, "\(r.stderr)")
            }
            let d = try Self.compare(
                png: FileSystem.join(out, "rgba.\(background).png"),
                jpeg: FileSystem.join(out, "rgba.\(background).jpg"), background: hex)
            try #require(d.count == 4)
            #expect(d[0] < 1.5 && d[1] <= 24, "against the composite over \(background): mean \(d[0]), max \(d[1])")
            #expect(d[2] > 20, "the alpha dropped would differ much more (mean \(d[2]))")
        }
    }

    @Test func alphaKeepingFormatsKeepAlpha() throws {
        // PNG keeps the alpha exactly; HEIC and AVIF keep an alpha plane (read back through libheif).
        for ext in ["png", "webp", "heic", "avif"] {
            let out = FileSystem.join(Self.dir, "alpha.\(ext)")
            #expect(
                CLI.run(["crop", Self.input, "--at", "31,23", "--size", "33", "--background", "red", "-o", out]).status
                    == 0)
            let image = try ImageReader(path: out).readImage()
            #expect(image.format.hasAlpha, ".\(ext) lost the alpha")
        }
    }
}

extension OutputFormatsCLITests {
    static let a98 = "/usr/share/color/icc/ghostscript/a98.icc"
    static let hasExiftool = CLI.shell("command -v exiftool >/dev/null") == 0

    /// --icc keep carries the input's profile into every format that has a place for one
    /// (HEIC and AVIF: the colr box), read back by exiftool.
    @Test(
        .enabled(
            if: hasExiftool && FileSystem.kind(of: a98) == .regular,
            "needs exiftool and Ghostscript's ICC profiles; skipped"))
    func everyFormatCarriesTheProfile() {
        let input = FileSystem.join(Self.dir, "a98.png")
        #expect(CLI.run(["fixture", "gradient", "--size", "64x48", "--embed-icc", Self.a98, "-o", input]).status == 0)
        for ext in Self.extensions {
            let out = FileSystem.join(Self.dir, "a98-crop.\(ext)")
            let description = FileSystem.join(Self.dir, "a98.txt")
            #expect(CLI.run(["crop", input, "--at", "30,20", "--size", "20", "-o", out]).status == 0)
            _ = CLI.shell("exiftool -s3 -ProfileDescription \(CLI.quote(out)) > \(CLI.quote(description))")
            #expect(
                CLI.read(description).hasPrefix("Artifex Software A98"),
                ".\(ext) lost the profile: \(CLI.read(description))")
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains {
            self[$0..<($0 + subsequence.count)].elementsEqual(subsequence)
        }
    }
}
