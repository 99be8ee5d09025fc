import TestSupport
import Testing

@testable import FZSystem

/// GIF and BMP through the binary: `info` (text and JSON, checked against
/// docs/json/info.schema.json by CLI.run), `--frame N` of an animated GIF against Pillow's
/// frame, and every file of the BMP Suite's bad folder (../shared/formats/bmp/bmpsuite-2.8/b,
/// when present): exit 0 or one error line naming it, exit 1, no signal, within the hostile
/// runs' time and memory bounds.
@Suite("GIF and BMP CLI")
struct GIFBMPCLITests {
    static let made: String = {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/formats/make-gif-bmp.py")
        precondition(CLI.shell("/usr/bin/python3 \(CLI.quote(script)) \(CLI.quote(dir))") == 0)
        return dir
    }()

    @Test func infoCountsFramesInTextAndJSON() {
        let path = FileSystem.join(Self.made, "anim-dispose2.gif")
        let text = CLI.run(["info", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("GIF 48x36") && text.stdout.contains("animated, 4 frames"), "\(text.stdout)")
        let json = CLI.run(["info", "--json", path, FileSystem.join(Self.made, "pil8.bmp")])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains("\"format\":\"GIF\"") && json.stdout.contains("\"frames\":4"), "\(json.stdout)")
        #expect(json.stdout.contains("\"format\":\"BMP\"") && json.stdout.contains("\"bitsPerPixel\":8"))
    }

    /// `crop --frame 3` of an animation whose frames clear (disposal 2) equals Pillow's
    /// third frame cropped the same way (the 36-pixel square about 24,18: x 6..<42), fully
    /// transparent pixels of any colour alike.
    @Test func frameNEqualsPillowsFrame() {
        let path = FileSystem.join(Self.made, "anim-dispose2.gif")
        let dir = CLI.scratch()
        let out = FileSystem.join(dir, "f3.png")
        let r = CLI.run(["crop", "--frame", "3", "--at", "24,18", "--size", "36", "-o", out, path])
        #expect(r.status == 0, "\(r.stderr)")
        let script =
            "import sys; from PIL import Image; a = Image.open(sys.argv[1]); a.seek(2); "
            + "a = a.convert('RGBA').crop((6, 0, 42, 36)); b = Image.open(sys.argv[2]).convert('RGBA'); "
            + "same = all(p == q or p[3] == q[3] == 0 for p, q in zip(a.getdata(), b.getdata())); "
            + "sys.exit(0 if same and a.size == b.size else 1)"
        #expect(CLI.shell("/usr/bin/python3 -c \(CLI.quote(script)) \(CLI.quote(path)) \(CLI.quote(out))") == 0)
        let past = CLI.run(["crop", "--frame", "5", "--at", "0,0", "-o", FileSystem.join(dir, "f5.png"), path])
        #expect(past.status == 1 && past.stderr.contains("has 4 frames"), "\(past.stderr)")
    }

    static let bad = FileSystem.join(
        FileSystem.directory(of: CLI.root), "shared/formats/bmp/bmpsuite-2.8/b")

    @Test func bmpSuiteBadFilesFailInOneLineOrDecode() {
        guard let names = try? FileSystem.list(Self.bad) else { return }
        for name in names.sorted() {
            for command in HostileInputTests.commands {
                let (r, _) = HostileInputTests.run(command, name, in: Self.bad)
                let label = "\(command.testDescription) \(name)"
                #expect(r.exitCode == 0 || r.exitCode == 1, "\(label): \(r)")
                if r.exitCode == 1 {
                    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
                    #expect(lines.count == 2 && lines[1].isEmpty, "\(label): want one line: \(r.stderr)")
                    #expect(r.stderr.hasPrefix("forcezoom: error: \(name): "), "\(label): \(r.stderr)")
                }
            }
        }
    }
}
