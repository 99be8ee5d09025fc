#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many threads one image's work may use: the online processors, or
/// `FORCEZOOM_THREADS` when set (1 turns per-image parallelism off). Batches (`thumb -j`)
/// parallelise across images instead and pass 1.
public enum Threads {
    public static let perImage: Int = {
        if let text = getenv("FORCEZOOM_THREADS").map({ String(cString: $0) }), let n = Int(text), n >= 1 {
            return min(n, 64)
        }
        return max(1, min(64, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }()
}
