import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import FZWebP
@testable import Geometry

/// WebP, HEIC and AVIF through crop, fit, thumb and info of the built binary, against the
/// reference decoders' pixels (dwebp, heif-convert; files from Tools/formats/make-formats.sh).
@Suite(.serialized)
struct FormatsCLITests {
    static let dir = CLI.scratch()
    /// A file of .cache/formats, or of the repository when `name` starts with Fixtures/ (never
    /// reached through .cache/formats/../..: .cache/formats may be a link out of the clone).
    static func file(_ name: String) -> String {
        FileSystem.join(CLI.root, name.hasPrefix("Fixtures/") ? name : ".cache/formats/\(name)")
    }

    /// The upright reference picture of each input: the reference decoder's output (read as
    /// stored: heif-convert copies EXIF into the PNG) or, for EXIF-oriented WebP, the picture it was made from.
    static let cases: [(input: String, reference: String, upright: PixelSize)] = [
        ("webp-lossy.webp", "webp-lossy.ref.png", PixelSize(width: 600, height: 400)),
        ("webp-alpha.webp", "webp-alpha.ref.png", PixelSize(width: 64, height: 48)),
        ("webp-exif-6.webp", "Fixtures/generated/png-rgb-8-trns.png", PixelSize(width: 96, height: 64)),
        ("heic-corners.heic", "heic-corners.ref.png", PixelSize(width: 600, height: 400)),
        ("avif-corners.avif", "avif-corners.ref.png", PixelSize(width: 600, height: 400)),
        ("heic-irot-90.heic", "heic-irot-90.ref.png", PixelSize(width: 96, height: 64)),
        ("heic-exif-6.heic", "heic-exif-6.ref.png", PixelSize(width: 64, height: 96)),
    ]

    static func reference(_ name: String) throws -> Image {
        var o = DecodeOptions()
        o.autoOrient = false
        var image = try ImageReader(path: file(name), options: o).readImage()
        if name.hasSuffix("trns.png") { image = image.converted(to: .rgb) }
        return image
    }

