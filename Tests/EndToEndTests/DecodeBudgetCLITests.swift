import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Commands that decode outside the usual reader path still meet the decode budget before
/// anything large is allocated (issue 40): `compare`'s two images and its difference
/// image, `crop --lossless`'s coefficient arrays and scan count. Each refusal is one line,
/// exit 1, no signal, within seconds, under `ulimit -v` too.
@Suite("decode budget")
struct DecodeBudgetCLITests {
    static let sanitized = getenv("FORCEZOOM_SANITIZED") != nil

    /// Runs `script` with bash in a scratch folder (`$FZ` the binary); `name=value` lines of
    /// its stdout become `values`.
    static func run(_ script: String, timeout: Int = 60) -> (values: [String: String], stderr: String) {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let prologue = """
            set -u
            cd \(CLI.quote(dir))
            FZ=\(CLI.quote(CLI.binary))
            # one=<exit code>:<stderr lines>:<stderr>
            try() { local name=$1; shift; timeout \(timeout) "$@" > out.txt 2> err.txt; local rc=$?
                echo "$name=$rc:$(wc -l < err.txt):$(head -c 400 err.txt | sed 's/^forcezoom: error: //' | tr '\\n' '|')"; }
            # A PNG of that size with a header and no pixel data: every check here comes first.
            header_png() { python3 -c '
            import struct, sys, zlib
            def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            w, h = int(sys.argv[2]), int(sys.argv[3])
            body = chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(bytes(3 * w + 1))) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + body)' "$@"; }
            # hostile FILE EXPR: EXPR evaluated with make-hostile.py's generators as h.
            hostile() { python3 -c 'import importlib.util as u, sys
            s = u.spec_from_file_location("h", sys.argv[1]); h = u.module_from_spec(s); s.loader.exec_module(h)
            open(sys.argv[2], "wb").write(eval(sys.argv[3]))' \(CLI.quote(FileSystem.join(CLI.root, "Tools/hostile/make-hostile.py"))) "$@"; }

            """
        let file = FileSystem.join(dir, "script.sh")
        CLI.write(file, Array((prologue + script).utf8))
        let out = FileSystem.join(dir, ".stdout")
        let err = FileSystem.join(dir, ".stderr")
        _ = CLI.shell("bash \(CLI.quote(file)) > \(CLI.quote(out)) 2> \(CLI.quote(err)) < /dev/null")
        var values: [String: String] = [:]
        for line in CLI.read(out).split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return (values, CLI.read(err))
    }

    // MARK: compare

    /// Two 16384x16383 images are 2 GiB decoded: refused from the headers, in one line,
    /// under the default --max-memory and under `ulimit -v 1000000` (which SIGABRTed);
    /// exit 2, compare's code for inputs it cannot read (issue 36).
    @Test(.enabled(if: !sanitized, "ASan reserves terabytes of address space; skipped under the sanitizers"))
    func compareMeetsTheBudgetBeforeDecoding() throws {
        let r = Self.run(
            """
            header_png a.png 16384 16383; header_png b.png 16384 16383
            try plain "$FZ" compare a.png b.png
            try memory "$FZ" compare a.png b.png --max-pixels 0
            try limited bash -c '(ulimit -v 1000000; exec "$0" compare a.png b.png --max-pixels 0)' "$FZ"
            """)
        let plain = try #require(r.values["plain"], "\(r.stderr)")
        #expect(plain.hasPrefix("2:1:a.png: the two decoded images would be 2 x 16384x16383"), "\(plain)")
        #expect(plain.contains("--max-pixels"), "\(plain)")
        let memory = try #require(r.values["memory"], "\(r.stderr)")
        #expect(memory.hasPrefix("2:1:a.png: the two decoded images would need 2048 MiB"), "\(memory)")
        #expect(memory.contains("--max-memory"), "\(memory)")
        let limited = try #require(r.values["limited"], "\(r.stderr)")
        #expect(limited.hasPrefix("2:1:a.png: the two decoded images would need 2048 MiB"), "\(limited)")
        #expect(limited.contains("ulimit"), "\(limited)")
    }

    /// --diff adds a third image of the same size: 300x300 pairs fit --max-memory 1 (720000
    /// bytes), with --diff (1080000) they do not, and nothing is written.
    @Test func compareCountsTheDifferenceImage() throws {
        let r = Self.run(
            """
            "$FZ" fixture coords --size 300x300 -o a.png; cp a.png b.png
            try pair "$FZ" compare a.png b.png --max-memory 1
            try diff "$FZ" compare a.png b.png --max-memory 1 --diff d.png
            echo written=$(test -e d.png && echo yes || echo no)
            try roomy "$FZ" compare a.png b.png --max-memory 2 --diff d2.png
            echo written2=$(test -s d2.png && echo yes || echo no)
            """)
        #expect(r.values["pair"]?.hasPrefix("0:0:") == true, "\(r.values) \(r.stderr)")
        let diff = try #require(r.values["diff"], "\(r.stderr)")
        #expect(diff.hasPrefix("2:1:a.png: the two decoded images and --diff's would need 2 MiB"), "\(diff)")
        #expect(r.values["written"] == "no")
        #expect(r.values["roomy"]?.hasPrefix("0:0:") == true, "\(r.values)")
        #expect(r.values["written2"] == "yes")
    }

