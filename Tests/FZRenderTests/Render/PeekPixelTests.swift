import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFixtures
@testable import FZFormat
@testable import FZImage
@testable import FZRender
@testable import FZSystem
@testable import Geometry

/// Crops checked pixel by pixel: a coords fixture says where every output pixel came from.
struct PeekPixelTests {
    /// Decodes, crops and renders as the `crop` command does.
    static func peek(
        _ path: String, at point: PixelPoint, side: Int, zoom: Double = 1,
        background: Color = .transparent
    ) throws -> (Image, PeekGeometry) {
        let reader = try ImageReader(path: path)
        let g = PeekGeometry(image: reader.header.uprightSize, point: point, side: side, zoom: zoom)
        let filter = PeekRenderer.defaultFilter(for: zoom)
        let rect = g.sourceRect(margin: PeekRenderer.margin(for: g, filter: filter))
        let source = try reader.readUpright([rect])[0]
        return (PeekRenderer.render(g, source: source, sourceRect: rect, background: background, filter: filter), g)
    }

    static let dir = TestSupport.scratch()

    /// A 700x500 coords fixture stored with EXIF orientation `o` (so upright it is the plain
    /// coords picture), as PNG (lossless, eXIf).
    static func fixture(_ o: Orientation, interlaced: Bool = false) throws -> String {
        let path = FileSystem.join(dir, "coords-\(o.rawValue)\(interlaced ? "i" : "").png")
        var e = FixtureEncoding()
        e.exifOrientation = o
        e.interlaced = interlaced
        try FixtureWriter.write(Pattern(.coords, size: PixelSize(width: 700, height: 500)), encoding: e, to: path)
        return path
    }

    static let points: [PixelPoint] = [
        PixelPoint(x: 350, y: 250), PixelPoint(x: 0, y: 0), PixelPoint(x: 699, y: 0), PixelPoint(x: 0, y: 499),
        PixelPoint(x: 699, y: 499), PixelPoint(x: 3, y: 250), PixelPoint(x: 350, y: 497),
    ]

    @Test(arguments: Orientation.allCases)
    func uprightCropTracesToItsRectangleInEveryOrientation(_ o: Orientation) throws {
        let path = try Self.fixture(o)
        for p in Self.points {
            let (image, g) = try Self.peek(path, at: p, side: 101)
            let trace = try #require(CoordinateCode.trace(image))
            #expect(trace.orientation == .up, "orientation \(o), point \(p)")
            #expect(trace.sourceRect == g.coveredRect, "orientation \(o), point \(p)")
            #expect(image.size == PixelSize(width: 101, height: 101))
        }
    }

    @Test func interlacedPNGCropsTheSame() throws {
        let path = try Self.fixture(.rotate270, interlaced: true)
        let (image, g) = try Self.peek(path, at: PixelPoint(x: 600, y: 100), side: 64)
        #expect(CoordinateCode.trace(image)?.sourceRect == g.coveredRect)
    }

    @Test func touchedPixelLandsAtTheCentre() throws {
        let path = try Self.fixture(.up)
        let (image, _) = try Self.peek(path, at: PixelPoint(x: 321, y: 123), side: 100)
        let c = image.rgba(x: 50, y: 50)
        #expect(CoordinateCode.point(r: c.r, g: c.g, b: c.b) == PixelPoint(x: 321, y: 123))
    }

    @Test func smallImageIsPaddedCentredOnTheBackground() throws {
        let path = FileSystem.join(Self.dir, "small.png")
        try FixtureWriter.write(
            Pattern(.coords, size: PixelSize(width: 40, height: 20)), encoding: FixtureEncoding(), to: path)
        let (image, _) = try Self.peek(path, at: PixelPoint(x: 39, y: 0), side: 64, background: Color(r: 1, g: 2, b: 3))
        #expect(image.size == PixelSize(width: 64, height: 64))
        // Image starts at floor((64-40)/2) = 12, floor((64-20)/2) = 22.
        #expect(image.rgba(x: 11, y: 30) == Color(r: 1, g: 2, b: 3))
        #expect(image.rgba(x: 12, y: 21) == Color(r: 1, g: 2, b: 3))
        let first = image.rgba(x: 12, y: 22)
        #expect(CoordinateCode.point(r: first.r, g: first.g, b: first.b) == PixelPoint(x: 0, y: 0))
        let last = image.rgba(x: 51, y: 41)
        #expect(CoordinateCode.point(r: last.r, g: last.g, b: last.b) == PixelPoint(x: 39, y: 19))
        #expect(image.rgba(x: 52, y: 41) == Color(r: 1, g: 2, b: 3))
        // A transparent background adds alpha; the image part stays opaque.
        let (clear, _) = try Self.peek(path, at: PixelPoint(x: 0, y: 0), side: 64)
        #expect(clear.format == .rgba)
        #expect(clear.rgba(x: 0, y: 0).a == 0)
        #expect(clear.rgba(x: 12, y: 22).a == 255)
    }

