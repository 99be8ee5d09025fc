import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// One run of the binary, measured by the kernel through GNU time (`/usr/bin/time`, Debian
/// package `time`): how it ended, how long it took, the CPU time it used and the most memory
/// it held.
///
/// Why guards bound `cpuSeconds` and not `seconds`: wall-clock time grows with whatever else
/// runs on the machine (CI and five engineers share two cores), CPU time does not; a run that
/// loops or does quadratic work still spends its CPU. The wall clock is only the timeout that
/// ends a hang, set wide enough to hold at a load of 10 on two cores.
///
/// Why GNU time and not wait4 here: the kernel carries the old address space's peak RSS
/// into a process across exec, and posix_spawn (vfork) starts children in the test
/// runner's address space, so a child's ru_maxrss would be at least the runner's (~1 GB).
/// time's own child is forked from the small `time` process, so its peak is its own.
package struct MeasuredRun: CustomStringConvertible {
    /// The exit code, or nil when a signal ended the process.
    package let exitCode: Int32?
    /// The signal that ended it, or nil when it exited.
    package let signal: Int32?
    package let stdout: String
    package let stderr: String
    /// Wall-clock seconds: reported, never a guard (it depends on the machine's load).
    package let seconds: Double
    /// User plus system CPU seconds of the run, all its threads together (ru_utime + ru_stime).
    package let cpuSeconds: Double
    /// Peak resident set size in KiB (ru_maxrss).
    package let maxRSSKiB: Int
    /// Killed (SIGKILL) after the timeout.
    package let timedOut: Bool

    package var description: String {
        let end = exitCode.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
        return
            "\(end), \(seconds) s (CPU \(cpuSeconds) s), \(maxRSSKiB / 1024) MiB\(timedOut ? ", timed out" : ""), stderr: \(stderr)"
    }
}

extension CLI {
    /// Starts the binary through `/bin/sh -c 'cd DIR && exec PREFIX BIN ARGS'` (exec: the
    /// shell becomes the binary, or the prefix command, same pid) in a process group of its
    /// own, with stdout/stderr to files and stdin from `stdin`.
    /// The child gets an empty signal mask and default dispositions for the signals
    /// forcezoom handles: test-runner threads may block them, and masks are inherited.
    /// - Returns: the child's pid, or nil if it could not be started.
    package static func spawn(
        _ arguments: [String], in directory: String? = nil, stdout: String, stderr: String,
        stdin: String = "/dev/null", prefix: [String] = [], binary: String = binary
    ) -> pid_t? {
        var command = ""
        if let directory { command += "cd \(quote(directory)) && " }
        command += "exec " + (prefix + [binary] + arguments).map(quote).joined(separator: " ")
        command += " > \(quote(stdout)) 2> \(quote(stderr)) < \(quote(stdin))"

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var handled = sigset_t()
        sigemptyset(&none)
        sigemptyset(&handled)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&handled, sig) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &handled)
        // A process group of its own, so that a timeout kills time and its child together.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { word in word.withCString { strdup($0) } } + [nil]
        defer { for word in argv { free(word) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
        return status == 0 ? pid : nil
    }

    /// Seconds on the monotonic clock.
    package static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Waits for `pid` (polling, so a timeout can kill it) and collects its rusage.
    package static func wait(_ pid: pid_t, started: Double, timeout: Double) -> (
        status: Int32, usage: rusage, timedOut: Bool, seconds: Double
    ) {
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        while true {
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0 && errno != EINTR { break }
            if now() - started > timeout && !timedOut {
                timedOut = true
                kill(-pid, SIGKILL)
            }
            usleep(1000)
        }
        return (status, usage, timedOut, now() - started)
    }

    /// The wall-clock seconds after which `measure` kills a run as hung. Not a bound on the
    /// run's work (its CPU time is, see `MeasuredRun`): wide enough that a run within a 20 s
    /// CPU guard still ends in time at a load of 10 on two cores (a fifth of a core: 100 s).
    package static let hangSeconds: Double = sanitized ? 300 : 120

    /// Runs forcezoom under /usr/bin/time and measures it (see `MeasuredRun`); kills the
    /// whole process group after `timeout` s.
    package static func measure(
        _ arguments: [String], in directory: String? = nil, timeout: Double = hangSeconds, binary: String = binary
    ) -> MeasuredRun {
        let dir = scratch()
        let out = FileSystem.join(dir, "stdout")
        let err = FileSystem.join(dir, "stderr")
        let times = FileSystem.join(dir, "time")
        let started = now()
        guard FileSystem.kind(of: "/usr/bin/time") == .regular,
            let pid = spawn(
                arguments, in: directory, stdout: out, stderr: err,
                prefix: ["/usr/bin/time", "-f", "%e %M %U %S", "-o", times], binary: binary)
        else {
            return MeasuredRun(
                exitCode: nil, signal: nil, stdout: "", stderr: "could not start /usr/bin/time \(binary) (make deps)",
                seconds: 0, cpuSeconds: 0, maxRSSKiB: 0, timedOut: false)
        }
        let (status, _, timedOut, seconds) = wait(pid, started: started, timeout: timeout)
        // time writes "Command terminated by signal N" before its line when the child was
        // killed, and exits with the child's exit code otherwise.
        let report = read(times).split(separator: "\n").map(String.init)
        let signal = report.first { $0.hasPrefix("Command terminated by signal ") }.flatMap {
            Int32($0.split(separator: " ").last ?? "")
        }
        let last = (report.last ?? "").split(separator: " ")
        let measured = last.count == 4 ? (Double(last[0]), Int(last[1])) : (nil, nil)
        // Unreadable CPU times count as unbounded, so that a guard on them fails rather than passes.
        let cpu = last.count == 4 ? (Double(last[2]) ?? .infinity) + (Double(last[3]) ?? .infinity) : .infinity
        let timeSignaled = (status & 0x7F) != 0
        let result = MeasuredRun(
            exitCode: signal == nil && !timeSignaled ? (status >> 8) & 0xFF : nil,
            signal: signal ?? (timeSignaled ? status & 0x7F : nil),
            stdout: read(out), stderr: read(err), seconds: measured.0 ?? seconds, cpuSeconds: cpu,
            maxRSSKiB: measured.1 ?? Int.max,
            timedOut: timedOut)
        _ = shell("rm -rf \(quote(dir))")
        return result
    }
}
