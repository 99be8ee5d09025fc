#if canImport(Glibc)
import Glibc
#endif

/// The memory limits the environment sets (`ulimit -v`, `ulimit -d`, a container's
/// RLIMIT_AS), as `Budget` counts them.
///
/// Why: under an address-space limit an allocation that does not fit fails, and Swift's
/// arrays trap on a failed allocation: a command that the budget let through crashed
/// with a 60-line report and left its temporary file. So the budget knows the limit as
/// it knows --max-memory, and refuses, before allocating, an image that would not fit.
public enum MemoryLimit {
    /// The most bytes one image may take under the process's limits, measured once at
    /// start: a third of what the lower of RLIMIT_AS and RLIMIT_DATA leaves above what is
    /// already mapped (a command holds the image it decoded, the one it makes and the
    /// encoder's buffers). nil when neither limit is set.
    public static let perImage: Int64? = {
        guard let limit = processLimit else { return nil }
        let free = max(0, limit - mappedBytes())
        return free / 3
    }()

    /// The lower of the two limits in bytes, nil when neither is set.
    public static let processLimit: Int64? = {
        var lowest: Int64?
        for resource in [RLIMIT_AS, RLIMIT_DATA] {
            var r = rlimit()
            guard getrlimit(__rlimit_resource_t(resource.rawValue), &r) == 0, r.rlim_cur != rlim_t.max else { continue }
            let bytes = Int64(clamping: r.rlim_cur)
            lowest = min(lowest ?? bytes, bytes)
        }
        return lowest
    }()

    /// `requested` (0 = no limit) lowered to what the environment allows.
    public static func cap(_ requested: Int64) -> Int64 {
        guard let allowed = perImage else { return requested }
        return requested == 0 ? allowed : min(requested, allowed)
    }

    /// Names the limit that `limit` is, for a message: "--max-memory 1024 MiB", or the
    /// environment's when that is the lower.
    public static func describe(_ limit: Int64) -> String {
        if let allowed = perImage, let total = processLimit, limit == allowed {
            return
                "the \(mib(allowed)) MiB an image may take under the process's memory limit (ulimit -v or -d: \(mib(total)) MiB)"
        }
        return "--max-memory \(limit >> 20) MiB"
    }

    /// What to do about it.
    public static func advice(_ limit: Int64) -> String {
        if let allowed = perImage, limit == allowed { return "give smaller values or raise the limit (ulimit -v)" }
        return "give smaller values or raise --max-memory"
    }

    private static func mib(_ bytes: Int64) -> Int64 { bytes >> 20 }

    /// The process's mapped size (VmSize) from /proc/self/statm, 0 when unknown.
    private static func mappedBytes() -> Int64 {
        guard let f = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(f) }
        var pages: Int = 0
        guard readPages(f, &pages) else { return 0 }
        return Int64(pages) * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Reads the first number of statm (pages mapped).
    private static func readPages(_ f: UnsafeMutablePointer<FILE>, _ pages: inout Int) -> Bool {
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, 64, f) != nil else { return false }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let first = text.split(separator: " ").first, let n = Int(first) else { return false }
        pages = n
        return true
    }
}
