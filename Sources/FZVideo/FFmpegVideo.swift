import CFZVideo
import FZFormat
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// One video opened through FFmpeg (CFZVideo's `fz_video`): the only Swift that holds its
/// pointer, freed on deinit. FFmpeg's own structures stay in fz_video.c; this side asks for
/// facts, a frame at a time, its luma statistics and the frame scaled to a size.
final class FFmpegVideo {
    private let handle: OpaquePointer
    /// What the container and the stream's parameters say.
    let facts: fz_video_facts
    /// The file, kept open while FFmpeg reads it.
    private let source: ImageSource

    /// Opens `source`'s container within `limits`.
    /// - Throws: `DecodeError` naming the file: FFmpeg cannot read it, it has no video stream.
    init(source: ImageSource, limits: VideoLimits) throws(DecodeError) {
        self.source = source
        var l = fz_video_limits(
            max_pixels: limits.maxPixels, probe_bytes: limits.probeBytes, max_packets: Int32(limits.maxPackets),
            seconds: limits.seconds, threads: Int32(limits.threads), frame_threads: limits.frameThreads ? 1 : 0,
            keyframe_probe: limits.keyframeProbe ? 1 : 0)
        var f = fz_video_facts()
        var why = [CChar](repeating: 0, count: 512)
        let opened = source.file.withStream { stream in
            why.withUnsafeMutableBufferPointer { fz_video_open(stream, &l, &f, $0.baseAddress, $0.count) }
        }
        guard let opened else {
            let reason = Self.text(why)
            if reason.hasPrefix("no video stream") || reason.contains("codec is not") {
                throw .unsupportedVariant(path: source.name, what: "video file: \(reason)")
            }
            throw .corruptHeader(path: source.name, detail: reason)
        }
        handle = opened
        facts = f
    }

    deinit { fz_video_close(handle) }

    /// Decodes the frame at `seconds` from the stream's start (with `keyframe`, the keyframe at
    /// or before it, decoding keyframes only) and keeps it.
    /// - Returns: the time of the frame kept.
    func frame(at seconds: Double, keyframe: Bool, path: String) throws(DecodeError) -> Double {
        var shown = 0.0
        var why = [CChar](repeating: 0, count: 512)
        let ok = why.withUnsafeMutableBufferPointer {
            fz_video_frame_at(handle, seconds, keyframe ? 1 : 0, &shown, $0.baseAddress, $0.count)
        }
        if ok == 0 { throw .nothingKept(path: path, problem: "corrupt video: \(Self.text(why))") }
        return shown
    }

    /// Whether frames decode without the in-loop filters (a reduced poster: `fz_video_set_fast`).
    func setFast(_ fast: Bool) { fz_video_set_fast(handle, fast ? 1 : 0) }

    /// The kept frame's luma mean and variance (0-255 levels), from at most 64x64 samples.
    func measure() -> (mean: Double, variance: Double)? {
        var mean = 0.0
        var variance = 0.0
        return fz_video_measure(handle, &mean, &variance) == 0 ? nil : (mean, variance)
    }

    /// The kept frame scaled to `size` into `out` (RGB24, or RGB48 in host order with `deep`).
    func render(
        width: Int, height: Int, deep: Bool, into out: UnsafeMutableRawBufferPointer, path: String
    ) throws(DecodeError) {
        var why = [CChar](repeating: 0, count: 512)
        let stride = width * (deep ? 6 : 3)
        precondition(out.count >= stride * height)
        let ok = why.withUnsafeMutableBufferPointer {
            fz_video_render(
                handle, Int32(width), Int32(height), deep ? 1 : 0, out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                stride, $0.baseAddress, $0.count)
        }
        if ok == 0 { throw .nothingKept(path: path, problem: "corrupt video: \(Self.text(why))") }
    }

    /// A C string field of the facts or a reason buffer as Swift text.
    static func text(_ chars: [CChar]) -> String {
        chars.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// A fixed C char array of `fz_video_facts` (imported as a tuple) as text.
    static func text<T>(tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// The bounds one video input is read within (fz_video_limits).
struct VideoLimits {
    /// The pixel limit (`--max-pixels`): the codec refuses larger frames, also while probing.
    var maxPixels: Int64
    /// libavformat reads at most this many bytes to find the streams.
    var probeBytes: Int64 = 8 << 20
    /// Packets one frame may read from the keyframe before it: 100 s at 30 frames a second,
    /// more than any real keyframe interval (phones write one a second or two).
    var maxPackets = 3000
    /// Wall time for everything on one input: a hostile file stops here, never a hang.
    var seconds = 30.0
    /// Decoding threads (`DecodeOptions.threads`).
    var threads: Int
    /// Frame threading too (a run of frames from a keyframe: `--time`); a poster decodes
    /// keyframes alone, for which slices are the only parallelism and frame threads cost memory.
    var frameThreads = false
    /// Only a poster will be decoded and the coded pixel format is not reported (`thumb`,
    /// not `info` or `--time`): an 8-bit H.264 stream is probed without decoding frames.
    var keyframeProbe = false
}
