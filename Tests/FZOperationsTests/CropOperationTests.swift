import Glibc
import Testing

@testable import FZCodecs
@testable import FZFixtures
@testable import FZFormat
@testable import FZImage
@testable import FZOperations
@testable import FZSystem
@testable import Geometry

/// `crop` run in process on coordinate-coded PNGs: each output is traced back to the source
/// pixels it shows, which the peek's definition fixes (at zoom 1 an interior point's square of
/// side N starts N/2 to its left and above it, the touched pixel at (N/2, N/2)).
@Suite("CropOperation")
struct CropOperationTests {
    static func point(_ x: Int, _ y: Int) -> (place: Where, typed: String) {
        (.point(TouchPoint(x: .absolute(Double(x)), y: .absolute(Double(y)))), "\(x),\(y)")
    }

    static func crop(_ input: String, _ points: [(Int, Int)], side: Int, to target: OutputTarget, _ said: Said)
        -> CropOperation
    {
        CropOperation(
            input: input, points: points.map { point($0.0, $0.1) }, side: side, zoom: 1, background: .transparent,
            settings: said.settings, target: target)
    }

    @Test func anInteriorPointAtZoomOneIsTheSquareAroundIt() throws {
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 300, height: 200))
        let output = FileSystem.join(dir, "peek.png")
        let said = Said()
        try Self.crop(input, [(120, 80)], side: 40, to: OutputTarget(.files([output])), said).run(said.report)
        let peek = try ImageReader(path: output).readImage()
        #expect(peek.size == PixelSize(width: 40, height: 40))
        #expect(OperationFixtures.source(peek, x: 20, y: 20) == PixelPoint(x: 120, y: 80))
        let trace = try #require(CoordinateCode.trace(peek))
        #expect(trace.sourceRect == PixelRect(x: 100, y: 60, width: 40, height: 40))
        #expect(trace.orientation == .up)
        #expect(said.errors.isEmpty && said.lines.isEmpty)
    }

    @Test func severalPointsWriteOneNumberedFileEachFromOneDecode() throws {
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 300, height: 200))
        let target = OutputTarget(named: FileSystem.join(dir, "peek-%d.png"), count: 2, choice: OutputChoice()) {
            _ in "unused"
        }
        let said = Said()
        try Self.crop(input, [(50, 50), (250, 150)], side: 20, to: target, said).run(said.report)
        for (n, centre) in [(1, PixelPoint(x: 50, y: 50)), (2, PixelPoint(x: 250, y: 150))] {
            let peek = try ImageReader(path: FileSystem.join(dir, "peek-\(n).png")).readImage()
            let trace = try #require(CoordinateCode.trace(peek))
            #expect(trace.sourceRect == PixelRect(x: centre.x - 10, y: centre.y - 10, width: 20, height: 20))
        }
    }

    @Test func geometryOnlyRecordsEachPointAndWritesNothing() throws {
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 300, height: 200))
        let output = FileSystem.join(dir, "never.png")
        let said = Said()
        var crop = Self.crop(input, [(120, 80), (7, 9)], side: 40, to: OutputTarget(.files([output])), said)
        crop.geometryOnly = true
        try crop.run(said.report)
        #expect(FileSystem.kind(of: output) == .missing)
        #expect(said.lines.count == 2)
        #expect(said.lines[0].contains("\"120,80\"") && said.lines[1].contains("\"7,9\""))
    }

    @Test func anOutputThatIsTheInputIsRefusedAndTheInputKept() throws {
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 64, height: 64))
        let before = try FileSystem.readBytes(input, limit: 1 << 20)
        let said = Said()
        let crop = Self.crop(input, [(32, 32)], side: 16, to: OutputTarget(.files(["\(dir)/./coords.png"])), said)
        let failure = try #require(throws: ToolFailure.self) { try crop.run(said.report) }
        #expect(failure.message.contains("never overwrites an input"))
        #expect(try FileSystem.readBytes(input, limit: 1 << 20) == before)
    }

    @Test func sixteenBitsForAJPEGOutputIsAUsageError() throws {
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 64, height: 64))
        let said = Said()
        var crop = Self.crop(input, [(32, 32)], side: 16, to: OutputTarget(.files(["\(dir)/peek.jpg"])), said)
        crop.depth = .sixteen
        let failure = try #require(throws: ToolFailure.self) { try crop.run(said.report) }
        #expect(failure.exitCode == 2)
        #expect(failure.message.contains("--depth 16"))
        #expect(FileSystem.kind(of: "\(dir)/peek.jpg") == .missing)
    }
}
