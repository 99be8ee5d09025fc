import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An animation composited one frame ahead on a thread of its own (issue 50): while the
/// caller reduces and encodes a frame, the next one is decoded and composited (a GIF's LZW
/// and the canvas were a third of `thumb --animated`'s work, the resampling and WebP encoder
/// the rest, one after the other). The frames, delays and errors are the source's, in order;
/// a copy of each canvas crosses a two-slot `RowQueue`, so the memory is three more canvases,
/// and a source whose canvas is over `limitBytes` is not wrapped. When the caller stops early
/// (its frame or time limits, an error, Ctrl-C) the thread finishes the frame it is on, at
/// most one more, and ends with this object.
package final class PrefetchedFrames: AnimationSource {
    /// The largest canvas prefetched: 16 MB (2000x2000), so three more copies stay small next
    /// to the decoders' own canvases and any memory limit.
    package static let limitBytes = 16 << 20

    package let canvasSize: PixelSize
    package let frameCount: Int
    package let loopCount: Int
    private let queue: RowQueue
    private let shared: Shared
    private let frameBytes: Int
    private var thread: pthread_t?
    private var buffer: [UInt8]

    /// What the producing thread owns: the source (used by that thread only, once it starts)
    /// and the error that ended it (read after the queue says it finished).
    private final class Shared: @unchecked Sendable {
        let source: any AnimationSource
        var failure: (any Error)?
        init(_ source: any AnimationSource) { self.source = source }
    }

    /// `source` prefetched when `threads` allow a second thread and its canvas is small
    /// enough, else `source` itself.
    package static func wrap(_ source: any AnimationSource, threads: Int) -> any AnimationSource {
        let bytes = Int64(source.canvasSize.width) * Int64(source.canvasSize.height) * 4
        guard threads >= 2, bytes > 0, bytes <= Int64(limitBytes), let p = PrefetchedFrames(source) else {
            return source
        }
        return p
    }

    private init?(_ source: any AnimationSource) {
        canvasSize = source.canvasSize
        frameCount = source.frameCount
        loopCount = source.loopCount
        frameBytes = canvasSize.width * canvasSize.height * 4
        // Each slot: the canvas, then the frame's delay (8 bytes).
        let queue = RowQueue(rowBytes: frameBytes + 8, slots: 2)
        let shared = Shared(source)
        let bytes = frameBytes
        self.queue = queue
        self.shared = shared
        buffer = [UInt8](repeating: 0, count: frameBytes + 8)
        thread = Threads.spawn {
            let fill: (UnsafeMutablePointer<UInt8>) -> Bool = { slot in
                do {
                    return try shared.source.next { pixels, delay in
                        UnsafeMutableRawPointer(slot).copyMemory(from: pixels.baseAddress!, byteCount: bytes)
                        UnsafeMutableRawPointer(slot + bytes).storeBytes(of: Int64(delay), as: Int64.self)
                    }
                } catch {
                    shared.failure = error
                    return false
                }
            }
            while queue.produce(fill) {}
            queue.finish()
        }
        if thread == nil { return nil }
    }

    deinit {
        queue.cancel()
        if let thread { Threads.join(thread) }
    }

    package func next(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Bool {
        let got = buffer.withUnsafeMutableBufferPointer { queue.consume(into: $0.baseAddress!) }
        guard got else {
            // The producer's last word, published by finish() under the queue's lock.
            if let failure = shared.failure { throw failure }
            return false
        }
        try buffer.withUnsafeBytes { raw in
            let delay = raw.loadUnaligned(fromByteOffset: frameBytes, as: Int64.self)
            try body(UnsafeRawBufferPointer(rebasing: raw[0..<frameBytes]), Int(delay))
        }
        return true
    }
}
