#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Elapsed time on the monotonic clock (never jumps with the wall clock).
public struct Stopwatch: Sendable {
    /// When the stopwatch started, in seconds of the monotonic clock.
    public let start: Double

    public init() { start = Self.now() }

    /// Seconds since `start`.
    public var elapsed: Double { Self.now() - start }

    /// The monotonic clock in seconds.
    public static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
