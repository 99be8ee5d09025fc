/// When each frame of a transition is shown: one or more phases played one after the
/// other (a zoom, then a turn), each with its own duration and easing, sampled at a frame
/// rate. Pure, no pixels.
///
/// Frame times are those of a display running at `fps`: frame k at time k/fps, from 0 to
/// exactly the total duration. Every phase boundary is a frame (a phase of duration D gets
/// round(D x fps) intervals, at least 1), so when the durations are whole multiples of
/// 1/fps (0.2 s and 0.25 s at 60 fps: 12 and 15 intervals) frame k is at exactly k/fps; when
/// they are not, a phase's frames are spread evenly over it.
public struct TransitionTimeline: Hashable, Sendable {
    /// One phase: its name (as the JSON reports it), length in seconds and curve.
    public struct Phase: Hashable, Sendable {
        public var name: String
        public var duration: Double
        public var easing: Easing

        public init(name: String, duration: Double, easing: Easing) {
            self.name = name
            self.duration = duration
            self.easing = easing
        }
    }

    /// Where one frame sits on the timeline.
    public struct Sample: Hashable, Sendable {
        /// Seconds since the transition began.
        public var time: Double
        /// Which phase it shows (the first phase for frame 0).
        public var phase: Int
        /// The phase's time fraction, 0...1 (exactly 1 on a phase's last frame).
        public var fraction: Double
        /// The phase's eased progress: `easing.progress(fraction)`.
        public var progress: Double
    }

    public let phases: [Phase]
    /// Intervals between frames in each phase.
    public let intervals: [Int]

    /// - Parameters:
    ///   - phases: played in order; durations must be positive.
    ///   - fps: frames per second.
    public init(phases: [Phase], fps: Double) {
        self.phases = phases
        intervals = phases.map { max(1, Int(($0.duration * fps).rounded())) }
    }

    /// The same phases with `frameCount` frames in all (frame 0 included), split between the
    /// phases in proportion to their durations (each phase at least one interval).
    public init(phases: [Phase], frameCount: Int) {
        self.phases = phases
        let total = phases.reduce(0) { $0 + $1.duration }
        let available = max(phases.count, frameCount - 1)
        var counts = phases.map { max(1, Int((Double(available) * $0.duration / total).rounded())) }
        // Rounding may leave the sum one or two off: take from or give to the longest phase.
        while counts.reduce(0, +) > available, let i = counts.indices.max(by: { counts[$0] < counts[$1] }),
            counts[i] > 1
        { counts[i] -= 1 }
        while counts.reduce(0, +) < available,
            let i = counts.indices.max(by: { phases[$0].duration < phases[$1].duration })
        { counts[i] += 1 }
        intervals = counts
    }

    /// Seconds from the first frame to the last.
    public var duration: Double { phases.reduce(0) { $0 + $1.duration } }

    /// Frames, the first at time 0 and the last at `duration`.
    public var frameCount: Int { intervals.reduce(0, +) + 1 }

    /// When phase `i` begins.
    public func start(ofPhase i: Int) -> Double { phases[..<i].reduce(0) { $0 + $1.duration } }

    /// The index of the frame that ends phase `i`.
    public func lastFrame(ofPhase i: Int) -> Int { intervals[...i].reduce(0, +) }

    /// Frame `k` (0 ..< frameCount).
    public func sample(_ k: Int) -> Sample {
        guard k > 0, !phases.isEmpty else {
            return Sample(time: 0, phase: 0, fraction: 0, progress: phases.first?.easing.progress(0) ?? 0)
        }
        var rest = min(k, frameCount - 1)
        var i = 0
        while i < intervals.count - 1 && rest > intervals[i] {
            rest -= intervals[i]
            i += 1
        }
        let fraction = rest == intervals[i] ? 1 : Double(rest) / Double(intervals[i])
        // The last frame of the last phase is exactly at the total (no rounding residue).
        let time = k == frameCount - 1 ? duration : start(ofPhase: i) + phases[i].duration * fraction
        return Sample(time: time, phase: i, fraction: fraction, progress: phases[i].easing.progress(fraction))
    }
}
