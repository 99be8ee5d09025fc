import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZJXL
@testable import FZSystem
@testable import Geometry

/// JPEG XL on the built binary: crops and thumbnails of a .jxl equal the same command on
/// djxl's PNG of it (within 1 level), .jxl outputs decode with djxl to what the PNG output
/// of the same command holds (lossless exactly, lossy within a stated bound), Exif and XMP
/// carried into .jxl as exiftool reads them, and cut or lying files are one line, exit 1.
/// Test files: Tools/formats/make-jxl.sh (.cache/jxl).
@Suite(.serialized)
struct JXLCLITests {
    static let dir = CLI.scratch()
    static func file(_ name: String) -> String { FileSystem.join(CLI.root, ".cache/jxl/\(name)") }
    static func out(_ name: String) -> String { FileSystem.join(dir, name) }
    static let bike = FileSystem.join(CLI.root, "../shared/formats/jxl/conformance_bike_lossy_vardct.jxl")
    static let hasBike = FileSystem.kind(of: bike) == .regular

    /// Runs `args` with `input` and again with `reference` in its place, PNG outputs.
    static func sameCommand(_ args: [String], input: String, reference: String) throws -> (Image, Image) {
        let a = out("a.png")
        let b = out("b.png")
        func fill(_ args: [String], _ input: String, _ output: String) -> [String] {
            args.map {
                switch $0 {
                case "IN": return input
                case "OUT": return output
                case "OUTDIR": return dir
                case "OUTNAME": return FileSystem.basename(output)
                default: return $0
                }
            }
        }
        let ra = CLI.run(fill(args, input, a))
        let rb = CLI.run(fill(args, reference, b))
        #expect(ra.status == 0 && rb.status == 0, "\(ra.stderr) \(rb.stderr)")
        return (try ImageReader(path: a).readImage(), try ImageReader(path: b).readImage())
    }

    static let commands: [[String]] = [
        ["crop", "IN", "--at", "300,200", "--size", "120", "-o", "OUT"],
        ["crop", "IN", "--at", "50,30", "--size", "64", "--zoom", "2.5", "-o", "OUT"],
        ["thumb", "IN", "--size", "128", "--out", "OUTDIR", "--name", "OUTNAME"],
        ["fit", "IN", "--screen", "200x300", "-o", "OUT"],
    ]

    @Test(arguments: commands)
    func commandsMatchDjxl(_ args: [String]) throws {
        let (ours, djxl) = try Self.sameCommand(
            args, input: Self.file("jxl-lossy.jxl"), reference: Self.file("jxl-lossy.ref.png"))
        #expect(ours.size == djxl.size)
        #expect(TestSupport.maxDifference(ours, djxl) <= 1, "\(args)")
    }

    @Test(.enabled(if: hasBike), arguments: [commands[0], commands[2]])
    func conformancePhotoMatchesDjxl(_ args: [String]) throws {
        let ref = Self.out("bike.png")
        #expect(CLI.shell("djxl \(CLI.quote(Self.bike)) \(CLI.quote(ref)) >/dev/null 2>&1") == 0)
        let (ours, djxl) = try Self.sameCommand(args, input: Self.bike, reference: ref)
        #expect(TestSupport.maxDifference(ours, djxl) <= 1, "\(args)")
    }

    /// djxl's decode of a .jxl output against the PNG output of the same command.
    static func djxlDecode(_ jxl: String, bits: Int = 8) -> String {
        let png = jxl + ".djxl.png"
        #expect(CLI.shell("djxl \(CLI.quote(jxl)) \(CLI.quote(png)) --bits_per_sample=\(bits) >/dev/null 2>&1") == 0)
        return png
    }

