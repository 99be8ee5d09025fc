import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Nothing lost: outputs appear whole or not at all (interrupted, disk full, read-only
/// folder), and an input is never overwritten or truncated, whatever path names it.
@Suite("Output safety", .serialized)
struct OutputSafetyTests {
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    /// Whether this process may mount a tmpfs in a private mount namespace (root with
    /// CAP_SYS_ADMIN, as in CI). The mounts vanish with the namespace: nothing to clean.
    static let canMount: Bool =
        CLI.shell(
            "unshare -m sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\" && rmdir \"$d\"' 2>/dev/null"
        ) == 0

    /// Whether this process may make a character device node (root, as in CI).
    static let canMknod: Bool = {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        return CLI.shell("mknod \(CLI.quote(FileSystem.join(dir, "full"))) c 1 7 2>/dev/null") == 0
    }()

    /// Runs a shell script in a private mount namespace; returns its stdout.
    static func inMountNamespace(_ script: String) -> (status: Int32, output: String) {
        let dir = CLI.scratch()
        let file = FileSystem.join(dir, "script.sh")
        let out = FileSystem.join(dir, "out")
        CLI.write(file, Array(("set -u\n" + script).utf8))
        let status = CLI.shell("unshare -m sh \(CLI.quote(file)) > \(CLI.quote(out)) 2>&1")
        let output = CLI.read(out)
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
        return (status, output)
    }

    /// Whether a PNG file ends with its IEND chunk (a complete file, not a cut one).
    static func endsWithIEND(_ path: String) -> Bool {
        Array(CLI.bytes(path).suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
    }

    // MARK: Interrupted

    /// A run killed while it writes leaves no temporary or partial file: the outputs
    /// finished before the signal are whole, the rest do not exist.
    @Test(arguments: [SIGINT, SIGTERM])
    func killedMidWayLeavesNoPartialFile(_ sig: Int32) throws {
        let work = CLI.scratch()
        let input = FileSystem.join(work, "noise.png")
        #expect(CLI.run(["fixture", "noise", "--size", "1000x1000", "-o", input]).status == 0)
        let before = CLI.bytes(input)
        let outDir = FileSystem.join(work, "out")
        #expect(CLI.shell("mkdir \(CLI.quote(outDir))") == 0)
        // 40 whole-image crops at the slowest compression: a few seconds of writing.
        var args = ["crop", input, "--size", "1000", "--compression", "9", "-o", FileSystem.join(outDir, "p-%d.png")]
        for i in 0..<40 { args += ["--at", "\(i * 20),\(i * 20)"] }
        let started = CLI.now()
        let pid = try #require(
            CLI.spawn(args, stdout: FileSystem.join(work, "stdout"), stderr: FileSystem.join(work, "stderr")))
        // Kill as soon as a temporary output exists, i.e. in the middle of a write.
        var sawTemp = false
        while CLI.now() - started < 30 {
            if ((try? FileSystem.list(outDir)) ?? []).contains(where: { $0.contains(".fz-") }) {
                sawTemp = true
                kill(pid, sig)
                break
            }
            if waitpid(pid, nil, WNOHANG) == pid { break }  // finished before a temp was seen
            usleep(500)
        }
        let (status, _, _, _) = CLI.wait(pid, started: started, timeout: 30)
        try #require(sawTemp, "the run ended before any temporary output appeared")
        #expect(status & 0x7F == sig, "want death by signal \(sig), got status \(status)")
        let left = try FileSystem.list(outDir)
        #expect(!left.contains { $0.contains(".fz-") }, "temporary file left: \(left)")
        #expect(left.count < 40, "all 40 outputs written: the signal came too late to test anything")
        for name in left {
            #expect(
                name.hasPrefix("p-") && Self.endsWithIEND(FileSystem.join(outDir, name)),
                "\(name) is not a complete PNG")
        }
        #expect(CLI.bytes(input) == before)
        _ = CLI.shell("rm -rf \(CLI.quote(work))")
    }

    // MARK: Full disk, read-only folder

    @Test(.enabled(if: canMount, "needs mount in a private namespace (root with CAP_SYS_ADMIN); skipped"))
    func fullDiskIsAClearErrorAndLeavesNothing() {
        let bin = CLI.quote(CLI.binary)
        let photo = CLI.quote(Self.photo)
        let (_, out) = Self.inMountNamespace(
            """
            d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" || exit 99
            \(bin) crop \(photo) --at 50%,50% --size 400 -o "$d/peek crop.png" 2> "$d.err"
            echo "rc=$?"
            echo "dir=$d"
            echo "left=$(ls -A "$d" | tr '\\n' ' ')"
            cat "$d.err"
            """)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "rc=1", "\(out)")
        let dir = lines.first { $0.hasPrefix("dir=") }.map { String($0.dropFirst(4)) } ?? "?"
        #expect(lines.contains("left="), "the tmpfs is not empty after the failure: \(out)")
        #expect(
            lines.contains(
                "forcezoom: error: \(dir)/peek crop.png: write failed: no space left on device; no partial file was left"
            ),
            "\(out)")
    }

    @Test(.enabled(if: canMount, "needs mount in a private namespace (root with CAP_SYS_ADMIN); skipped"))
    func readOnlyFolderIsAClearError() {
        let bin = CLI.quote(CLI.binary)
        let photo = CLI.quote(Self.photo)
        let (_, out) = Self.inMountNamespace(
            """
            d=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && cp \(photo) "$d/in.jpg" && mount -o remount,ro "$d" || exit 99
            \(bin) crop "$d/in.jpg" --at 50%,50% --size 64 -o "$d/out.png" 2> "$d.err"
            echo "rc=$?"
            echo "dir=$d"
            echo "left=$(ls -A "$d" | tr '\\n' ' ')"
            cat "$d.err"
            """)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "rc=1", "\(out)")
        let dir = lines.first { $0.hasPrefix("dir=") }.map { String($0.dropFirst(4)) } ?? "?"
        #expect(lines.contains("left=in.jpg "), "\(out)")
        #expect(
            lines.contains {
                $0.hasPrefix("forcezoom: error: \(dir)/out.png: cannot create output: read-only file system")
            },
            "\(out)")
    }

    /// A character device at the output path (here one like /dev/full) is refused, never
    /// written into and never renamed over (which would replace the device node).
    @Test(.enabled(if: canMknod, "needs mknod (root); skipped"))
    func aDeviceAtTheOutputIsRefusedAndStaysADevice() throws {
        let work = CLI.scratch()
        let device = FileSystem.join(work, "full")
        try #require(CLI.shell("mknod \(CLI.quote(device)) c 1 7 2>/dev/null") == 0, "mknod failed")
        let r = CLI.run(["crop", Self.photo, "--at", "50%,50%", "--size", "200", "-o", device])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "forcezoom: error: \(device): a character device is at the output path; forcezoom writes only regular files (remove it, choose another name, or -o - for standard output)\n"
        )
        #expect(CLI.shell("test -c \(CLI.quote(device))") == 0, "the device node was replaced")
        #expect(try FileSystem.list(work) == ["full"], "temporary file left")
        _ = CLI.shell("rm -rf \(CLI.quote(work))")
    }

    /// A named pipe at the output path is refused at once (a reader may never come), and
    /// stays a pipe; standard output is `-o -`.
    @Test func aFIFOAtTheOutputIsRefused() throws {
        let work = CLI.scratch()
        let fifo = FileSystem.join(work, "pipe.png")
        #expect(CLI.shell("mkfifo \(CLI.quote(fifo))") == 0)
        let r = CLI.run(["crop", Self.photo, "--at", "50%,50%", "--size", "32", "-o", fifo])
        #expect(r.status == 1)
        #expect(r.stderr.contains("a FIFO (named pipe) is at the output path"))
        #expect(CLI.shell("test -p \(CLI.quote(fifo))") == 0, "the FIFO was replaced")
        #expect(try FileSystem.list(work) == ["pipe.png"], "temporary file left")
        _ = CLI.shell("rm -rf \(CLI.quote(work))")
    }

    // MARK: Inputs are never overwritten

    /// Every way of naming the input as the output is refused, and the input's bytes,
    /// inode and time stay as they were.
    @Test func theInputIsNeverOverwritten() throws {
        let work = CLI.scratch()
        let input = FileSystem.join(work, "in.png")
        #expect(CLI.run(["fixture", "coords", "--size", "64x48", "-o", input]).status == 0)
        #expect(
            CLI.shell(
                "cd \(CLI.quote(work)) && ln in.png hard.png && ln -s in.png soft.png && ln -s \(CLI.quote(work)) dirlink"
            ) == 0)
        let before = CLI.bytes(input)
        let stamp = FileSystem.modificationTime(of: input)
        let identity = FileSystem.identity(of: input)
        let attempts: [(String, [String], String?)] = [
            ("same path", ["crop", "in.png", "--at", "1,1", "-o", "in.png"], nil),
            ("./ path", ["crop", "in.png", "--at", "1,1", "-o", "./in.png"], nil),
            ("absolute path", ["crop", "in.png", "--at", "1,1", "-o", input], nil),
            ("through a folder link", ["crop", "in.png", "--at", "1,1", "-o", "dirlink/in.png"], nil),
            ("hard link", ["crop", "in.png", "--at", "1,1", "-o", "hard.png"], nil),
            ("symbolic link", ["crop", "in.png", "--at", "1,1", "-o", "soft.png"], nil),
            ("input through a link", ["crop", "soft.png", "--at", "1,1", "-o", "in.png"], nil),
            ("a %d pattern reaching the input", ["crop", "2.png", "--at", "1,1", "--at", "2,2", "-o", "%d.png"], nil),
            ("stdin redirected from it", ["crop", "-", "--at", "1,1", "-o", "in.png"], "in.png"),
        ]
        for (label, args, extra) in attempts {
            if label.hasPrefix("a %d pattern") { #expect(CLI.shell("cd \(CLI.quote(work)) && cp in.png 2.png") == 0) }
            let stdin = extra.map { FileSystem.join(work, $0) }
            let r = CLI.run(args, in: work, stdin: stdin)
            #expect(r.status == 1, "\(label): \(r.stderr)")
            #expect(r.stderr.contains("never overwrites an input"), "\(label): \(r.stderr)")
            #expect(CLI.bytes(input) == before, "\(label): input changed")
            #expect(
                FileSystem.modificationTime(of: input) == stamp && FileSystem.identity(of: input)! == identity!,
                "\(label): input touched or replaced")
            let left = try FileSystem.list(work)
            #expect(!left.contains { $0.contains(".fz-") }, "\(label): temporary file left")
        }
        #expect(
            CLI.bytes(FileSystem.join(work, "2.png")) == before, "%d pattern: the second output overwrote its input")
        _ = CLI.shell("rm -rf \(CLI.quote(work))")
    }

    /// A series of outputs whose second name is the file standard input comes from: the
    /// run stops before the first output is written (issue 34: `p-1.png` used to be written
    /// and only then `p-2.png` refused), for crop's points and animate's frames alike.
    @Test func aSeriesReachingStandardInputStopsBeforeTheFirstOutput() throws {
        let work = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(work))") }
        #expect(CLI.run(["fixture", "coords", "--size", "64x48", "-o", "p-2.png"], in: work).status == 0)
        let source = FileSystem.join(work, "p-2.png")
        let before = CLI.bytes(source)
        for args in [
            ["crop", "-", "--at", "10,10", "--at", "20,20", "-o", "p-%d.png"],
            [
                "animate", "-", "--screen", "40x40", "--from", "0,0,10,10", "--to", "fullscreen", "--frames", "3",
                "-o", "p-%d.png",
            ],
        ] {
            let r = CLI.run(args, in: work, stdin: source)
            #expect(r.status == 1, "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("p-2.png: output is the input file"), "\(args[0]): \(r.stderr)")
            let left = try FileSystem.list(work)
            #expect(left.sorted() == ["p-2.png"], "\(args[0]) left \(left)")
            #expect(CLI.bytes(source) == before, "\(args[0]): standard input's file changed")
        }
    }
}
