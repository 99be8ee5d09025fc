import FZImage
import FZSystem
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZGIF

/// The GIF decoder against Pillow (`convert('RGBA')`, `seek(n)` for frame n+1), an
/// independent GIF reader and compositor: on files made by Tools/formats/make-gif-bmp.py
/// (interlaced, transparent, local palettes, animations with each disposal and offsets) and
/// on the real GIFs in ../shared/formats/gif when present.
@Suite("GIF")
struct GIFTests {
    /// The generated files, made once.
    static let made: String = {
        let dir = TestSupport.scratch()
        let script = TestSupport.path("Tools/formats/make-gif-bmp.py")
        precondition(TestSupport.shell("/usr/bin/python3 \(CLI.quote(script)) \(CLI.quote(dir))") == 0)
        return dir
    }()

    static let shared = FileSystem.join(FileSystem.directory(of: TestSupport.root), "shared/formats/gif")

    /// Frame `frame` (from 1) as Pillow composites it, RGBA, with the colour of fully
    /// transparent pixels zeroed (Pillow keeps a palette colour under alpha 0, which no
    /// viewer shows); nil when Pillow refuses it.
    static func pillow(_ path: String, frame: Int = 1) -> [UInt8]? {
        let raw = FileSystem.join(TestSupport.scratch(), "p.raw")
        let script =
            "import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.seek(\(frame - 1)); "
            + "im = im.convert('RGBA'); "
            + "im = Image.composite(im, Image.new('RGBA', im.size), im.getchannel('A').point(lambda v: 255 if v else 0)); "
            + "open(sys.argv[2], 'wb').write(im.tobytes())"
        guard
            TestSupport.shell(
                "/usr/bin/python3 -c \(CLI.quote(script)) \(CLI.quote(path)) \(CLI.quote(raw)) 2>/dev/null") == 0
        else { return nil }
        return CLI.bytes(raw)
    }

    /// Nil when `a` (ours) and `b` (the reference's) hold the same RGBA pixels; else how many
    /// differ and the first one (a short message, not two arrays).
    static func difference(_ a: Image, _ b: [UInt8]) -> String? {
        let x = a.pixels
        guard x.count == b.count else { return "\(x.count / 4) pixels against the reference's \(b.count / 4)" }
        var count = 0
        var first: Int?
        for i in stride(from: 0, to: x.count, by: 4) where x[i..<(i + 4)] != b[i..<(i + 4)] {
            count += 1
            if first == nil { first = i }
        }
        guard let f = first else { return nil }
        let p = f / 4
        return "\(count) pixels differ; first at \(p % a.width),\(p / a.width): "
            + "ours \(Array(x[f..<(f + 4)])), theirs \(Array(b[f..<(f + 4)]))"
    }

    /// Our decode of `frame`, RGBA, fully transparent pixels zeroed.
    static func ours(_ path: String, frame: Int = 1) throws -> Image {
        var o = DecodeOptions()
        o.frame = frame
        var image = try ImageReader(path: path, options: o).readImage().converted(to: .rgba)
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] == 0 {
            image.pixels.replaceSubrange(i..<(i + 3), with: [0, 0, 0])
        }
        return image
    }

    static func frames(_ path: String) throws -> Int {
        let details = try ImageReader(path: path).header.details
        return try #require(details as? GIFDetails).frameCount
    }

    static let generated = [
        "interlaced.gif", "plain.gif", "transparent.gif", "anim-dispose1.gif", "anim-dispose2.gif",
        "anim-dispose3.gif", "anim-offset.gif",
    ]

    @Test(arguments: generated) func everyFrameEqualsPillow(_ name: String) throws {
        let path = FileSystem.join(Self.made, name)
        let count = try Self.frames(path)
        #expect(count >= 1)
        for frame in 1...count {
            let reference = try #require(Self.pillow(path, frame: frame), "Pillow cannot read \(name)")
            let problem = Self.difference(try Self.ours(path, frame: frame), reference)
            #expect(problem == nil, "\(name) frame \(frame): \(problem ?? "")")
        }
    }

    @Test func interlacedAndPlainAgreeWithTheirSource() throws {
        let interlaced = try ImageReader(path: FileSystem.join(Self.made, "interlaced.gif")).header
        let plain = try ImageReader(path: FileSystem.join(Self.made, "plain.gif")).header
        #expect(try #require(interlaced.details as? GIFDetails).interlaced)
        #expect(try !#require(plain.details as? GIFDetails).interlaced)
        #expect(interlaced.pixelFormat == .rgb)
        #expect(try ImageReader(path: FileSystem.join(Self.made, "transparent.gif")).header.pixelFormat == .rgba)
    }

    @Test func framePastTheLastIsRefused() throws {
        let path = FileSystem.join(Self.made, "anim-offset.gif")
        var o = DecodeOptions()
        o.frame = 3
        #expect(throws: DecodeError.noSuchFrame(path: path, frame: 3, frames: 2)) {
            _ = try ImageReader(path: path, options: o).readImage()
        }
    }

    /// A GIF cut inside its LZW data: refused, or with `lenient` the rows that decoded are
    /// kept (the rest transparent) and the warning says why.
    @Test func truncatedLZWIsKeptWhenLenient() throws {
        let path = TestSupport.path("Fixtures/hostile/gif-lzw-truncated.gif")
        #expect(throws: DecodeError.self) { _ = try ImageReader(path: path).readImage() }
        var o = DecodeOptions()
        o.lenient = true
        let reader = try ImageReader(path: path, options: o)
        let image = try reader.readImage()
        #expect(image.width == 8 && image.height == 6)
        #expect(reader.warnings.contains { $0.contains("truncated") }, "\(reader.warnings)")
    }

    /// Row order of an interlaced frame: every row once, passes at 0/8, 4/8, 2/4, 1/2.
    @Test(arguments: [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 23])
    func interlacedRowsCoverEveryRowOnce(_ height: Int) {
        let rows = (0..<height).map { GIFRowOrder.interlacedRow($0, height: height) }
        #expect(rows.sorted() == Array(0..<height))
        #expect(rows.first == 0)
    }

    /// The real GIFs (giflib's, Pillow's and libvips's test files): frames 1, 2 and the
    /// last equal Pillow's. Every one of them keeps a transparent index where frames leave
    /// or clear the canvas, so Pillow's fill agrees with browsers' transparency there.
    @Test func sharedFilesEqualPillow() throws {
        guard let names = try? FileSystem.list(Self.shared).filter({ $0.hasSuffix(".gif") }) else { return }
        for name in names.sorted() {
            let path = FileSystem.join(Self.shared, name)
            let count = try Self.frames(path)
            for frame in Set([1, 2, count]).sorted() where frame <= count {
                guard let reference = Self.pillow(path, frame: frame) else { continue }
                let problem = Self.difference(try Self.ours(path, frame: frame), reference)
                #expect(problem == nil, "\(name) frame \(frame) of \(count): \(problem ?? "")")
            }
        }
    }
}
