import FZSystem
import TestSupport
import Testing

/// `crop --at-from -` reads its points from standard input once, whichever reading of the
/// line validates it: crop's quick reading checks a line before the parser does when it
/// leaves the line to it, and a second read of the stream found it empty, so every check
/// after the points said "give a point with --at" instead of its own message.
@Suite("crop --at-from - end to end")
struct PointsFromStdinCLITests {
    @Test func theChecksAfterThePointsSayTheirOwnMessage() {
        let dir = CLI.scratch()
        _ = CLI.run(["fixture", "coords", "--size", "40x30", "-o", FileSystem.join(dir, "c.png")])
        let one = FileSystem.join(dir, "one.txt")
        let two = FileSystem.join(dir, "two.txt")
        CLI.write(one, Array("10,10\n".utf8))
        CLI.write(two, Array("10,10\n20,20\n".utf8))
        for (args, stdin, says) in [
            (["--size", "0"], one, "--size must be 1 to"),
            (["--zoom", "0.0001", "-o", "x.png"], one, "--zoom must be"),
            (["-o", "x.png"], two, "-o 'x.png' writes several files and needs %d"),
        ] {
            let r = CLI.run(["crop", "c.png", "--at-from", "-"] + args, in: dir, stdin: stdin)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r.status) \(r.stderr)")
            #expect(!r.stderr.contains("give a point"), "\(args): \(r.stderr)")
        }
        // And a line that passes: both points from the stream, each written.
        let r = CLI.run(["crop", "c.png", "--at-from", "-", "--size", "8", "-o", "p-%d.png"], in: dir, stdin: two)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "p-2.png")) == .regular)
        _ = CLI.shell("rm -rf \(CLI.quote(dir))")
    }
}
