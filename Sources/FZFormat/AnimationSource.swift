import FZSystem
import Geometry

/// An animation read one composited frame at a time (issue 50, `thumb --animated`): each
/// frame is the whole canvas as a browser shows it at that moment (the frames before it
/// drawn and disposed of as the file says), RGBA with straight alpha, rows top down.
///
/// Memory is the format's own canvases (at most two: the canvas and what a
/// restore-to-previous frame covered, as `GIFComposer` and libwebp's `WebPAnimDecoder` hold
/// them), never the whole animation: `next` overwrites the canvas it handed out last.
package protocol AnimationSource: AnyObject {
    /// The canvas (logical screen) every frame covers, before any orientation.
    var canvasSize: PixelSize { get }
    /// Frames in the file (as counted from its headers or records).
    var frameCount: Int { get }
    /// How many times the animation plays, 0 forever: WebP's loop count and APNG's
    /// num_plays as stored; a GIF's NETSCAPE2.0 count N (repetitions after the first play)
    /// as N + 1 plays, as Chrome and gif2webp read it, and a GIF without one plays once.
    var loopCount: Int { get }
    /// Composites the next frame and hands it to `body` with its delay in milliseconds (as
    /// the file states it, before `AnimationTiming.shownDelay`); false at the end. The
    /// pixels are valid only inside `body`.
    func next(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Bool
}

/// A decoder that can read its file as an animation.
package protocol AnimatedDecoder: ImageDecoder {
    /// Frames in the file (1: a still), known from `init`'s walk of the headers.
    var animationFrameCount: Int { get }
    /// The frames, from the first; nil when the file holds one frame (a still).
    func animation() throws(DecodeError) -> (any AnimationSource)?
}

/// How long frames are shown.
package enum AnimationTiming {
    /// The delay a browser shows a frame for: Chromium and Firefox show every frame whose
    /// delay is 10 ms or less (a GIF's 0 or 1 centisecond, a WebP or APNG frame of 0-10 ms)
    /// for 100 ms, so "as fast as possible" ads do not flash; forcezoom writes that delay.
    package static func shownDelay(_ milliseconds: Int) -> Int { milliseconds <= 10 ? 100 : milliseconds }
}