    @Test func losslessOutputIsExact() throws {
        let source = FileSystem.join(CLI.root, "Fixtures/generated/png-rgba-8.png")
        for ext in ["png", "jxl"] {
            let r = CLI.run(["transform", source, "--rotate", "90", "--lossless", "-o", Self.out("ll.\(ext)")])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let png = try ImageReader(path: Self.out("ll.png")).readImage()
        let jxl = try ImageReader(path: Self.djxlDecode(Self.out("ll.jxl"))).readImage()
        #expect(jxl.format == .rgba && TestSupport.maxDifference(png, jxl) == 0)
    }

    /// Lossy at --quality 90 (distance 1, cjxl's default): a mean error under 1 level and
    /// no sample off by more than 24 on the corners picture.
    @Test func lossyOutputIsClose() throws {
        let source = FileSystem.join(CLI.root, "Fixtures/generated/corners.png")
        for ext in ["png", "jxl"] {
            let r = CLI.run([
                "crop", source, "--at", "300,200", "--size", "200", "--quality", "90", "-o", Self.out("q.\(ext)"),
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let png = try ImageReader(path: Self.out("q.png")).readImage()
        let jxl = try ImageReader(path: Self.djxlDecode(Self.out("q.jxl"))).readImage()
        var sum = 0
        var worst = 0
        for i in png.pixels.indices {
            let d = abs(Int(png.pixels[i]) - Int(jxl.pixels[i]))
            sum += d
            worst = max(worst, d)
        }
        #expect(
            Double(sum) / Double(png.pixels.count) < 1.0 && worst <= 24, "mean \(sum / png.pixels.count) max \(worst)")
        #expect(JXLImageEncoder.distance(quality: 90) == 1.0 && JXLImageEncoder.distance(quality: 20) == 7.4)
    }

    /// A quarter turn at --depth 16 to .jxl keeps the 16-bit samples: djxl's 16-bit decode is the 16-bit PNG's.
    @Test func sixteenBitOutput() throws {
        for ext in ["png", "jxl"] {
            let r = CLI.run([
                "transform", Self.file("jxl-16.jxl"), "--rotate", "90", "--depth", "16", "--lossless", "-o",
                Self.out("d16.\(ext)"),
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let rect = PixelRect(x: 0, y: 0, width: 48, height: 64)
        let png = try ImageReader(path: Self.out("d16.png")).readStored16([rect])[0]
        let jxl = try ImageReader(path: Self.djxlDecode(Self.out("d16.jxl"), bits: 16)).readStored16([rect])[0]
        #expect(png.bytes == jxl.bytes)
        #expect(try ImageReader(path: Self.out("d16.jxl")).header.bitDepth == 16)
    }

    /// The Exif and XMP of a JPEG XL (brob boxes) and of a JPEG go into .jxl boxes that
    /// exiftool reads.
    @Test func metadataIsCarried() throws {
        let r = CLI.run(["crop", Self.file("jxl-meta.jxl"), "--at", "100,100", "--size", "50", "-o", Self.out("m.jxl")])
        #expect(r.status == 0, "\(r.stderr)")
        let tool = FileSystem.join(Self.dir, "exiftool.txt")
        _ = CLI.shell("exiftool -s -s -s -Artist -Title \(CLI.quote(Self.out("m.jxl"))) > \(CLI.quote(tool))")
        #expect(CLI.read(tool) == "forcezoom test\njxl box\n")
        let jpeg = FileSystem.join(CLI.root, "Fixtures/generated/jpeg-exif-6.jpg")
        let j = CLI.run(["crop", jpeg, "--at", "10,10", "--size", "20", "-o", Self.out("e6.jxl")])
        #expect(j.status == 0, "\(j.stderr)")
        _ = CLI.shell("exiftool -s -s -s -n -Orientation \(CLI.quote(Self.out("e6.jxl"))) > \(CLI.quote(tool))")
        #expect(CLI.read(tool) == "1\n", "the upright output's copy says 1")
    }

    @Test func infoDescribesTheFile() {
        let r = CLI.run(["info", "--json", Self.file("jxl-exif-6.jxl")])
        #expect(r.status == 0)
        for part in [
            "\"format\":\"JPEG XL\"", "\"width\":64,\"height\":96", "\"uprightWidth\":96", "\"orientation\":6",
            "\"container\":\"isobmff\"",
        ] {
            #expect(r.stdout.contains(part), "\(part) in \(r.stdout)")
        }
    }

    @Test func aFolderThumbnailsItsJPEGXLFiles() throws {
        let lib = Self.out("lib")
        #expect(
            CLI.shell("mkdir -p \(CLI.quote(lib)) && cp \(CLI.quote(Self.file("jxl-exif-6.jxl"))) \(CLI.quote(lib))")
                == 0)
        let r = CLI.run(["thumb", lib, "--size", "48", "--out", Self.out("thumbs"), "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let thumb = try ImageReader(path: Self.out("thumbs/jxl-exif-6.thumb.png"))
        #expect(thumb.header.storedSize == PixelSize(width: 48, height: 32))
    }

    /// A cut file and a header claiming 2^30 x 2^30 pixels: one line naming the file, exit 1.
    @Test(arguments: ["cut", "lie"])
    func badFilesAreOneLine(_ kind: String) {
        let path = Self.out("\(kind).jxl")
        if kind == "cut" {
            CLI.write(path, Array(CLI.bytes(Self.file("jxl-lossy.jxl")).prefix(900)))
        } else {
            CLI.write(path, JXLSamples.lyingHeader)
        }
        let r = CLI.run(["crop", path, "--at", "1,1", "--size", "8", "-o", Self.out("bad.png")])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(lines.count) lines: \(r.stderr)")
        #expect(lines.first?.contains(path) == true)
    }
}
