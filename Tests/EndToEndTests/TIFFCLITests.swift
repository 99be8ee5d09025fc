import FZSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// TIFF from the command line: the 200 MP tiled file cropped through the tiles it touches
/// (vips' crop of the same region is the oracle), a pyramid's thumbnail from a reduced level,
/// --page, metadata carried into outputs (exiftool reads it back), `info`.
struct TIFFCLITests {
    static let dir = FileSystem.join(CLI.root, ".cache/formats/tiff")
    static let present = FileSystem.kind(of: dir + "/.done-v2") == .regular
    static let big = FileSystem.join(dir, "big-tiled.tif")
    static let hasBig = FileSystem.kind(of: big) == .regular
    static func path(_ name: String) -> String { FileSystem.join(dir, name) }

    /// A 400 px crop of 14400x14000 (201.6 MP) in 256x256 tiles reads 2x2 or 3x3 tiles:
    /// under 64 MB resident (a whole decode would be 605 MB), pixels equal to `vips crop`.
    @Test(.enabled(if: hasBig, "needs .cache/formats/tiff/big-tiled.tif (make formats)"))
    func cropOfA200MPTiledTIFFReadsOnlyItsTiles() throws {
        let out = CLI.scratch()
        let r = CLI.measure(
            ["crop", Self.big, "--at", "7000,7000", "--size", "400", "-o", FileSystem.join(out, "c.png")])
        #expect(r.signal == nil && r.exitCode == 0, "\(r)")
        #expect(r.maxRSSKiB < CLI.rssBoundKiB(64), "\(r.maxRSSKiB / 1024) MiB resident")
        let vips = CLI.shell(
            "vips crop \(CLI.quote(Self.big)) \(CLI.quote(FileSystem.join(out, "v.png"))) 6800 6800 400 400")
        try #require(vips == 0, "vips crop")
        let compare = CLI.run([
            "compare", FileSystem.join(out, "c.png"), FileSystem.join(out, "v.png"), "--metric", "pae", "--threshold",
            "0",
        ])
        #expect(compare.status == 0, "\(compare.stdout) \(compare.stderr)")
    }

    /// 256 px of a 2000x1333 pyramid: decoded from the 1000x666 level (the smallest at least
    /// twice the target, as JPEG's DCT scaling is chosen), reported as its reduction.
    @Test(
        .enabled(if: present, "needs .cache/formats/tiff (make formats)"),
        arguments: ["pyramid.tif", "pyramid-subifd.tif"])
    func pyramidThumbnailFromAReducedLevel(_ name: String) throws {
        let out = CLI.scratch()
        let r = CLI.run(["thumb", Self.path(name), "--size", "256", "-o", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let record = try #require(JSONValue.objects(r.stdout).first)
        #expect(record["dctScale"] == .number(2), "\(r.stdout)")
        #expect(record["outputSize"] == .object(["width": .number(256), "height": .number(171)]))
    }

    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"))
    func pageOption() throws {
        let info = CLI.run(["info", Self.path("pages.tif"), "--page", "3"])
        #expect(
            info.status == 0 && info.stdout.contains("palette") && info.stdout.contains("page 3 of 3"), "\(info.stdout)"
        )
        let past = CLI.run(["crop", Self.path("pages.tif"), "--page", "4", "--at", "1,1", "-o", "/dev/null"])
        #expect(past.status == 1 && past.stderr.split(separator: "\n").count == 1, "\(past.stderr)")
        let out = CLI.scratch()
        let gray = CLI.run([
            "crop", Self.path("pages.tif"), "--page", "2", "--at", "150,100", "--size", "64", "-o",
            FileSystem.join(out, "p2.png"),
        ])
        #expect(gray.status == 0, "\(gray.stderr)")
        let ref = CLI.shell(
            "/usr/bin/python3 -c \"from PIL import Image; Image.open('\(Self.path("pages.page-2.ref.png"))')"
                + ".crop((118, 68, 182, 132)).save('\(out)/r.png')\"")
        #expect(ref == 0)
        let compare = CLI.run([
            "compare", FileSystem.join(out, "p2.png"), FileSystem.join(out, "r.png"), "--metric", "pae", "--threshold",
            "0",
        ])
        #expect(compare.status == 0, "\(compare.stdout) \(compare.stderr)")
    }

    /// A 16-bit gray TIFF cropped at --depth 16 keeps its samples: Pillow's I;16 exactly.
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"))
    func sixteenBitCropKeepsItsSamples() throws {
        let out = CLI.scratch()
        let r = CLI.run([
            "crop", Self.path("gray-16.tif"), "--at", "150,100", "--size", "64", "--depth", "16", "-o",
            FileSystem.join(out, "d.png"),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let check = CLI.shell(
            "/usr/bin/python3 -c \"import numpy as np; from PIL import Image; "
                + "a=np.asarray(Image.open('\(out)/d.png')).astype(int); "
                + "b=np.asarray(Image.open('\(Self.path("gray-16.ref16.png"))')).astype(int)[68:132,118:182]; "
                + "import sys; sys.exit(0 if a.shape == b.shape and (a == b).all() else 1)\"")
        #expect(check == 0, "the 16-bit crop differs from Pillow's I;16 samples")
    }

    /// The EXIF (IFD0 and the Exif IFD) and the XMP packet of a TIFF reach a JPEG output.
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"))
    func metadataIsCarried() throws {
        let out = FileSystem.join(CLI.scratch(), "m.jpg")
        let r = CLI.run(["crop", Self.path("meta.tif"), "--at", "50%,50%", "--size", "64", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let tool = CLI.scratch() + "/exif.txt"
        CLI.shell("exiftool -s3 -Make -Model -DateTimeOriginal -XMP-dc:Title \(CLI.quote(out)) > \(CLI.quote(tool))")
        #expect(CLI.read(tool) == "ForceZoomTest\nTIFF-1\n2024:05:06 07:08:09\ntiff-xmp-title\n")
    }

    /// `info` says what the TIFF is (validated against docs/json/info.schema.json by CLI.run).
    @Test(.enabled(if: present, "needs .cache/formats/tiff (make formats)"))
    func infoDescribesTheLayout() throws {
        let r = CLI.run(["info", "--json", Self.path("rgb-tile-planar-lzw.tif"), Self.path("pyramid.tif")])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = JSONValue.objects(r.stdout)
        try #require(lines.count == 2)
        #expect(lines[0]["tiffCompression"] == .string("lzw") && lines[0]["planar"] == .bool(true))
        #expect(lines[0]["tileWidth"] == .number(64) && lines[0]["tiled"] == .bool(true))
        guard case .array(let levels)? = lines[1]["levels"] else { throw TIFFCLIError.noLevels }
        #expect(levels.count == 4)
    }
}

enum TIFFCLIError: Error { case noLevels }
