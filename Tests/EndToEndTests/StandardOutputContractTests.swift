import TestSupport
import Testing

@testable import FZSystem

/// Standard output as the user means it (issue 40, smaller contract fixes): a write that
/// failed is reported with the errno it failed with, and a name of standard output itself
/// (`-o /dev/stdout`) is standard output even when it is redirected to a regular file.
/// Each case runs through a shell, as a user would type it.
@Suite("Standard output contract", .serialized)
struct StandardOutputContractTests {
    /// What one shell run left: its exit code (>128: a signal), stderr, and the bytes of
    /// the files the script names.
    struct Run {
        let code: Int32
        let stderr: String
        let dir: String
        func bytes(_ name: String) -> [UInt8] { CLI.bytes(FileSystem.join(dir, name)) }
        var lines: Int { stderr.split(separator: "\n").count }
    }

    /// Runs `script` (with `$FZ` the binary) in a fresh folder holding `in.png` (and a copy,
    /// `orig.png`, to compare it with afterwards); the script's
    /// own stderr is forcezoom's. The folder is left for the caller to look into.
    static func run(_ script: String) -> Run {
        let dir = CLI.scratch()
        let png = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")
        let setup = "cd \(CLI.quote(dir)) && FZ=\(CLI.quote(CLI.binary)) && "
        _ = CLI.shell(setup + "\"$FZ\" crop \(CLI.quote(png)) --at 5,5 --size 64 -o in.png && cp in.png orig.png")
        let code = CLI.shell(setup + "{ \(script) ; } 2> err < /dev/null")
        return Run(code: code, stderr: CLI.read(FileSystem.join(dir, "err")), dir: dir)
    }

    static func clean(_ run: Run) { _ = CLI.shell("rm -rf \(CLI.quote(run.dir))") }

    static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    // MARK: The errno of a failed write

    /// `-o - >/dev/full`: the write failed with ENOSPC and says so (it said "Input/output
    /// error": stdio's error flag outlived the errno). Small and large outputs, PNG and
    /// JPEG, and JSON lines that overflow the buffer, all name ENOSPC.
    @Test(arguments: [
        "\"$FZ\" crop in.png --at 1,1 -o - >/dev/full",
        "\"$FZ\" crop in.png --at 1,1 --size 64 --format jpeg -o - >/dev/full",
        "\"$FZ\" fixture noise --size 700x700 -o - >/dev/full",
        "\"$FZ\" info --json in.png in.png in.png in.png in.png in.png in.png in.png in.png in.png"
            + " in.png in.png in.png in.png in.png in.png in.png in.png in.png in.png >/dev/full",
    ])
    func fullDiskIsReportedAsSuch(_ line: String) {
        let r = Self.run(line)
        defer { Self.clean(r) }
        #expect(r.code == 1, "exit \(r.code): \(r.stderr)")
        #expect(r.lines == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("forcezoom: error: standard output: No space left on device;"), "\(r.stderr)")
        #expect(!r.stderr.contains("Input/output") && !r.stderr.contains("Bad file descriptor"), "\(r.stderr)")
        #expect(r.bytes("in.png") == r.bytes("orig.png") && r.bytes("in.png").count > 100, "the input is unchanged")
    }

    /// A stdout closed at start (`1>&-`) is reopened on /dev/full (so no output file takes
    /// descriptor 1); the write then fails with ENOSPC, and the line says both: the errno
    /// the write got and that standard output was closed (it said "Bad file descriptor",
    /// an errno no write returned).
    @Test func closedStdoutSaysWhatHappened() {
        let r = Self.run("\"$FZ\" crop in.png --at 1,1 -o - 1>&-")
        defer { Self.clean(r) }
        #expect(r.code == 1, "exit \(r.code): \(r.stderr)")
        #expect(r.lines == 1, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix(
                "forcezoom: error: standard output: No space left on device (standard output was closed"),
            "\(r.stderr)")
        #expect(!r.stderr.contains("Bad file descriptor"))
    }

    // MARK: -o /dev/stdout

    /// `-o /dev/stdout >fresh.png`: the user means standard output, which is a file
    /// forcezoom does not read: it is written there, a whole PNG (it was refused "which
    /// forcezoom reads"). The other names of descriptor 1 too, and appending (`>>`).
    @Test(arguments: ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"])
    func stdoutNamesARedirectedFile(_ name: String) {
        for redirect in [">", ">>"] {
            let r = Self.run("\"$FZ\" crop in.png --at 1,1 -o \(name) \(redirect) fresh.png; echo $? > rc")
            defer { Self.clean(r) }
            #expect(String(decoding: r.bytes("rc"), as: UTF8.self) == "0\n", "\(name) \(redirect): \(r.stderr)")
            #expect(r.stderr.isEmpty, "\(r.stderr)")
            let out = r.bytes("fresh.png")
            #expect(Array(out.prefix(8)) == Self.pngMagic, "\(name) \(redirect): \(out.count) bytes")
            #expect(Array(out.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82], "a whole PNG")
            #expect(CLI.shell("ls -A \(CLI.quote(r.dir)) | grep -q '^\\..*fz-'") != 0, "no temp file left")
        }
    }

    /// `-o /dev/stdout --json` is the usage error `-o - --json` is (the JSON line would land
    /// inside the image, now that a redirected file is written): exit 2, one line, nothing
    /// written.
    @Test func stdoutNameWithJSONIsAUsageError() {
        let r = Self.run("\"$FZ\" crop in.png --at 1,1 -o /dev/stdout --json > fresh.png")
        defer { Self.clean(r) }
        #expect(r.code == 2, "exit \(r.code): \(r.stderr)")
        #expect(r.lines == 1 && r.stderr.contains("-o /dev/stdout writes the image to stdout; --json cannot share it"))
        #expect(r.bytes("fresh.png").isEmpty, "nothing written")
    }

    /// When standard output is redirected to the input itself, `-o /dev/stdout` is still
    /// refused in one line, exit 1, the input unchanged (`>>` and `1<>`; `>` would have
    /// emptied it before forcezoom ran).
    @Test(arguments: [">>", "1<>"])
    func stdoutIntoTheInputIsRefused(_ redirect: String) {
        let r = Self.run("\"$FZ\" crop in.png --at 1,1 -o /dev/stdout \(redirect) in.png")
        defer { Self.clean(r) }
        #expect(r.code == 1, "exit \(r.code): \(r.stderr)")
        #expect(r.lines == 1, "\(r.stderr)")
        #expect(r.stderr.contains("in.png: standard output is redirected into this file, which forcezoom reads"))
        #expect(r.bytes("in.png") == r.bytes("orig.png") && r.bytes("in.png").count > 100, "the input is unchanged")
    }
}
