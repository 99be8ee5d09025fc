import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZRender
@testable import FZSystem
@testable import Geometry

/// The reduction pipeline with the decoder on its own thread gives the same pixels, and the
/// same errors, as on one thread.
@Suite struct PipelinedDecodeTests {
    static let photo = TestSupport.path(".cache/photos/large.jpg")
    static let png = TestSupport.path(".cache/photos/large.png")

    static func both(_ path: String, _ pipeline: ReductionPipeline, options: DecodeOptions = DecodeOptions()) throws
        -> (Image, Image)
    {
        var serial = pipeline
        var threaded = pipeline
        serial.threads = 1
        threaded.threads = 2
        return (
            try serial.run(ImageReader(path: path, options: options)).0,
            try threaded.run(ImageReader(path: path, options: options)).0
        )
    }

    @Test(
        "same pixels: DCT-scaled JPEG, box-shrunk PNG, a window that stops early",
        arguments: [
            (photo, ReductionPipeline(target: PixelSize(width: 2000, height: 1127), filter: .lanczos)),
            (
                png,
                ReductionPipeline(
                    target: PixelSize(width: 512, height: 289), filter: .lanczos, headroom: 2, boxShrink: true)
            ),
            // The window ends a third of the way down: the resampler stops reading, the decoder
            // thread must be told to stop too.
            (
                photo,
                ReductionPipeline(
                    target: PixelSize(width: 900, height: 300), window: Rect(x: 100, y: 50, width: 3000, height: 1000),
                    filter: .lanczos)
            ),
        ])
    func samePixels(path: String, pipeline: ReductionPipeline) throws {
        let (serial, threaded) = try Self.both(path, pipeline)
        #expect(serial.size == pipeline.target)
        #expect(serial == threaded)
    }

    @Test func truncatedFileFailsTheSameWay() throws {
        let size = try #require(FileSystem.size(of: Self.photo))
        let cut = FileSystem.join(TestSupport.scratch(), "cut.jpg")
        #expect(TestSupport.shell("head -c \(size / 2) '\(Self.photo)' > '\(cut)'") == 0)
        let pipeline = ReductionPipeline(target: PixelSize(width: 1504, height: 848), filter: .lanczos)
        var errors: [DecodeError] = []
        for threads in [1, 2] {
            var p = pipeline
            p.threads = threads
            do throws(DecodeError) { _ = try p.run(ImageReader(path: cut)) } catch { errors.append(error) }
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last)
        // Lenient: both keep the same rows and grey-fill the rest.
        var lenient = DecodeOptions()
        lenient.lenient = true
        let (a, b) = try Self.both(cut, pipeline, options: lenient)
        #expect(a == b)
    }

    @Test func queueHandsOverEveryRowInOrderAndCancelReleasesTheProducer() {
        let queue = RowQueue(rowBytes: 4, slots: 3)
        var produced = 0
        var got: [UInt8] = []
        let started = Threads.alongside(
            {
                var n: UInt8 = 0
                while queue.produce({ row in
                    guard n < 50 else { return false }
                    for k in 0..<4 { row[k] = n }
                    n += 1
                    return true
                }) {}
                queue.finish()
            },
            {
                var row = [UInt8](repeating: 0, count: 4)
                while row.withUnsafeMutableBufferPointer({ queue.consume(into: $0.baseAddress!) }) {
                    got.append(row[0])
                }
            })
        #expect(started)
        #expect(got == (0..<50).map { UInt8($0) })
        // A consumer that stops early: the producer, blocked on a full queue, is released.
        let endless = RowQueue(rowBytes: 1, slots: 2)
        _ = Threads.alongside(
            {
                while endless.produce({
                    $0[0] = 1
                    return true
                }) {}
                endless.finish()
            },
            {
                var row: UInt8 = 0
                for _ in 0..<5 { _ = endless.consume(into: &row) }
                endless.cancel()
                produced = 5
            })
        #expect(produced == 5)
    }
}
