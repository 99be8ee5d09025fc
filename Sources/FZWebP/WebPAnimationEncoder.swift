import CWebP
import FZFormat
import FZImage
import FZSystem
import Geometry

/// Animated WebP through libwebpmux's `WebPAnimEncoder` (its pointers stay in this file),
/// for `thumb --animated`. Frames go in whole (the composited canvas, reduced); the encoder
/// keeps only what changed from the frame before (sub-rectangles, with the disposal and
/// blending it picks) and merges a frame identical to the one before into it (its delay
/// added), so the file may have fewer frames than were added (`finish` says how many).
/// Memory: the encoder's few canvases at the output's size and the encoded frames.
package final class WebPAnimationEncoder {
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let size: PixelSize
    private let path: String
    /// The next frame's start, in milliseconds.
    private var time = 0

    /// - Parameters:
    ///   - loopCount: plays (0: forever), WebP's loop count.
    ///   - quality: lossy quality (1-100), ignored when `lossless`.
    package init(size: PixelSize, loopCount: Int, quality: Int, lossless: Bool, path: String) throws(OutputError) {
        self.size = size
        self.path = path
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw .writeFailed(path: path, reason: "libwebp version mismatch")
        }
        options.anim_params.loop_count = Int32(clamping: loopCount)
        options.anim_params.bgcolor = 0  // transparent: what the canvas starts as in a browser
        config.lossless = lossless ? 1 : 0
        config.quality = Float(lossless ? 75 : quality)
        config.method = lossless ? 1 : 4
        guard let e = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &options) else {
            throw .writeFailed(path: path, reason: "libwebp cannot start a \(size) animation")
        }
        encoder = e
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds the next frame (RGBA, the output's size), shown for `delay` milliseconds.
    package func add(_ frame: Image, delay: Int) throws(OutputError) {
        precondition(frame.format == .rgba && frame.size == size, "an animation frame is RGBA at the output's size")
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .writeFailed(path: path, reason: "libwebp version mismatch") }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(size.width)
        picture.height = Int32(size.height)
        let imported = frame.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.stride))
        }
        guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: time), &config) != 0 else {
            throw .writeFailed(path: path, reason: "libwebp: \(error)")
        }
        time += delay
    }

    /// The whole file, and the frames it holds.
    package func finish() throws(OutputError) -> (bytes: [UInt8], frames: Int) {
        var data = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: time), nil) != 0,
            WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes
        else { throw .writeFailed(path: path, reason: "libwebp: \(error)") }
        defer { WebPDataClear(&data) }
        let file = Array(UnsafeBufferPointer(start: bytes, count: data.size))
        var frames = 0
        if let demux = WebPDemux(&data) {
            frames = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            WebPDemuxDelete(demux)
        }
        return (file, frames)
    }

    private var error: String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
    }
}
