import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZOperations
@testable import FZRender
@testable import FZSystem
@testable import Geometry

/// `fit` run in process: the portrait canvas is the screen, the image aspect-fit and centred
/// in it on the background. Expectations are the aspect-fit by hand, pixels by their coordinate code.
@Suite("FitOperation")
struct FitOperationTests {
    static let red = Color(r: 255, g: 0, b: 0)

    static func fit(_ input: String, screen: PixelSize, to output: String, _ said: Said) -> FitOperation {
        FitOperation(
            input: input, screen: screen, orientation: .portrait, mode: .fit, background: red, filter: .nearest,
            settings: said.settings, target: OutputTarget(.files([output])))
    }

    @Test func anImageAsWideAsTheScreenIsCopiedOneToOneCentredOnTheBackground() throws {
        // 100x50 into 100x200: scale 1, 75 rows of background above and below.
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 100, height: 50))
        let output = FileSystem.join(dir, "fit.png")
        let said = Said()
        try Self.fit(input, screen: PixelSize(width: 100, height: 200), to: output, said).run(said.report)
        let canvas = try ImageReader(path: output).readImage()
        #expect(canvas.size == PixelSize(width: 100, height: 200))
        for (x, y) in [(0, 0), (99, 74), (50, 125), (0, 199)] {
            #expect(canvas.rgba(x: x, y: y) == Self.red, "(\(x), \(y))")
        }
        for (x, y) in [(0, 0), (99, 0), (37, 21), (0, 49), (99, 49)] {
            #expect(OperationFixtures.source(canvas, x: x, y: 75 + y) == PixelPoint(x: x, y: y), "(\(x), \(y))")
        }
    }

    @Test func aWideImageIsHalvedToTheScreensWidth() throws {
        // 200x100 into 100x200: scale 1/2, content 100x50 from row 75.
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 200, height: 100))
        let output = FileSystem.join(dir, "fit.png")
        let said = Said()
        try Self.fit(input, screen: PixelSize(width: 100, height: 200), to: output, said).run(said.report)
        let canvas = try ImageReader(path: output).readImage()
        #expect(canvas.size == PixelSize(width: 100, height: 200))
        #expect(canvas.rgba(x: 50, y: 74) == Self.red && canvas.rgba(x: 50, y: 125) == Self.red)
        #expect(canvas.rgba(x: 50, y: 75) != Self.red && canvas.rgba(x: 50, y: 124) != Self.red)
        // Nearest: canvas pixel (x, 75 + y) shows a source pixel within one of (2x, 2y).
        let p = OperationFixtures.source(canvas, x: 30, y: 75 + 20)
        #expect(abs(p.x - 60) <= 1 && abs(p.y - 40) <= 1, "\(p)")
    }
}
