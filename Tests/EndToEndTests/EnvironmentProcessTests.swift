import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// The rest of issue 29's reproducers: inputs that would hang, what one stop signal
/// promises, many jobs, unbounded lists, output folders that move, names that look like
/// options. Run as `EnvironmentTests` runs its scripts.
@Suite("The environment is input: the process", .serialized)
struct EnvironmentProcessTests {
    typealias Env = EnvironmentTests

    /// The HEIC the format tests make (`make formats`), nil when absent.
    static let heic: String? = {
        let p = FileSystem.join(CLI.root, ".cache/formats/heic-corners.heic")
        return FileSystem.kind(of: p) == .regular ? p : nil
    }()

    // MARK: 10. Hangs

    @Test func aFIFOInputIsRefusedAtOnce() {
        let r = Env.run(
            """
            mkfifo odd.jpg
            timeout 10 "$FZ" thumb odd.jpg peek.jpg --out t; echo thumb=$?
            timeout 10 "$FZ" crop odd.jpg --at 1,1 -o c.png; echo crop=$?
            echo made=$(ls t)
            """)
        #expect(r["thumb"] == "1" && r["crop"] == "1", "exit 124 is a hang: \(r.stderr)")
        #expect(r["made"] == "peek.thumb.png")
        #expect(r.stderr.contains("odd.jpg: cannot open: a FIFO (named pipe), not a regular file"))
    }

    @Test(
        .enabled(if: Env.isRoot, "needs root to run as another user under ulimit -u; skipped"),
        .enabled(if: heic != nil, "needs .cache/formats (make formats); skipped"))
    func noThreadForTheHEVCDecoderIsAnError() throws {
        let heic = try #require(Self.heic)
        let r = Env.run(
            """
            cp \(CLI.quote(heic)) x.heic; cp "$FZ" fz; chmod 755 . fz x.heic
            timeout 10 setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=1 ./fz crop x.heic --at 5,5 -o - > /dev/null
            echo rc=$?
            """)
        #expect(r["rc"] == "1", "exit 124 is the hang: \(r.stderr)")
        #expect(r.stderr.contains("cannot start a thread for the HEVC decoder"))
    }

    /// TERM to exit within the grace period (FZ_GRACE_SECONDS, 2 s) plus a margin that holds at
    /// a load of 10 on two cores: 10 s. The batch is 16 thumbnails of about 1.3 s of CPU each
    /// (release build) on two jobs, longer than that on an idle machine, so a stop that waited
    /// for the batch still fails.
    @Test func oneStopSignalEndsABatchWithinTheGracePeriod() {
        let r = Env.run(
            """
            mkdir g; "$FZ" fixture noise --size 2000x2000 -o g/n1.png
            for i in $(seq 2 16); do cp g/n1.png g/n$i.png; done
            "$FZ" thumb g --out th --size '4000x4000<' --compression 9 -j 2 -q & p=$!
            for i in $(seq 1 200); do [ "$(temps th 2>/dev/null)" != 0 ] && break; sleep 0.05; done
            start=$(date +%s%N); kill -TERM $p; wait $p; echo rc=$?
            echo ms=$(( ($(date +%s%N) - start) / 1000000 ))
            echo temps=$(temps th)
            """)
        #expect(r["rc"] == "143")
        #expect((Int(r["ms"] ?? "") ?? .max) < 10_000, "stop within the grace period (and a margin): \(r.values)")
        #expect(r["temps"] == "0")
    }

    // MARK: 11. Many jobs

    @Test func aThousandJobsLeaveNothingOnADoubleStop() {
        let r = Env.run(
            """
            mkdir many; for i in $(seq 1 300); do cp mid.png many/m$i.png; done
            "$FZ" thumb many --out oj -j 1024 --size '1200x900!' --compression 9 -q & p=$!
            for i in $(seq 1 400); do [ "$(temps oj 2>/dev/null)" -gt 20 ] && break; sleep 0.02; done
            echo before=$(temps oj)
            kill -TERM $p; sleep 0.05; kill -TERM $p; wait $p; echo rc=$?
            echo temps=$(temps oj)
            """)
        #expect(r["rc"] == "143", "\(r.values)")
        #expect(r["temps"] == "0", "\(r.values)")
    }

    // MARK: 12. Lists

    @Test func anEndlessListOnStandardInputStopsEarly() {
        let r = Env.run(
            """
            /usr/bin/time -f 'rss=%M' -o rss.txt sh -c "yes | '$FZ' thumb --from - --out t"; echo rc=$?
            cat rss.txt
            """)
        #expect(r["rc"] == "1")
        // ASan keeps freed memory in quarantine (256 MB by default) and shadows the rest.
        let limit = Env.sanitized ? 600_000 : 100_000
        #expect((Int(r["rss"] ?? "") ?? .max) < limit, "KiB: \(r.values)")
        #expect(r.stderr.contains("<stdin>: cannot read the input list: more than 2000000 entries; split the list"))
    }

    // MARK: 13. Output folders

    @Test func aLinkedSubfolderBelowOutIsNotEntered() {
        let r = Env.run(
            """
            mkdir -p src/sub out elsewhere; cp peek.jpg src/sub/x.jpg; cp peek.jpg src/y.jpg
            ln -s "$PWD/elsewhere" out/sub
            "$FZ" thumb src -r --out out --name '%d/%s.png' -q; echo rc=$?
            echo elsewhere=$(ls elsewhere | wc -l)
            echo made=$(test -f out/y.png && echo yes)
            """)
        #expect(r["rc"] == "1")
        #expect(r["elsewhere"] == "0")
        #expect(r["made"] == "yes", "the batch goes on")
        #expect(r.stderr.contains("out/sub: is a symbolic link or not a folder"))
    }

    @Test func swappingOutMidBatchChangesNothing() {
        let r = Env.run(
            """
            mkdir g elsewhere; for i in $(seq 1 12); do cp mid.png g/m$i.png; done
            "$FZ" thumb g --out out --size '1200x900!' --compression 9 -j 1 -q & p=$!
            for i in $(seq 1 400); do [ -n "$(ls out 2>/dev/null)" ] && break; sleep 0.02; done
            mv out out.old && ln -s "$PWD/elsewhere" out
            wait $p; echo rc=$?
            echo elsewhere=$(ls -A elsewhere | wc -l)
            echo old=$(ls out.old | wc -l)
            """)
        #expect(r["rc"] == "0")
        #expect(r["elsewhere"] == "0")
        #expect(r["old"] == "12")
    }

    // MARK: 14. Names that look like options

    @Test func aFileNamedLikeShortFlagsIsAUsageError() {
        let r = Env.run(
            """
            cp peek.jpg ./-dash.png
            "$FZ" crop -dash.png --at 1,1 -o o.png > help.txt; echo rc=$?
            echo stdout=$(wc -c < help.txt)
            "$FZ" crop ./-dash.png --at 1,1 -o a.png; echo dotslash=$?
            "$FZ" crop --at 1,1 -o b.png -- -dash.png; echo dashdash=$?
            "$FZ" thumb -rq peek.jpg --out t; echo bundle=$?
            """)
        #expect(r["rc"] == "2" && r["stdout"] == "0")
        #expect(
            r.stderr.contains(
                "unknown option '-dash.png'; for a file whose name starts with '-', write ./-dash.png or put it after --"
            ))
        #expect(r["dotslash"] == "0" && r["dashdash"] == "0")
        #expect(r["bundle"] == "0", "real short flags still bundle")
    }
}
