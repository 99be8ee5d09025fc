import Foundation
import TestSupport
import Testing

@testable import FZSystem

/// `--show`, `view` and `peek` run as built: bytes on stdout decoded independently (Pillow,
/// sixel2png), detection and `peek` on a pseudo-terminal (Tools/term/pty_run.py).
struct TerminalCLITests {
    static let tools = FileSystem.join(CLI.root, "Tools/term")
    static var sixel2png: Bool { CLI.shell("command -v sixel2png >/dev/null") == 0 }

    /// A coordinate fixture (every pixel different) in a fresh folder.
    static func fixture(_ size: String = "320x200") -> (dir: String, image: String) {
        let dir = CLI.scratch()
        let image = FileSystem.join(dir, "in.png")
        #expect(CLI.run(["fixture", "coords", "--size", size, "-o", image]).status == 0)
        return (dir, image)
    }

    static func pixelsEqual(_ a: String, _ b: String) -> Bool {
        let r = CLI.shellOutput(
            "/usr/bin/python3 \(CLI.quote(tools + "/check_pixels.py")) png \(CLI.quote(a)) \(CLI.quote(b))")
        return JSONValue.object(r)?["equal"] == .bool(true)
    }

    /// Runs on a pty; returns pty_run's report and the captured output.
    static func onPTY(
        _ arguments: [String], answer: String = "none", keys: [String] = [], signal: Int? = nil, shell: String? = nil,
        stdout: String? = nil, resize: String? = nil
    )
        -> (report: [String: JSONValue], output: [UInt8])
    {
        let dir = CLI.scratch()
        let capture = FileSystem.join(dir, "capture")
        var command = [
            "python3", tools + "/pty_run.py", "--capture", capture, "--answer", answer, "--wait-for", "\\x1b[?25l",
        ]
        for k in keys { command += ["--keys", k] }
        if let signal { command += ["--signal", "\(signal)"] }
        if let resize { command += ["--resize-to", resize] }
        // A clean environment: the terminal the tests run in must not decide. Swift's
        // backtracer is off: on a terminal it waits for a key after a crash (our fault
        // handler has restored the terminal before it runs), which would hang the test.
        let fz =
            ([CLI.binary] + arguments).map(CLI.quote).joined(separator: " ")
            + (stdout.map { " > " + CLI.quote($0) } ?? "")
        command += [
            "--", "env", "-i", "PATH=/usr/bin:/bin", "TERM=xterm-256color", "COLORTERM=truecolor",
            "SWIFT_BACKTRACE=enable=no", "sh", "-c", shell.map { fz + "; " + $0 } ?? fz,
        ]
        let out = CLI.shellOutput(command.map(CLI.quote).joined(separator: " "))
        return (JSONValue.object(out.split(separator: "\n").last ?? "") ?? [:], CLI.bytes(capture))
    }

    @Test func showNeedsATerminalForAuto() {
        let (dir, image) = Self.fixture()
        let r = CLI.run(["crop", image, "--at", "50%,50%", "--size", "16", "--show"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--graphics auto needs standard output to be a terminal"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        let bad = CLI.shellOutput(
            "cd \(CLI.quote(dir)) && FORCEZOOM_GRAPHICS=vt100 \(CLI.quote(CLI.binary)) crop in.png --at 1,1 --show 2>&1 >/dev/null; echo $?"
        )
        #expect(bad.hasSuffix("2\n") && bad.contains("FORCEZOOM_GRAPHICS"))
        #expect(
            CLI.run(["crop", image, "--at", "1,1", "--show", "--graphics", "blocks", "-o", "-"], in: dir).status == 2)
    }

