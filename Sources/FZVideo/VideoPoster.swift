import FZFormat

/// The poster frame of a video, chosen as a person would (and as ffmpegthumbnailer does, which
/// seeks to 10%): not the first frame, which is often black (a fade-in, a lens cap, a title
/// card), but a keyframe near 10-20% of the duration, passing over frames that are near-uniform
/// (black, white, one colour).
///
/// How: the keyframe at or before 15%, 10%, 20%, 30%, 5%, 40% and 50% of the duration, in that
/// order (1, 3, 0 and 6 s when the container gives no duration), each decoded alone (only
/// keyframes: seeking, never the whole video), and measured on its luma scaled to at most
/// 64x64. The first whose luma standard deviation is at least 10 levels (of 255) and whose mean
/// is between 16 and 240 is the poster; when none is, the one with the most variance. A
/// keyframe already tried (a long keyframe interval maps several times to one) is not decoded
/// again.
enum VideoPoster {
    static let fractions = [0.15, 0.10, 0.20, 0.30, 0.05, 0.40, 0.50]
    static let withoutDuration = [1.0, 3.0, 0.0, 6.0]
    /// Luma standard deviation (levels) under which a frame is near-uniform.
    static let minimumDeviation = 10.0
    /// Mean luma under which a frame is black, and over which white.
    static let darkest = 16.0
    static let brightest = 240.0

    /// Whether a frame with this luma mean and variance makes a poster.
    static func acceptable(mean: Double, variance: Double) -> Bool {
        variance >= minimumDeviation * minimumDeviation && mean >= darkest && mean <= brightest
    }

    /// Decodes candidates into `video` until one is acceptable; the chosen frame is left kept.
    /// - Returns: its time, and a note when no candidate was acceptable.
    static func choose(
        _ video: FFmpegVideo, duration: Double, path: String
    ) throws(DecodeError) -> (time: Double, note: String?) {
        let times = duration > 0 ? fractions.map { $0 * duration } : withoutDuration
        var tried: [Double] = []
        var best: (time: Double, variance: Double)?
        var lastKept: Double?
        var firstError: DecodeError?
        for t in times {
            let shown: Double
            do { shown = try video.frame(at: t, keyframe: true, path: path) } catch {
                firstError = firstError ?? error
                continue
            }
            lastKept = shown
            if tried.contains(where: { abs($0 - shown) < 1e-6 }) { continue }
            tried.append(shown)
            guard let (mean, variance) = video.measure() else { continue }
            if acceptable(mean: mean, variance: variance) { return (shown, nil) }
            if best == nil || variance > best!.variance { best = (shown, variance) }
        }
        guard let best else { throw firstError ?? .nothingKept(path: path, problem: "corrupt video: no frame decodes") }
        if lastKept.map({ abs($0 - best.time) > 1e-6 }) ?? true {
            _ = try video.frame(at: best.time, keyframe: true, path: path)
        }
        return (best.time, "every poster candidate is near-uniform or black: the most varied one is used")
    }
}
