import Foundation
import TestSupport
import Testing

@testable import FZSystem

/// The terminal as an attacker (issue 40, reproducers 4-6): windows and replies no terminal
/// would send, and job control. Each run is on a pseudo-terminal (Tools/term/pty_run.py);
/// forcezoom runs under /usr/bin/time in a shell that prints its exit status and then
/// `stty -a`, so a test sees the status, standard error, the peak memory and the modes the
/// terminal was left in.
struct TerminalHostileTests {
    struct Run {
        var report: [String: JSONValue]
        var output: String
        /// forcezoom's exit status as the shell saw it (128 + N for a signal).
        var status: Int?
        var stderr: [Substring]
        var maxRSSMiB: Int
        /// `stty -a` after forcezoom ended.
        var modes: Set<String>
    }

    /// Runs forcezoom `arguments` on a pty with pty_run's `options` and `keys`.
    /// With `jobs`, the shell is bash with job control (`set -m`), as at a prompt: forcezoom
    /// runs in its own process group (a stop is not discarded as in an orphaned group), and
    /// when it stops the shell prints "fz-stopped:" and `stty -a`, then brings it back (`fg`).
    static func run(
        _ arguments: [String], options: [String] = [], keys: [String] = [], timed: Bool = true, jobs: Bool = false
    ) -> Run {
        let dir = CLI.scratch()
        let capture = FileSystem.join(dir, "capture")
        let err = FileSystem.join(dir, "err")
        let time = FileSystem.join(dir, "time")
        var command = [
            "python3", TerminalCLITests.tools + "/pty_run.py", "--capture", capture, "--wait-for", "\\x1b[?25l",
        ]
        command += options
        for k in keys { command += ["--keys", k] }
        let prefix = timed ? ["/usr/bin/time", "-f", "%M", "-o", time] : []
        let fz = (prefix + [CLI.binary] + arguments).map(CLI.quote).joined(separator: " ")
        let shell =
            jobs
            ? "set -m; \(fz) 2>\(CLI.quote(err)); echo \"fz-stopped:$?\"; stty -a; fg >/dev/null; echo \"fz-status:$?\"; stty -a"
            : "\(fz) 2>\(CLI.quote(err)); echo \"fz-status:$?\"; stty -a"
        command += [
            "--", "env", "-i", "PATH=/usr/bin:/bin", "TERM=xterm-256color", "COLORTERM=truecolor",
            "SWIFT_BACKTRACE=enable=no", jobs ? "bash" : "sh", "-c", shell,
        ]
        let out = CLI.shellOutput(command.map(CLI.quote).joined(separator: " "))
        let report = JSONValue.object(out.split(separator: "\n").last ?? "") ?? [:]
        let text = String(decoding: CLI.bytes(capture), as: UTF8.self)
        let status = text.components(separatedBy: "fz-status:").dropFirst().first.flatMap {
            Int($0.prefix { $0.isNumber })
        }
        let after = text.components(separatedBy: "fz-status:").last ?? ""
        let rss = CLI.read(time).split(separator: "\n").last.flatMap { Int($0) }.map { $0 / 1024 } ?? Int.max
        return Run(
            report: report, output: text, status: status, stderr: CLI.read(err).split(separator: "\n"),
            maxRSSMiB: timed ? rss : 0, modes: TerminalCLITests.words(after))
    }

    static let cooked: Set<String> = ["echo", "icanon", "isig", "icrnl"]

