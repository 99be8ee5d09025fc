import FZFormat
import FZImage
import FZPNG
import FZSystem
import FZWebP
import Geometry

/// Writes an animation frame by frame (`thumb --animated`): an animated WebP through
/// libwebpmux's `WebPAnimEncoder`, or an APNG. Every frame goes in as the whole composited
/// canvas at the output's size; the APNG keeps each as a whole frame (dispose none, blend
/// source: a viewer shows exactly that canvas), the WebP encoder stores what changed
/// (sub-rectangles) and merges a frame identical to the one before into it.
///
/// Frames are compressed as they come; only their compressed bytes wait for the end (the
/// APNG's frame count comes first in the file, and libwebp assembles at the end).
package final class AnimationWriter {
    private enum Kind {
        case webp(WebPAnimationEncoder)
        case apng(APNGWriter, PNGSettings)
    }

    private let kind: Kind
    private let path: String
    /// APNG: each frame's compressed rows and delay, in order.
    private var frames: [(payload: [UInt8], delay: Int)] = []

    /// Whether `format` can hold an animation (WebP, PNG as APNG).
    package static func writes(_ format: OutputFormat) -> Bool { format.format == .webp || format.format == .png }

    /// - Parameters:
    ///   - loopCount: plays, 0 forever.
    ///   - path: the output, for messages.
    package init(format: OutputFormat, size: PixelSize, loopCount: Int, settings: EncodeSettings, path: String)
        throws(OutputError)
    {
        self.path = path
        if format.format == .webp {
            kind = .webp(
                try WebPAnimationEncoder(
                    size: size, loopCount: loopCount, quality: settings.quality, lossless: settings.lossless,
                    path: path))
        } else {
            kind = .apng(
                APNGWriter(size: size, format: .rgba, fps: 10, plays: UInt32(clamping: loopCount)), settings.png)
        }
    }

    /// Adds the next frame (RGBA at the output's size) shown for `delay` milliseconds.
    package func add(_ frame: Image, delay: Int) throws(OutputError) {
        switch kind {
        case .webp(let encoder): try encoder.add(frame, delay: delay)
        case .apng(_, let settings): frames.append((try APNGWriter.framePayload(frame, settings: settings), delay))
        }
    }

    /// The file's bytes and the frames it holds.
    package func finish() throws(OutputError) -> (bytes: [UInt8], frames: Int) {
        switch kind {
        case .webp(let encoder): return try encoder.finish()
        case .apng(let writer, _):
            var out = writer.header(frameCount: frames.count)
            for (k, f) in frames.enumerated() { out += writer.frame(k, payload: f.payload, milliseconds: f.delay) }
            return (out + writer.trailer, frames.count)
        }
    }
}

extension ImageReader {
    /// Frames in the input: more than 1 for an animation its format reads as one.
    package var animationFrameCount: Int { (decoder as? any AnimatedDecoder)?.animationFrameCount ?? 1 }

    /// The input's frames one by one when it is an animation (more than one frame) its
    /// format reads as one (GIF, WebP); nil for a still.
    package func animation() throws(DecodeError) -> (any AnimationSource)? {
        guard let animated = decoder as? any AnimatedDecoder, let frames = try animated.animation() else { return nil }
        consumed = true
        return frames
    }
}