    static func maxDifference(_ a: Image, _ b: Image) -> Int {
        guard a.size == b.size && a.format == b.format else { return .max }
        return zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// `"cropRect":{"x":..,"y":..,"width":..,"height":..}` from crop's JSON.
    static func cropRect(_ json: String) -> PixelRect? {
        let parts = json.split(separator: #""cropRect":{"#, maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let body = parts[1].prefix { $0 != "}" }
        var v: [String: Int] = [:]
        for part in body.split(separator: ",") {
            let kv = part.split(separator: ":")
            if kv.count == 2 { v[kv[0].filter { $0 != "\"" }] = Int(kv[1]) }
        }
        guard let x = v["x"], let y = v["y"], let w = v["width"], let h = v["height"] else { return nil }
        return PixelRect(x: x, y: y, width: w, height: h)
    }

    @Test(arguments: cases.indices)
    func cropIsTheReferenceRegion(_ i: Int) throws {
        let c = Self.cases[i]
        let out = FileSystem.join(Self.dir, "crop-\(i).png")
        let r = CLI.run(["crop", Self.file(c.input), "--at", "30%,70%", "--size", "40", "-o", out, "--json"])
        #expect(r.status == 0, "\(c.input): \(r.stderr)")
        let rect = try #require(Self.cropRect(r.stdout), "\(r.stdout)")
        let crop = try ImageReader(path: out).readImage()
        let reference = try Self.reference(c.reference)
        #expect(reference.size == c.upright)
        let want = reference.cropped(to: rect).converted(to: crop.format)
        #expect(Self.maxDifference(crop, want) == 0, "\(c.input) \(rect)")
    }

    @Test(arguments: cases.indices)
    func fitAndInfo(_ i: Int) throws {
        let c = Self.cases[i]
        let out = FileSystem.join(Self.dir, "fit-\(i).png")
        let r = CLI.run(["fit", Self.file(c.input), "--screen", "390x844", "-o", out])
        #expect(r.status == 0, "\(c.input): \(r.stderr)")
        #expect(try ImageReader(path: out).header.storedSize == PixelSize(width: 390, height: 844))
        let info = CLI.run(["info", "--json", Self.file(c.input)])
        #expect(info.status == 0)
        #expect(
            info.stdout.contains(#""uprightWidth":\#(c.upright.width),"uprightHeight":\#(c.upright.height)"#),
            "\(info.stdout)")
    }

    /// One thumb run over a folder of WebP, HEIC, AVIF, JPEG and PNG: every file thumbnailed,
    /// upright (EXIF applied for WebP and JPEG, irot for HEIC, EXIF not applied for HEIC).
    @Test func thumbAFolderOfEveryFormat() throws {
        let lib = FileSystem.join(Self.dir, "library")
        let names = [
            "webp-exif-6.webp", "heic-irot-90.heic", "heic-exif-6.heic", "avif-corners.avif", "webp-alpha.webp",
        ]
        #expect(
            CLI.shell(
                "mkdir -p \(CLI.quote(lib)) && cp " + names.map { CLI.quote(Self.file($0)) }.joined(separator: " ")
                    + " \(CLI.quote(FileSystem.join(CLI.root, "Fixtures/generated/jpeg-exif-6.jpg"))) "
                    + "\(CLI.quote(FileSystem.join(CLI.root, "Fixtures/generated/png-rgb-8.png"))) \(CLI.quote(lib))")
                == 0)
        let out = FileSystem.join(Self.dir, "thumbs")
        let r = CLI.run(["thumb", lib, "--size", "64", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let expected: [String: PixelSize] = [
            "webp-exif-6": PixelSize(width: 64, height: 43), "heic-irot-90": PixelSize(width: 64, height: 43),
            "heic-exif-6": PixelSize(width: 43, height: 64), "avif-corners": PixelSize(width: 64, height: 43),
            "webp-alpha": PixelSize(width: 64, height: 48), "jpeg-exif-6": PixelSize(width: 64, height: 43),
            "png-rgb-8": PixelSize(width: 64, height: 48),
        ]
        for (stem, size) in expected {
            let thumb = try ImageReader(path: FileSystem.join(out, "\(stem).thumb.png"))
            #expect(thumb.header.storedSize == size, "\(stem)")
        }
        // The upright WebP and HEIC thumbnails show the orientation picture's top-left corner colour.
        for stem in ["webp-exif-6", "heic-irot-90"] {
            let image = try ImageReader(path: FileSystem.join(out, "\(stem).thumb.png")).readImage()
            let source = try Self.reference("Fixtures/generated/png-rgb-8-trns.png")
            let a = image.rgba(x: 0, y: 0)
            let b = source.rgba(x: 0, y: 0)
            #expect(
                abs(Int(a.r) - Int(b.r)) < 24 && abs(Int(a.g) - Int(b.g)) < 24 && abs(Int(a.b) - Int(b.b)) < 24,
                "\(stem): \(a) vs \(b)")
        }
    }
}

/// thumb writing WebP: lossless at --quality 100 or --lossless (the same pixels as the PNG
/// thumbnail), lossy otherwise (read the same by dwebp).
@Suite(.serialized)
struct WebPOutputCLITests {
    static let dir = CLI.scratch()
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    static func decode(_ path: String) throws -> Image { try ImageReader(path: path).readImage() }

    @Test func thumbWritesWebP() throws {
        let runs: [(String, [String])] = [
            ("png", ["--name", "%s.png"]), ("q100", ["--name", "%s.q100.webp", "--quality", "100"]),
            ("lossless", ["--name", "%s.ll.webp", "--lossless"]), ("lossy", ["--name", "%s.webp"]),
        ]
        for (label, extra) in runs {
            let r = CLI.run(["thumb", Self.photo, "--size", "200", "--out", Self.dir, "--quiet"] + extra)
            #expect(r.status == 0, "\(label): \(r.stderr)")
        }
        let png = try Self.decode(FileSystem.join(Self.dir, "peek.png"))
        let ll = try ImageReader(path: FileSystem.join(Self.dir, "peek.ll.webp"))
        #expect(ll.header.format == .webp)
        #expect((ll.header.details as? WebPDetails)?.compression == "lossless")
        #expect(FormatsCLITests.maxDifference(try ll.readImage(), png) == 0)
        // --quality 100 stays lossy, as cwebp and vips have it: lossless is asked for by name.
        let q100 = try ImageReader(path: FileSystem.join(Self.dir, "peek.q100.webp"))
        #expect((q100.header.details as? WebPDetails)?.compression == "lossy")
        let lossy = FileSystem.join(Self.dir, "peek.webp")
        let reader = try ImageReader(path: lossy)
        #expect((reader.header.details as? WebPDetails)?.compression == "lossy")
        let image = try reader.readImage()
        #expect(image.size == png.size)
        #expect(CLI.shell("dwebp -quiet \(CLI.quote(lossy)) -o \(CLI.quote(lossy + ".png"))") == 0)
        #expect(FormatsCLITests.maxDifference(image, try Self.decode(lossy + ".png")) == 0)
    }
}

/// thumb uses an HEIF file's embedded thumbnail when it has the output's pixels, as
/// vipsthumbnail does; --no-embedded-thumbnail decodes the image.
@Suite(.serialized)
struct EmbeddedThumbnailCLITests {
    static let dir = CLI.scratch()
    static let heic = FileSystem.join(CLI.root, ".cache/formats/heic-thumb.heic")  // 600x400, thumbnail 160x106

    static func run(_ size: String, _ name: String, _ extra: [String] = []) -> CLIResult {
        CLI.run(["thumb", Self.heic, "--size", size, "--out", Self.dir, "--name", name, "--json", "--quiet"] + extra)
    }

    @Test func embeddedThumbnailWhenBigEnough() throws {
        let small = Self.run("100", "a.png")
        #expect(small.status == 0, "\(small.stderr)")
        #expect(
            small.stdout.contains(#""outputSize":{"width":100,"height":67}"#)
                && small.stdout.contains(#""embeddedThumbnail":true"#))
        let full = Self.run("100", "b.png", ["--no-embedded-thumbnail"])
        #expect(full.stdout.contains(#""embeddedThumbnail":false"#))
        let big = Self.run("300", "c.png")
        #expect(
            big.stdout.contains(#""outputSize":{"width":300,"height":200}"#)
                && big.stdout.contains(#""embeddedThumbnail":false"#),
            "160x106 is too small for 300")
        // The same picture: the embedded thumbnail (x265 at heif-enc's quality) against the
        // full decode reduced, mean difference measured at 3.8 levels (sharp text edges differ most).
        let a = try ImageReader(path: FileSystem.join(Self.dir, "a.png")).readImage()
        let b = try ImageReader(path: FileSystem.join(Self.dir, "b.png")).readImage()
        try #require(a.size == b.size && a.format == b.format)
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(total) / Double(a.pixels.count) < 6)
    }
}