    // MARK: crop --lossless

    /// A 16000x16000 4:4:4 JPEG holds 1.5 GB of coefficients in TurboJPEG: refused from its
    /// markers under --max-memory 100 and under `ulimit -v` (which blamed "corrupt data").
    @Test(.enabled(if: !sanitized, "ASan reserves terabytes of address space; skipped under the sanitizers"))
    func losslessCropMeetsTheMemoryBudget() throws {
        let r = Self.run(
            """
            hostile big.jpg 'h.jpeg_header_only(16000, 16000, gray=False) + h.dht(0, 0, h.DC_BITS, h.DC_VALS) + h.dht(1, 0, h.AC_BITS, h.AC_VALS) + h.sos([1, 2, 3]) + bytes(64) + b"\\xff\\xd9"'
            try budget "$FZ" crop big.jpg --at 50%,50% --size 64 --lossless -o c.jpg --max-memory 100
            try limited bash -c '(ulimit -v 1000000; exec "$0" crop big.jpg --at 50%,50% --size 64 --lossless -o c.jpg)' "$FZ"
            echo written=$(test -e c.jpg && echo yes || echo no)
            """)
        let budget = try #require(r.values["budget"], "\(r.stderr)")
        #expect(budget.hasPrefix("1:1:big.jpg: decoding would need about 146"), "\(budget)")
        #expect(budget.contains("--max-memory"), "\(budget)")
        let limited = try #require(r.values["limited"], "\(r.stderr)")
        #expect(limited.hasPrefix("1:1:big.jpg: decoding would need about 146"), "\(limited)")
        #expect(limited.contains("ulimit") && !limited.contains("lenient"), "\(limited)")
        #expect(r.values["written"] == "no")
    }

    /// 2,647 scans over 4096x4096 took 24.8 s and exit 0; the ordinary crop refuses it at
    /// the scan limit, and so does the lossless one now, in well under a second of work. The
    /// guard is on the run's CPU time (GNU time's user + system), which a busy machine does not
    /// stretch as it does the wall clock.
    @Test func losslessCropMeetsTheScanLimit() throws {
        let r = Self.run(
            """
            hostile bomb.jpg 'h.progressive_scan_bomb(4096, 4096)'
            try ordinary "$FZ" crop bomb.jpg --at 50%,50% --size 64 -o o.png
            try lossless /usr/bin/time -f '%U %S' -o cpu.txt "$FZ" crop bomb.jpg --at 50%,50% --size 64 --lossless -o c.jpg
            echo ms=$(tail -n 1 cpu.txt | awk '{ printf "%d", ($1 + $2) * 1000 }')
            """)
        let ordinary = try #require(r.values["ordinary"], "\(r.stderr)")
        #expect(ordinary.hasPrefix("1:1:bomb.jpg: progressive JPEG has more than 100 scans"), "\(ordinary)")
        let lossless = try #require(r.values["lossless"], "\(r.stderr)")
        #expect(lossless.hasPrefix("1:1:bomb.jpg: progressive JPEG has more than 100 scans"), "\(lossless)")
        #expect(
            (Int(r.values["ms"] ?? "") ?? .max) < (CLI.sanitized ? 15000 : 5000),
            "CPU-time guard (ms of CPU): \(r.values)")
    }

    /// Samplings outside TurboJPEG's grids (4x2, 1x4, mixed chroma) are cut by jpegtran
    /// -crop; TurboJPEG cannot, and the message says so instead of "corrupt ... --lenient".
    @Test func losslessCropNamesAnUnusualSampling() throws {
        let r = Self.run(
            """
            python3 -c 'import sys; sys.stdout.buffer.write(b"P6 128 128 255\\n" + bytes((x * 7 + y * 3 + c * 50) % 256 for y in range(128) for x in range(128) for c in range(3)))' > s.ppm
            for s in 4x2,1x1,1x1 1x4,1x1,1x1 2x2,2x1,1x1; do
                name=$(echo $s | tr -d ,x); cjpeg -sample $s s.ppm > $name.jpg
                jpegtran -crop 32x32+16+16 $name.jpg > /dev/null 2>&1; echo "jt$name=$?"
                try "fz$name" "$FZ" crop $name.jpg --at 40,40 --size 20 --lossless -o c$name.jpg
            done
            """)
        for name in ["421111", "141111", "222111"] {
            #expect(r.values["jt\(name)"] == "0", "jpegtran -crop on \(name): \(r.values)")
            let fz = try #require(r.values["fz\(name)"], "\(r.stderr)")
            #expect(fz.hasPrefix("1:1:\(name).jpg: unsupported sampling factors ("), "\(fz)")
            #expect(fz.contains("jpegtran -crop") && !fz.contains("corrupt") && !fz.contains("lenient"), "\(fz)")
        }
    }
}
