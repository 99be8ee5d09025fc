import Testing

@testable import FZFixtures
@testable import FZImage
@testable import FZMetadata
@testable import Geometry

/// The eight EXIF orientations, checked on a 3x2 stored image whose corners we can name.
struct OrientationTests {
    static let stored = PixelSize(width: 3, height: 2)

    /// Where the stored top-left pixel (0,0) shows in the upright image, per EXIF's
    /// definitions (e.g. 6: the viewer turns the image 90 degrees clockwise, so the stored
    /// top-left ends top-right).
    static let topLeftLandsAt: [(Orientation, PixelPoint)] = [
        (.up, PixelPoint(x: 0, y: 0)), (.mirrored, PixelPoint(x: 2, y: 0)), (.rotate180, PixelPoint(x: 2, y: 1)),
        (.flipped, PixelPoint(x: 0, y: 1)), (.transposed, PixelPoint(x: 0, y: 0)), (.rotate90, PixelPoint(x: 1, y: 0)),
        (.transverse, PixelPoint(x: 1, y: 2)), (.rotate270, PixelPoint(x: 0, y: 2)),
    ]

    @Test(arguments: topLeftLandsAt)
    func storedTopLeftLandsWhereEXIFSays(_ o: Orientation, _ upright: PixelPoint) {
        #expect(o.uprightPixel(forStored: PixelPoint(x: 0, y: 0), stored: Self.stored) == upright)
        #expect(o.storedPixel(forUpright: upright, stored: Self.stored) == PixelPoint(x: 0, y: 0))
    }

    @Test(arguments: Orientation.allCases)
    func mappingIsABijection(_ o: Orientation) {
        let upright = o.uprightSize(ofStored: Self.stored)
        var seen = Set<PixelPoint>()
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let s = o.storedPixel(forUpright: PixelPoint(x: x, y: y), stored: Self.stored)
                #expect(s.x >= 0 && s.x < 3 && s.y >= 0 && s.y < 2)
                seen.insert(s)
                #expect(o.uprightPixel(forStored: s, stored: Self.stored) == PixelPoint(x: x, y: y))
            }
        }
        #expect(seen.count == 6)
    }

    @Test(arguments: Orientation.allCases)
    func storedRectCoversExactlyTheUprightRect(_ o: Orientation) {
        let stored = PixelSize(width: 40, height: 30)
        let upright = o.uprightSize(ofStored: stored)
        let r = PixelRect(x: 3, y: 5, width: 7, height: 4)
        let s = o.storedRect(forUpright: r, stored: stored)
        #expect(s.width * s.height == 28)
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX {
                #expect(s.contains(o.storedPixel(forUpright: PixelPoint(x: x, y: y), stored: stored)))
            }
        }
        #expect(upright.area == stored.area)
    }

    @Test(arguments: Orientation.allCases)
    func imageOrientedMatchesThePointMapping(_ o: Orientation) {
        let pixels = (0..<6).map { UInt8($0 * 10) }
        let image = Image(width: 3, height: 2, format: .gray, pixels: pixels)
        let up = image.oriented(o)
        #expect(up.size == o.uprightSize(ofStored: Self.stored))
        for y in 0..<up.height {
            for x in 0..<up.width {
                let s = o.storedPixel(forUpright: PixelPoint(x: x, y: y), stored: Self.stored)
                #expect(up[x, y].first == image[s.x, s.y].first)
            }
        }
    }

    @Test func exifParserReadsBothByteOrdersAndRejectsJunk() {
        let be = FixtureWriter.exifTIFF(orientation: .rotate90)
        #expect(EXIF.orientation(in: be) == .rotate90)
        let le: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
            0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0, 0, 0, 0,
        ]
        #expect(EXIF.orientation(in: le) == .rotate270)
        var nine = be
        nine[19] = 9
        #expect(EXIF.orientation(in: nine) == nil)
        #expect(EXIF.orientationValue(in: nine) == 9)
        var zero = be
        zero[19] = 0
        #expect(EXIF.orientation(in: zero) == nil)
        // IFD offset past the end, a huge entry count, truncation: nil, no crash.
        var far = be
        far[4] = 0x7F
        #expect(EXIF.orientation(in: far) == nil)
        var many = be
        many[8] = 0xFF
        many[9] = 0xFF
        #expect(EXIF.orientation(in: many) == nil || EXIF.orientation(in: many) == .rotate90)
        for n in 0..<be.count { _ = EXIF.orientation(in: Array(be[0..<n])) }
        #expect(EXIF.orientation(in: Array(be[0..<12])) == nil)
    }
}