    @Test func showWithoutOutputWritesNothing() throws {
        let (dir, image) = Self.fixture()
        let r = CLI.run(["crop", image, "--at", "50%,50%", "--size", "16", "--show", "--graphics", "blocks"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout.contains("\u{2580}"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["in.png"])
    }

    /// kitty and iTerm2 carry a PNG: decoded, it has exactly the written crop's pixels.
    @Test(arguments: ["kitty", "iterm"]) func showCarriesTheWrittenPixels(_ graphics: String) throws {
        let (dir, image) = Self.fixture()
        let out = FileSystem.join(dir, "peek.png")
        let r = CLI.run(
            [
                "crop", image, "--at", "100,60", "--size", "96", "--zoom", "2", "--show", "--graphics", graphics, "-o",
                out,
            ], in: dir)
        #expect(r.status == 0)
        var base64 = ""
        if graphics == "kitty" {
            for part in r.stdout.components(separatedBy: "\u{1B}\\") where part.hasPrefix("\u{1B}_G") {
                base64 += part.split(separator: ";", maxSplits: 1).last.map(String.init) ?? ""
            }
        } else {
            let start = try #require(r.stdout.firstIndex(of: ":"))
            base64 = String(r.stdout[r.stdout.index(after: start)...].prefix { $0 != "\u{07}" })
        }
        let png = try #require(Data(base64Encoded: base64))
        let shown = FileSystem.join(dir, "shown.png")
        try png.write(to: URL(fileURLWithPath: shown))
        #expect(Self.pixelsEqual(shown, out))
    }

    /// Every writing command takes --show; without -o it writes nothing (thumb writes its
    /// folder, which is its output, and shows the strip).
    @Test(arguments: [
        "fit in.png --screen 40x30", "frame in.png --view 60x40 --at 50%,50%", "transform in.png --rotate 90",
        "animate in.png --screen 40x60 --from 0,0,20,20 --frames 3", "thumb in.png --size 16 --out thumbs -q",
    ])
    func everyCommandShows(_ command: String) throws {
        let (dir, _) = Self.fixture("64x48")
        let r = CLI.run(command.split(separator: " ").map(String.init) + ["--show", "--graphics", "blocks"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\u{2580}"))
        let expected = command.hasPrefix("thumb") ? ["in.png", "thumbs"] : ["in.png"]
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == expected)
    }

    /// Blocks at 1:1 (a fit smaller than the window): each cell's two SGR colours are the
    /// written PNG's two pixels, as Pillow reads them.
    @Test func blocksAreTheWrittenPixels() throws {
        let (dir, _) = Self.fixture("64x48")
        let stdout = CLI.shellOutput(
            "cd \(CLI.quote(dir)) && COLORTERM=truecolor \(CLI.quote(CLI.binary)) fit in.png --screen 30x21 -o fit.png --show --graphics blocks"
        )
        let reference = CLI.shellOutput(
            "/usr/bin/python3 \(CLI.quote(Self.tools + "/check_pixels.py")) blocks-ref \(CLI.quote(FileSystem.join(dir, "fit.png")))"
        )
        guard case .array(let rows)? = try? JSONDecoder().decode(JSONValue.self, from: Data(reference.utf8)) else {
            Issue.record("no reference: \(reference)")
            return
        }
        let pixels: [[[Int]]] = rows.map { row in
            guard case .array(let cells) = row else { return [] }
            return cells.map { cell in
                guard case .array(let v) = cell else { return [] }
                return v.compactMap { if case .number(let n) = $0 { Int(n) } else { nil } }
            }
        }
        let cells = Self.parseBlocks(stdout)
        #expect(cells.count == (pixels.count + 1) / 2 && pixels.count == 21)
        for (r, row) in cells.enumerated() {
            #expect(row.count == pixels[0].count)
            for (x, cell) in row.enumerated() where x < pixels[0].count {
                #expect(cell.top == pixels[2 * r][x])
                #expect(cell.bottom == (2 * r + 1 < pixels.count ? pixels[2 * r + 1][x] : nil))
            }
        }
    }

    /// Cells of `▀` with their 24-bit foreground (top pixel) and background (bottom, nil for
    /// the terminal's default), as a terminal would track the SGR state.
    static func parseBlocks(_ text: String) -> [[(top: [Int], bottom: [Int]?)]] {
        var rows: [[(top: [Int], bottom: [Int]?)]] = []
        var row: [(top: [Int], bottom: [Int]?)] = []
        var fg: [Int] = []
        var bg: [Int]? = nil
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
                var j = i + 2
                var body = ""
                while j < scalars.count, scalars[j] != "m" {
                    body.unicodeScalars.append(scalars[j])
                    j += 1
                }
                let n = body.split(separator: ";").compactMap { Int($0) }
                if n == [49] { bg = nil }
                if n.count == 5, n[1] == 2 {
                    if n[0] == 38 { fg = Array(n[2...]) } else if n[0] == 48 { bg = Array(n[2...]) }
                }
                i = j + 1
                continue
            }
            if s == "\u{2580}" { row.append((fg, bg)) }
            if s == "\n" {
                rows.append(row)
                row = []
            }
            i += 1
        }
        return rows
    }

    @Test(.enabled(if: sixel2png)) func sixelViewDecodes() {
        let (dir, image) = Self.fixture("64x40")
        let stream = FileSystem.join(dir, "out.six")
        #expect(
            CLI.shell("cd \(CLI.quote(dir)) && \(CLI.quote(CLI.binary)) view in.png --graphics sixel > out.six") == 0)
        let report = CLI.shellOutput(
            "/usr/bin/python3 \(CLI.quote(Self.tools + "/check_pixels.py")) sixel \(CLI.quote(stream)) \(CLI.quote(image))"
        )
        let r = JSONValue.object(report) ?? [:]
        // 2560 colours: median cut to 256, so close, not exact.
        if case .number(let psnr)? = r["psnr"] {
            #expect(psnr > 28, "\(report)")
        } else {
            Issue.record("no report: \(report)")
        }
        #expect(CLI.read(stream).contains("in.png  64x40  PNG"))
    }

    @Test func viewFailsOneFileAndShowsTheOthers() {
        let (dir, _) = Self.fixture("20x10")
        let r = CLI.run(["view", "in.png", "missing.png", "in.png", "--graphics", "blocks"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.components(separatedBy: "in.png  20x10  PNG").count == 3)
        #expect(r.stderr.contains("missing.png"))
    }

    /// auto on a fake terminal: each answer picks its protocol; silence falls back to blocks.
    @Test(arguments: [
        ("kitty", "\u{1B}_Ga=T"), ("sixel", "\u{1B}P0;1;0q"), ("plain", "\u{2580}"), ("none", "\u{2580}"),
    ])
    func detectionOnAPTY(_ answer: String, _ expected: String) {
        let (_, image) = Self.fixture("40x30")
        let (report, output) = Self.onPTY(["view", image], answer: answer)
        #expect(report["status"] == .number(0), "\(report)")
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains(expected), "\(answer)")
        #expect(text.contains("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"), "the probe was sent")
    }
}
