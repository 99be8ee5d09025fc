import Testing

@testable import Geometry

/// The grid geometry of `TiledCanvas`, with no pixels: which tiles a rectangle touches, how
/// irot/imir/clap reduce to one crop and one orientation, libheif's clap rounding.
struct TiledCanvasTests {
    static let canvas = TiledCanvas(
        columns: 4, rows: 3, tile: PixelSize(width: 64, height: 64), canvas: PixelSize(width: 250, height: 180))!

    @Test func tilesTouchingARectangle() {
        let c = Self.canvas
        #expect(c.tiles(touching: PixelRect(x: 0, y: 0, width: 1, height: 1)) == [0])
        #expect(c.tiles(touching: PixelRect(x: 63, y: 63, width: 2, height: 2)) == [0, 1, 4, 5])
        #expect(c.tiles(touching: PixelRect(x: 249, y: 179, width: 1, height: 1)) == [11])
        #expect(c.tiles(touching: PixelRect(x: 0, y: 0, width: 250, height: 180)).count == 12)
        #expect(c.rect(ofTile: 11) == PixelRect(x: 192, y: 128, width: 58, height: 52))
    }

    /// Tiles that leave part of the canvas bare, or a whole row or column outside it, are refused.
    @Test func tilesMustCoverTheCanvasExactly() {
        let t = PixelSize(width: 64, height: 64)
        #expect(TiledCanvas(columns: 4, rows: 3, tile: t, canvas: PixelSize(width: 257, height: 180)) == nil)
        #expect(TiledCanvas(columns: 4, rows: 3, tile: t, canvas: PixelSize(width: 192, height: 180)) == nil)
        #expect(TiledCanvas(columns: 4, rows: 3, tile: t, canvas: PixelSize(width: 256, height: 192)) != nil)
    }

    /// irot turns anticlockwise (irot 90 shows what EXIF 8 shows); imir 0 swaps top and
    /// bottom (EXIF 4), 1 left and right (EXIF 2); each combination is one orientation.
    @Test func transformationsComposeToOrientations() {
        func shown(_ steps: [TiledCanvas.Transformation]) -> Orientation {
            var c = Self.canvas
            for s in steps {
                let ok = c.apply(s)
                #expect(ok)
            }
            return c.orientation
        }
        #expect(shown([.rotate(quarterTurns: 1)]) == .rotate270)
        #expect(shown([.rotate(quarterTurns: 2)]) == .rotate180)
        #expect(shown([.rotate(quarterTurns: 3)]) == .rotate90)
        #expect(shown([.mirror(leftRight: false)]) == .flipped)
        #expect(shown([.mirror(leftRight: true)]) == .mirrored)
        #expect(shown([.rotate(quarterTurns: 1), .mirror(leftRight: true)]) == .transverse)
        #expect(shown([.rotate(quarterTurns: 1), .mirror(leftRight: false)]) == .transposed)
        var all = Set<Orientation>()
        for q in 0..<4 {
            for m in [nil, true] as [Bool?] {
                all.insert(shown([.rotate(quarterTurns: q)] + (m.map { [.mirror(leftRight: $0)] } ?? [])))
            }
        }
        #expect(all.count == 8)
    }

    /// A displayed rectangle maps to the coded one under rotation and a clap given in displayed pixels.
    @Test func displayedRectanglesMapBackToCodedPixels() {
        var c = Self.canvas
        let ok2 = c.apply(.rotate(quarterTurns: 1))
        #expect(ok2)
        #expect(c.displayedSize == PixelSize(width: 180, height: 250))
        #expect(
            c.codedRect(forDisplayed: PixelRect(x: 0, y: 0, width: 1, height: 1))
                == PixelRect(x: 249, y: 0, width: 1, height: 1))
        let ok3 = c.apply(.crop(PixelRect(x: 10, y: 20, width: 100, height: 50)))
        #expect(ok3)
        #expect(c.displayedSize == PixelSize(width: 100, height: 50))
        #expect(
            c.codedRect(forDisplayed: PixelRect(x: 0, y: 0, width: 1, height: 1))
                == PixelRect(x: 229, y: 10, width: 1, height: 1))
        let ok4 = c.apply(.crop(PixelRect(x: 90, y: 0, width: 20, height: 10)))
        #expect(!ok4)
    }

    /// libheif's rounding: left = offset + (W-1)/2 - (w-1)/2 rounded down, top the same rounded
    /// half up (measured with heif-convert: clap-90 and clap-270 of make-grids.sh).
    @Test func cleanApertureRounding() {
        let s = PixelSize(width: 250, height: 180)
        #expect(
            TiledCanvas.cleanAperture(
                size: s, width: (200, 1), height: (100, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1))
                == PixelRect(x: 25, y: 40, width: 200, height: 100))
        // Odd sizes on an even image: the half pixel rounds down at the left, up at the top.
        #expect(
            TiledCanvas.cleanAperture(
                size: s, width: (151, 1), height: (101, 1), horizontalOffset: (3, 1), verticalOffset: (-5, 1))
                == PixelRect(x: 52, y: 35, width: 151, height: 101))
        #expect(
            TiledCanvas.cleanAperture(
                size: s, width: (201, 1), height: (133, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1))
                == PixelRect(x: 24, y: 24, width: 201, height: 133))
        // Past the edges: clamped.
        #expect(
            TiledCanvas.cleanAperture(
                size: s, width: (300, 1), height: (100, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1))
                == PixelRect(x: 0, y: 40, width: 250, height: 100))
        #expect(
            TiledCanvas.cleanAperture(
                size: s, width: (0, 1), height: (10, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1)) == nil)
        #expect(
            TiledCanvas.cleanAperture(
                size: s, width: (10, 0), height: (10, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1)) == nil)
    }
}
