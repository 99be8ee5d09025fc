import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// The animation writer fed from a thread of its own (issue 50): the same file as the plain
/// writer given the same frames, and the encoder's error back to the caller.
struct AheadAnimationWriterTests {
    static let size = PixelSize(width: 48, height: 40)

    /// Frame `k`: a gradient that moves with k, a square that changes colour, some alpha.
    static func frame(_ k: Int) -> Image {
        var px = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let i = (y * size.width + x) * 4
                let inSquare = abs(x - 8 - k * 3) < 6 && abs(y - 20) < 6
                px[i] = UInt8((x * 5 + k * 17) & 255)
                px[i + 1] = inSquare ? UInt8((k * 40) & 255) : UInt8(y * 6)
                px[i + 2] = UInt8((x + y + k) & 255)
                px[i + 3] = x < 4 ? 128 : 255
            }
        }
        return Image(width: size.width, height: size.height, format: .rgba, pixels: px)
    }

    static func writer(_ ext: String) throws -> AnimationWriter {
        try AnimationWriter(
            format: try #require(OutputFormat(forExtension: ext)), size: size, loopCount: 3,
            settings: EncodeSettings(), path: "t.\(ext)")
    }

    @Test(arguments: ["webp", "png"])
    func sameFileAsThePlainWriter(_ ext: String) throws {
        let frames = (0..<12).map(Self.frame)
        let plain = try Self.writer(ext)
        for (k, f) in frames.enumerated() { try plain.add(f, delay: 40 + k * 10) }
        let want = try plain.finish()
        #expect(want.frames > 1)
        for threads in [1, 2] {
            let ahead = AheadAnimationWriter(try Self.writer(ext), size: Self.size, threads: threads)
            for (k, f) in frames.enumerated() { try ahead.add(f, delay: 40 + k * 10) }
            let got = try ahead.finish()
            #expect(got.frames == want.frames, "threads \(threads)")
            #expect(got.bytes == want.bytes, "threads \(threads)")
        }
    }

    /// libwebp refuses a timestamp before the last one: a negative delay makes the third
    /// frame's. The thread's error comes back from a later add or from finish, as the plain
    /// writer's comes from that add, and names the same output.
    @Test func theEncodersErrorComesBack() throws {
        let delays = [100, -500, 100, 100, 100, 100]
        func run(_ add: (Image, Int) throws -> Void, _ finish: () throws -> Void) -> String? {
            do {
                for (k, d) in delays.enumerated() { try add(Self.frame(k), d) }
                try finish()
                return nil
            } catch { return "\(error)" }
        }
        let plain = try Self.writer("webp")
        let want = run({ try plain.add($0, delay: $1) }, { _ = try plain.finish() })
        let ahead = AheadAnimationWriter(try Self.writer("webp"), size: Self.size, threads: 2)
        let got = run({ try ahead.add($0, delay: $1) }, { _ = try ahead.finish() })
        #expect(want != nil)
        #expect(got == want)
    }

    /// Stopping early (an error elsewhere, Ctrl-C) ends the thread when the writer goes.
    @Test func droppedUnfinishedJoinsItsThread() throws {
        for _ in 0..<20 {
            let ahead = AheadAnimationWriter(try Self.writer("webp"), size: Self.size, threads: 2)
            for k in 0..<5 { try ahead.add(Self.frame(k), delay: 50) }
        }
    }
}
