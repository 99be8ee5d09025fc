import FZSystem
import TestSupport
import Testing

/// Arguments as people type them (issue 24), through the binary: the one line and the exit
/// code a user sees, and the mirrors' pixels against Pillow's.
@Suite("Arguments as people type them, end to end")
struct ArgumentRepairCLITests {
    /// What a user sees: one line, exit 2, naming what they typed.
    @Test func theBinarySaysWhatWasMeant() {
        let dir = CLI.scratch()
        _ = CLI.run(["fixture", "coords", "--size", "40x30", "-o", FileSystem.join(dir, "c.png")])
        for (args, status, says) in [
            (["crp", "c.png"], Int32(2), "unknown subcommand 'crp'; did you mean 'crop'?"),
            (["crop", "c.png", "--atx", "5,5"], 2, "unknown option '--atx' for 'crop'; did you mean '--at'?"),
            (["crop", "c.png", "--at", "5,5", "--background", "pink"], 2, "--background 'pink' is not valid;"),
            (["thumb", "c.png", "--size", "200x", "--crop"], 2, "not 200x ("),
            (["transform", "c.png", "--rotate", "-30", "-o", "r.png"], 0, ""),
        ] {
            let r = CLI.run(args, in: dir)
            #expect(r.status == status && (says.isEmpty || r.stderr.contains(says)), "\(args): \(r.status) \(r.stderr)")
            if status == 2 { #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)") }
        }
    }

    /// --flip, --flop, --transpose and --transverse move pixels exactly as Pillow's
    /// transpose methods of the same names (FLIP_TOP_BOTTOM, FLIP_LEFT_RIGHT...).
    @Test func mirrorsEqualPillow() {
        let dir = CLI.scratch()
        _ = CLI.run(["fixture", "coords", "--size", "40x30", "-o", FileSystem.join(dir, "c.png")])
        for name in ["flip", "flop", "transpose", "transverse"] {
            let r = CLI.run(["transform", "c.png", "--\(name)", "-o", "\(name).png"], in: dir)
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
        let report = ColorCLITests.python(
            """
            from PIL import Image
            s = Image.open('c.png').convert('RGB')
            ways = {'flip': Image.FLIP_TOP_BOTTOM, 'flop': Image.FLIP_LEFT_RIGHT, 'transpose': Image.TRANSPOSE, 'transverse': Image.TRANSVERSE}
            print(' '.join(n for n, t in ways.items() if Image.open(n + '.png').convert('RGB').tobytes() == s.transpose(t).tobytes()))
            """, in: dir)
        #expect(report.trimmingCharacters == "flip flop transpose transverse", "\(report)")
    }
}
