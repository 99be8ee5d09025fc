import Foundation
import TestSupport
import Testing

@testable import FZSystem

/// `peek` on a pseudo-terminal: keys, signals, a redirected stdout, a resize.
extension TerminalCLITests {
    /// peek driven by keys: l moves, s saves exactly `crop --at` of the reported point, + zooms,
    /// q leaves with the terminal restored (alternate screen left, cursor shown, echo back on).
    @Test func peekOnAPTY() throws {
        let (dir, image) = Self.fixture()
        let pattern = FileSystem.join(dir, "p-%d.png")
        let (report, output) = Self.onPTY(
            ["peek", image, "--graphics", "blocks", "-o", pattern], keys: ["l", "s", "L", "+", "s", "q"],
            shell: "stty -a")
        #expect(report["status"] == .number(0), "\(report)")
        let text = String(decoding: output, as: UTF8.self)
        let after = try #require(text.components(separatedBy: "\u{1B}[?1049l").last)
        #expect(text.contains("\u{1B}[?25h\u{1B}[?1049l"))
        let records = after.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).compactMap {
            JSONValue.object($0)
        }
        #expect(records.count == 2)
        for (i, record) in records.enumerated() {
            guard case .object(let p)? = record["point"], case .number(let x)? = p["x"], case .number(let y)? = p["y"],
                case .number(let side)? = record["side"], case .number(let zoom)? = record["zoom"]
            else {
                Issue.record("no point in \(record)")
                continue
            }
            let reference = FileSystem.join(dir, "crop-\(i).png")
            let crop = CLI.run([
                "crop", image, "--at", "\(Int(x)),\(Int(y))", "--size", "\(Int(side))", "--zoom", "\(zoom)", "-o",
                reference,
            ])
            #expect(crop.status == 0)
            #expect(Self.pixelsEqual(reference, FileSystem.join(dir, "p-\(i + 1).png")))
        }
        #expect(records.count == 2 && records[0]["zoom"] == .number(1) && records[1]["zoom"] == .number(2))
        // stty -a after peek: the line discipline is back (echo, canonical mode, signals).
        let modes = Self.words(after)
        #expect(modes.isSuperset(of: ["echo", "icanon", "isig", "icrnl"]), "\(after)")
    }

    /// SIGTERM, SIGHUP, or a fault (SIGSEGV, the crash path) while peek is raw: the handlers
    /// restore the terminal before the process ends.
    @Test(arguments: [15, 1, 11]) func peekRestoresOnSignals(_ signal: Int) throws {
        let (dir, image) = Self.fixture()
        let (report, output) = Self.onPTY(
            ["peek", image, "--graphics", "blocks"], keys: ["l", "x"], signal: signal, shell: "stty -a")
        #expect(report["status"] == .number(0), "the shell ran stty: \(report)")
        let text = String(decoding: output, as: UTF8.self)
        let after = try #require(text.components(separatedBy: "\u{1B}[?1049l").last)
        #expect(text.contains("\u{1B}[?25h\u{1B}[?1049l"))
        let modes = Self.words(after)
        #expect(modes.isSuperset(of: ["echo", "icanon", "isig", "icrnl"]), "\(after)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["in.png"])
    }

    /// peek > file: the screen is drawn on the terminal itself (/dev/tty), the JSON goes to the file.
    @Test func peekWithStdoutRedirected() throws {
        let (dir, image) = Self.fixture()
        let jsonl = FileSystem.join(dir, "saved.jsonl")
        let (report, output) = Self.onPTY(
            ["peek", image, "--graphics", "blocks", "-o", FileSystem.join(dir, "p-%d.png")], keys: ["s", "q"],
            stdout: jsonl)
        #expect(report["status"] == .number(0), "\(report)")
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("\u{1B}[?1049h") && text.contains("\u{2580}") && text.contains("\u{1B}[?1049l"))
        let records = CLI.read(jsonl).split(separator: "\n").compactMap { JSONValue.object($0) }
        #expect(records.count == 1 && records.first?["output"] == .string(FileSystem.join(dir, "p-1.png")))
    }

    /// A resize (SIGWINCH) lays peek out again: the status line of each save says the pane's
    /// new side; the saved peeks keep crop's side (390, whatever the pane).
    @Test func peekFollowsAResize() throws {
        let (dir, image) = Self.fixture()
        let jsonl = FileSystem.join(dir, "saved.jsonl")
        let (report, output) = Self.onPTY(
            ["peek", image, "--graphics", "blocks", "-o", FileSystem.join(dir, "p-%d.png")],
            // Each next key once the save's status line is drawn (a 390-pixel save takes a while).
            keys: ["s", "@await:1:shown at 38", "@resize", "s", "@await:1:shown at 48", "q"],
            stdout: jsonl, resize: "100x30")
        #expect(report["status"] == .number(0), "\(report)")
        let records = CLI.read(jsonl).split(separator: "\n").compactMap { JSONValue.object($0) }
        // 80x24 blocks: the pane's side is min(2 * 23, 79 / 2) on even rows = 38; 100x30: 48.
        #expect(Self.panes(output) == [38, 48], "\(Self.panes(output))")
        #expect(records.map { $0["side"] } == [.number(390), .number(390)])
    }

    /// The pane sides the status line said at each save (`saved P: 390 px, shown at 38`).
    static func panes(_ output: [UInt8]) -> [Int] {
        let text = String(decoding: output, as: UTF8.self)
        var sides: [Int] = []
        for piece in text.split(separator: "px, shown at ").dropFirst() {
            if let n = Int(piece.prefix { $0.isNumber }), sides.last != n || sides.isEmpty { sides.append(n) }
        }
        return sides
    }

    /// `stty -a`'s words (CRLF is one Character, so split the scalars).
    static func words(_ text: String) -> Set<String> {
        Set(
            text.unicodeScalars.split(whereSeparator: { " \r\n;".unicodeScalars.contains($0) }).map {
                String(String.UnicodeScalarView($0))
            })
    }

    @Test func peekNeedsATerminal() {
        let (dir, image) = Self.fixture("20x10")
        let r = CLI.run(["peek", image], in: dir)
        #expect(r.status == 2 && r.stderr.contains("interactive"))
    }
}

extension CLI {
    /// A shell command's standard output.
    static func shellOutput(_ command: String) -> String {
        let dir = scratch()
        let out = dir + "/out"
        _ = shell("(\(command)) > \(quote(out)) 2>/dev/null")
        return read(out)
    }
}
