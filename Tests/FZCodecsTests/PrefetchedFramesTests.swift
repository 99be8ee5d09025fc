import Testing

@testable import FZFormat
@testable import Geometry

/// `thumb --animated`'s one-frame-ahead reader (PrefetchedFrames) hands on the source's frames,
/// delays and error in order, and ends cleanly when its caller stops early.
struct PrefetchedFramesTests {
    /// Frames of a 3x2 canvas whose every byte is the frame's number, delay 10 ms times it;
    /// `failAt` throws instead of that frame.
    final class Counting: AnimationSource {
        struct Broken: Error, Equatable { let at: Int }
        let canvasSize = PixelSize(width: 3, height: 2)
        let frameCount: Int
        let loopCount = 4
        let failAt: Int?
        var made = 0
        init(frames: Int, failAt: Int? = nil) { (frameCount, self.failAt) = (frames, failAt) }
        func next(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Bool {
            guard made < frameCount else { return false }
            if made == failAt { throw Broken(at: made) }
            let pixels = [UInt8](repeating: UInt8(made), count: 24)
            made += 1
            try pixels.withUnsafeBytes { try body($0, 10 * (made - 1)) }
            return true
        }
    }

    static func drain(_ s: any AnimationSource, upTo limit: Int = .max) throws -> [(UInt8, Int)] {
        var got: [(UInt8, Int)] = []
        while got.count < limit,
            try s.next({ pixels, delay in
                #expect(pixels.count == 24 && Set(pixels).count == 1)
                got.append((pixels[0], delay))
            })
        {}
        return got
    }

    @Test func framesAndDelaysInOrder() throws {
        let inner = Counting(frames: 9)
        let s = PrefetchedFrames.wrap(inner, threads: 2)
        #expect(s is PrefetchedFrames)
        #expect(s.canvasSize == inner.canvasSize && s.frameCount == 9 && s.loopCount == 4)
        let got = try Self.drain(s)
        #expect(got.map(\.0) == Array(0..<9).map(UInt8.init))
        #expect(got.map(\.1) == Array(0..<9).map { $0 * 10 })
        #expect(try !s.next { _, _ in Issue.record("a frame after the end") })
    }

    @Test func theSourcesErrorAfterTheFramesBeforeIt() throws {
        let s = PrefetchedFrames.wrap(Counting(frames: 9, failAt: 5), threads: 2)
        #expect(try Self.drain(s, upTo: 5).map(\.0) == [0, 1, 2, 3, 4])
        #expect(throws: Counting.Broken(at: 5)) { try s.next { _, _ in } }
    }

    /// A caller that stops after two frames: the producer reads at most two ahead, and
    /// releasing the reader ends its thread (deinit cancels and joins).
    @Test func anEarlyStopEndsTheThread() throws {
        let inner = Counting(frames: 1000)
        do {
            let s = PrefetchedFrames.wrap(inner, threads: 2)
            #expect(try Self.drain(s, upTo: 2).count == 2)
        }
        #expect(inner.made <= 5, "\(inner.made) frames made for 2 taken")
    }

    @Test func oneThreadOrAHugeCanvasIsNotWrapped() {
        #expect(!(PrefetchedFrames.wrap(Counting(frames: 2), threads: 1) is PrefetchedFrames))
    }
}
