import FZImage
import FZSystem

extension Resampler {
    /// `resample(image)` with the output's two halves made on two threads (`threads` > 1):
    /// the same sums per output row, so the same bytes. The window of `thumb --crop-at
    /// attention` is resampled only once the score map is known, after the whole decode, so
    /// the second core has nothing else to do then (issue 49: about 5% of the 20 MP JPEG's time).
    public func resample(_ image: Image, threads: Int) -> Image {
        precondition(image.size == sourceSize && image.format == format, "source does not match the resampler")
        return image.pixels.withUnsafeBufferPointer {
            resample(rows: $0.baseAddress!, stride: image.stride, threads: threads)
        }
    }

    /// The same from source rows held in memory elsewhere, `stride` bytes apart (an animation's
    /// canvas, read in place by both halves; neither writes it).
    package func resample(rows source: UnsafePointer<UInt8>, stride: Int, threads: Int) -> Image {
        let oh = outputSize.height
        var out = [UInt8](repeating: 0, count: outputSize.width * oh * format.channels)
        out.withUnsafeMutableBufferPointer { dst in
            let halves = Halves(source: source, stride: stride, output: dst.baseAddress!)
            // Each half filters the rows its taps share with the other again: not worth it for a few rows.
            guard threads > 1, oh >= 32 else {
                runRows(0..<oh, into: halves.output, seek: true, provide: halves.provide)
                return
            }
            let split = oh / 2
            let resampler = self
            let both = Threads.alongside(
                { resampler.runRows(split..<oh, into: halves.output, seek: true, provide: halves.provide) },
                { resampler.runRows(0..<split, into: halves.output, seek: true, provide: halves.provide) })
            if !both { runRows(0..<oh, into: halves.output, provide: halves.provide) }
        }
        return Image(width: outputSize.width, height: oh, format: format, pixels: out)
    }
}

/// The held source and the output buffer, shared by the two halves: each half reads the
/// source only and writes only its own output rows.
private struct Halves: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let stride: Int
    let output: UnsafeMutablePointer<UInt8>

    func provide(_ y: Int, _ row: UnsafeMutablePointer<UInt8>) -> Bool {
        row.update(from: source + y * stride, count: stride)
        return true
    }
}
