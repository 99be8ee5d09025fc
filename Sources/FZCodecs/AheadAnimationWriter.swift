import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `AnimationWriter` that compresses on a thread of its own (issue 50): while the caller
/// reduces the next frame, the last one is encoded. The main thread did both one after the
/// other, so it was the longest of the threads (the 100-frame GIF's: 3.4G instructions, the
/// decoding thread 1.5G, the other half of the reduction 1.3G). Frames cross a two-slot
/// `RowQueue` (a copy each: two more frames at the output's size, at most `limitBytes` each;
/// a larger output, or one thread, writes as it comes). The writer's error stops the thread and
/// comes back from the next `add` or from `finish`; frames go in in order either way, so the
/// bytes are the plain writer's.
package final class AheadAnimationWriter {
    /// The largest frame encoded ahead: 4 MB (1000x1000 RGBA), so the two slots stay small.
    package static let limitBytes = 4 << 20

    private let shared: Shared
    private let frameBytes: Int
    private let queue: RowQueue
    private var thread: pthread_t?

    /// What the encoding thread owns until it is joined: the writer, and the error that ended it.
    private final class Shared: @unchecked Sendable {
        let writer: AnimationWriter
        var failure: OutputError?
        init(_ writer: AnimationWriter) { self.writer = writer }
    }

    /// `writer` fed at `size` (RGBA frames), on a thread of its own when `threads` allow one.
    package init(_ writer: AnimationWriter, size: PixelSize, threads: Int) {
        shared = Shared(writer)
        frameBytes = size.width * size.height * 4
        // Each slot: the frame, then its delay (8 bytes).
        queue = RowQueue(rowBytes: frameBytes + 8, slots: 2)
        guard threads >= 2, frameBytes > 0, frameBytes <= Self.limitBytes else { return }
        let (queue, shared, bytes) = (queue, shared, frameBytes)
        thread = Threads.spawn {
            var slot = [UInt8](repeating: 0, count: bytes + 8)
            while slot.withUnsafeMutableBufferPointer({ queue.consume(into: $0.baseAddress!) }) {
                let delay = slot.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: bytes, as: Int64.self) }
                let frame = Image(width: size.width, height: size.height, format: .rgba, pixels: Array(slot[0..<bytes]))
                do throws(OutputError) {
                    try shared.writer.add(frame, delay: Int(delay))
                } catch {
                    shared.failure = error
                    queue.cancel()
                    return
                }
            }
        }
    }

    deinit { join() }

    /// Adds the next frame (RGBA at the output's size) shown for `delay` milliseconds.
    package func add(_ frame: Image, delay: Int) throws(OutputError) {
        if thread != nil {
            if frame.format == .rgba && frame.pixels.count == frameBytes {
                let bytes = frameBytes
                let sent = frame.pixels.withUnsafeBytes { px in
                    queue.produce { slot in
                        UnsafeMutableRawPointer(slot).copyMemory(from: px.baseAddress!, byteCount: bytes)
                        UnsafeMutableRawPointer(slot + bytes).storeBytes(of: Int64(delay), as: Int64.self)
                        return true
                    }
                }
                if sent { return }
            }
            // The thread stopped on an error (thrown here), or a frame of another shape came:
            // the frames before it are written first, and this one and the rest here.
            join()
            if let failure = shared.failure { throw failure }
        }
        try shared.writer.add(frame, delay: delay)
    }

    /// The file's bytes and the frames it holds, once every frame is encoded.
    package func finish() throws(OutputError) -> (bytes: [UInt8], frames: Int) {
        join()
        if let failure = shared.failure { throw failure }
        return try shared.writer.finish()
    }

    /// Ends the encoding thread after the frames already queued (none wait if it failed).
    private func join() {
        guard let t = thread else { return }
        queue.finish()
        Threads.join(t)
        thread = nil
    }
}