    @Test func wholeZoomReplicatesPixelsExactly() throws {
        let path = try Self.fixture(.up)
        let (image, g) = try Self.peek(path, at: PixelPoint(x: 350, y: 250), side: 60, zoom: 3)
        #expect(g.window.width == 20)
        for oy in 0..<60 {
            for ox in 0..<60 {
                let (x, y) = g.imageCoordinate(outputX: Double(ox), outputY: Double(oy))
                let c = image.rgba(x: ox, y: oy)
                #expect(CoordinateCode.point(r: c.r, g: c.g, b: c.b) == PixelPoint(x: Int(x), y: Int(y)))
            }
        }
        // Output pixel 30 (the centre) shows the touched pixel.
        let c = image.rgba(x: 30, y: 30)
        #expect(CoordinateCode.point(r: c.r, g: c.g, b: c.b) == PixelPoint(x: 350, y: 250))
    }

    @Test func fractionalZoomInterpolatesSmoothly() throws {
        // A horizontal 8-bit gradient magnified 2.5x stays monotonic and within its range.
        let path = FileSystem.join(Self.dir, "ramp.png")
        var e = FixtureEncoding()
        e.color = .gray
        try FixtureWriter.write(Pattern(.gradient, size: PixelSize(width: 256, height: 32)), encoding: e, to: path)
        // The 40-pixel window is taller than the 32-pixel image: padded, on opaque black it stays gray.
        let (image, g) = try Self.peek(path, at: PixelPoint(x: 128, y: 16), side: 100, zoom: 2.5, background: .black)
        #expect(image.format == .gray)
        var last = -1
        for x in 0..<100 {
            let v = Int(image[x, 50].first!)
            #expect(v >= last)
            last = v
        }
        let (cx, _) = g.imageCoordinate(outputX: 50, outputY: 50)
        #expect(abs(Int(image[50, 50].first!) - Int(cx - 0.5)) <= 1)
    }

    @Test func severalRegionsDecodeInOnePassLikeSeparateDecodes() throws {
        let path = try Self.fixture(.rotate90)
        let rects = [
            PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 690, y: 490, width: 10, height: 10),
            PixelRect(x: 100, y: 200, width: 333, height: 17),
        ]
        let together = try ImageReader(path: path).readUpright(rects)
        for (i, r) in rects.enumerated() {
            #expect(CoordinateCode.trace(together[i])?.sourceRect == r)
        }
    }
}

/// The real photo: a 20-megapixel camera-style JPEG stored rotated with EXIF orientation 6.
struct RealPhotoTests {
    static let photo = TestSupport.path(".cache/photos/large-orient6.jpg")

    @Test func uprightCropMatchesAFullReferenceDecode() throws {
        #expect(FileSystem.kind(of: Self.photo) == .regular, "run `make photos` to fetch the real photos")
        let dir = TestSupport.scratch()
        let ppm = FileSystem.join(dir, "ref.ppm")
        #expect(
            TestSupport.shell("djpeg -dct int -ppm -outfile '\(ppm)' '\(Self.photo)'") == 0,
            "djpeg (libjpeg-turbo-progs) is needed: make deps")
        let stored = try #require(TestSupport.readPNM(ppm))
        let reference = stored.oriented(.rotate90)
        let reader = try ImageReader(path: Self.photo)
        #expect(reader.header.orientation == .rotate90)
        #expect(reader.header.uprightSize == reference.size)
        for point in [PixelPoint(x: 3000, y: 1700), PixelPoint(x: 10, y: 3390), PixelPoint(x: 6015, y: 5)] {
            let (peek, g) = try PeekPixelTests.peek(Self.photo, at: point, side: 400)
            let expected = reference.cropped(to: g.coveredRect)
            #expect(TestSupport.maxDifference(peek, expected) <= 2, "point \(point)")
        }
    }
}
