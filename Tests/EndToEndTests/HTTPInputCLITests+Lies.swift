import FZSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The lies nginx cannot be made to tell (Tools/http/lying_server.py, stdlib Python on
/// 127.0.0.1, serving the fixture photo): a Content-Range that is not the range asked, and a
/// body longer than the range. Each is one line naming the URL, exit 1 (the same server will
/// lie again), at once. About 1 s.
extension HTTPInputCLITests {
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    /// The stub's port, or nil when it did not start.
    static let liar: Int? = {
        let dir = CLI.scratch()
        let state = FileSystem.join(dir, "state.json")
        let script = FileSystem.join(CLI.root, "Tools/http/lying_server.py")
        let command =
            [CLI.python, script, photo, state, String(getpid())].map(CLI.quote).joined(separator: " ")
            + " > \(CLI.quote(dir))/log.txt 2>&1 &"
        guard CLI.shell(command) == 0 else { return nil }
        for _ in 0..<100 {
            if let json = JSONValue.object(CLI.read(state)), case .number(let port)? = json["port"] {
                return Int(port)
            }
            usleep(50_000)
        }
        return nil
    }()

    @Test(
        .enabled(if: liar != nil, "Tools/http/lying_server.py did not start"),
        arguments: [
            ("shifted", "sent bytes 1-65536 for a request of 0-65535 (Content-Range)"),
            ("longer", "sent more bytes than its Content-Range said"),
        ])
    func aServerThatLiesAboutTheRange(_ lie: String, _ words: String) throws {
        let port = try #require(Self.liar)
        let url = "http://127.0.0.1:\(port)/\(lie)/peek.jpg"
        for command in [["info", url], ["crop", url, "--at", "10,10", "-o", FileSystem.join(CLI.scratch(), "c.png")]] {
            let clock = Stopwatch()
            let r = CLI.run(command)
            #expect(r.status == 1, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr == "forcezoom: error: \(url): \(words)\n", "\(command): \(r.stderr)")
            #expect(clock.elapsed < 5, "\(clock.elapsed) s")
        }
        // The same photo told honestly is read: the lie, not the photo, was refused.
        let honest = CLI.run(["info", "http://127.0.0.1:\(port)/peek.jpg"])
        #expect(honest.status == 0 && honest.stdout.contains("JPEG 900x1600"), "\(honest.stdout) \(honest.stderr)")
    }
}