    /// A 65535x65535-cell window: peek refuses its screen in one line (it would need 25.7 GB
    /// with blocks, 116 GB with sixel), within bounded memory, the terminal as it was.
    @Test(arguments: ["blocks", "sixel"]) func peekRefusesAHugeWindow(_ graphics: String) {
        let (_, image) = TerminalCLITests.fixture()
        let r = Self.run(["peek", image, "--graphics", graphics], options: ["--cols", "65535", "--rows", "65535"])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.stderr.count == 1 && r.stderr.first?.contains("65535x65535-cell window") == true, "\(r.stderr)")
        #expect(r.maxRSSMiB < CLI.rssBoundKiB(300) >> 10)
        #expect(r.modes.isSuperset(of: Self.cooked))
        #expect(!r.output.contains("\u{1B}[?1049h"), "no screen was entered")
    }

    /// A SIGWINCH to 65535x65535 during a session keeps the last layout (said on the status
    /// line): the next save has the old side, q leaves normally.
    @Test func peekKeepsItsLayoutWhenResizedHuge() {
        let (dir, image) = TerminalCLITests.fixture()
        let r = Self.run(
            ["peek", image, "--graphics", "blocks", "-o", FileSystem.join(dir, "p-%d.png")],
            options: ["--resize-to", "65535x65535"],
            keys: ["s", "@await:1:shown at 38", "@resize", "s", "@await:2:shown at 38", "q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(r.maxRSSMiB < CLI.rssBoundKiB(300) >> 10)
        #expect(r.output.contains("window of 65535x65535 cells too large, layout kept"))
        // 80x24 blocks: a pane of 38 (as TerminalCLITests.peekFollowsAResize), before and after;
        // the saved peeks have crop's side.
        #expect(TerminalCLITests.panes(Array(r.output.utf8)) == [38], "\(r.output.suffix(300))")
        #expect(Self.records(r).map { $0["side"] } == [.number(390), .number(390)])
        #expect(r.modes.isSuperset(of: Self.cooked))
    }

    /// The JSON lines peek printed after leaving its screen.
    static func records(_ r: Run) -> [[String: JSONValue]] {
        let after = r.output.components(separatedBy: "\u{1B}[?1049l").last ?? ""
        return after.split(whereSeparator: \.isNewline).compactMap { JSONValue.object($0) }
    }

    /// An 80x24 window reporting 65535x65535 pixels has no 819x2730-pixel cell: sixel peek
    /// lays out with 8x16 cells and ends normally (it ran out of memory before).
    @Test func peekIgnoresALyingPixelReport() {
        let (dir, image) = TerminalCLITests.fixture()
        let r = Self.run(
            ["peek", image, "--graphics", "sixel", "-o", FileSystem.join(dir, "p-%d.png")],
            options: ["--xpixel", "65535", "--ypixel", "65535"], keys: ["s", "@await:1:shown at 304", "q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(r.maxRSSMiB < CLI.rssBoundKiB(300) >> 10)
        // 640x368 canvas pixels: the pane's side is 304 (see PeekScreen: whole cells both ways).
        #expect(TerminalCLITests.panes(Array(r.output.utf8)) == [304], "\(r.output.suffix(300))")
        let record = Self.records(r).first
        #expect(record?["side"] == .number(390), "\(String(describing: record))")
        #expect(r.modes.isSuperset(of: Self.cooked))
    }

    /// Cell-size replies no terminal sends: view, crop --show and peek fall back to blocks
    /// with one warning (they trapped in Window.limit, or sixel peek aborted).
    @Test(arguments: [
        ("\\x1b[6;9223372036854775807;9223372036854775807t", "view"), ("\\x1b[6;4000;4000t", "view"),
        ("\\x1b[6;9223372036854775807;9223372036854775807t", "crop"), ("\\x1b[6;4000;4000t", "crop"),
        ("\\x1b[6;9223372036854775807;9223372036854775807t", "peek"), ("\\x1b[6;4000;4000t", "peek"),
    ])
    func implausibleCellRepliesFallBackToBlocks(_ reply: String, _ command: String) {
        let (dir, image) = TerminalCLITests.fixture("64x40")
        let arguments: [String] =
            switch command {
            case "view": ["view", image]
            case "crop": ["crop", image, "--at", "50%,50%", "--size", "16", "--show"]
            default: ["peek", image, "-o", FileSystem.join(dir, "p-%d.png")]
            }
        let r = Self.run(
            arguments, options: ["--answer", "sixel", "--cell-reply", reply], keys: command == "peek" ? ["q"] : [])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.count == 1, "\(r.stderr)")
        #expect(r.stderr.first?.contains("cell-size reply") == true && r.stderr.first?.contains("blocks") == true)
        #expect(r.output.contains("\u{2580}"), "blocks drawn")
        #expect(!r.output.contains("\u{1B}P0;1;0q"), "no sixel")
        #expect(r.maxRSSMiB < CLI.rssBoundKiB(300) >> 10)
        #expect(r.modes.isSuperset(of: Self.cooked))
    }

    /// Job control: SIGTSTP (from the shell, or Ctrl-Z read as a key in raw mode) gives the
    /// terminal back (cooked, the alternate screen left) and stops; the shell's `fg`
    /// continues it: raw again, the screen entered and redrawn, so s and q work without Enter.
    @Test(arguments: ["@signal:20", "\\x1a"]) func peekStopsAndContinues(_ stop: String) {
        let (dir, image) = TerminalCLITests.fixture()
        let r = Self.run(
            ["peek", image, "--graphics", "blocks", "-o", FileSystem.join(dir, "p-%d.png")],
            keys: ["l", "@modes", stop, "@await:2:\\x1b[?1049h", "@modes", "s", "q"], timed: false, jobs: true)
        #expect(r.status == 0, "\(r.report) \(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        // Stopped (128 + SIGTSTP), and the modes the shell found then: cooked.
        let stopped = r.output.components(separatedBy: "fz-stopped:").dropFirst().first ?? ""
        #expect(stopped.hasPrefix("148"), "\(r.output.suffix(2000))")
        let whileStopped = stopped.components(separatedBy: "\u{1B}[?1049h").first ?? ""
        #expect(Self.cooked.isSubset(of: TerminalCLITests.words(whileStopped)), "\(whileStopped)")
        // Raw before the stop and after the continue (keys were read one by one, q ended it).
        let raw: JSONValue = .object(["echo": .bool(false), "icanon": .bool(false)])
        #expect(r.report["modes"] == .array([raw, raw]), "\(r.report)")
        // Entered twice, left twice; a full redraw after the continue.
        #expect(r.output.components(separatedBy: "\u{1B}[?1049h").count == 3)
        #expect(r.output.components(separatedBy: "\u{1B}[?1049l").count == 3)
        let second = r.output.components(separatedBy: "\u{1B}[?1049h").last ?? ""
        #expect(second.contains("\u{2580}") && second.contains("arrows/hjkl move"), "redrawn")
        let records = Self.records(r)
        #expect(records.count == 1 && records.first?["zoom"] == .number(1))
        #expect(r.modes.isSuperset(of: Self.cooked))
    }
}
