import Foundation
import TestSupport
import Testing

@testable import FZSystem

/// peek and crop size the peek the same way (issue 40's smaller contract fixes): a device
/// named by crop's --view is its screen, and peek takes --size, --screen and --zoom and saves
/// exactly what crop writes for them.
struct PeekSizingTests {
    /// `crop --view iphone-15`: N = 393 (the device's 393x852 points), not the default 390;
    /// --screen still wins, and a WxH view says nothing of the screen.
    @Test(arguments: [
        (["--view", "iphone-15"], 393), (["--view", "iphone-15", "--screen", "390x844"], 390),
        (["--view", "393x852"], 390), (["--view", "iphone-15", "--size", "64"], 64),
    ])
    func cropSizesFromTheViewsDevice(_ options: [String], _ side: Int) {
        let (dir, image) = TerminalCLITests.fixture()
        let r = CLI.run(["crop", image, "--at", "100,100", "--geometry-only"] + options, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(JSONValue.object(r.stdout.trimmingCharacters)?["side"] == .number(Double(side)), "\(r.stdout)")
    }

    /// frame follows the same rule: its box marks the peek of the view's device.
    @Test func frameSizesFromTheViewsDevice() {
        let (dir, image) = TerminalCLITests.fixture()
        let r = CLI.run(["frame", image, "--view", "iphone-15", "--at", "50%,50%", "-o", "f.png", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(JSONValue.object(r.stdout.trimmingCharacters)?["side"] == .number(393), "\(r.stdout)")
        let wxh = CLI.run(["frame", image, "--view", "393x852", "--at", "50%,50%", "-o", "g.png", "--json"], in: dir)
        #expect(JSONValue.object(wxh.stdout.trimmingCharacters)?["side"] == .number(390), "\(wxh.stdout)")
    }

    /// peek --size/--screen --zoom: the saved peek has crop's side and zoom and crop's pixels;
    /// without them, crop's default side (390), not the pane's (38 in an 80x24 window).
    @Test(arguments: [
        (["--size", "100", "--zoom", "2"], 100, 2.0), (["--screen", "iphone-15"], 393, 1.0), ([], 390, 1.0),
    ])
    func peekSavesWhatCropWould(_ options: [String], _ side: Int, _ zoom: Double) throws {
        let (dir, image) = TerminalCLITests.fixture()
        let r = TerminalHostileTests.run(
            ["peek", image, "--graphics", "blocks", "-o", FileSystem.join(dir, "p-%d.png")] + options,
            keys: ["l", "s", "q"])
        #expect(r.status == 0, "\(r.stderr)")
        let record = try #require(TerminalHostileTests.records(r).first)
        #expect(record["side"] == .number(Double(side)) && record["zoom"] == .number(zoom), "\(record)")
        guard case .object(let p)? = record["point"], case .number(let x)? = p["x"], case .number(let y)? = p["y"]
        else {
            Issue.record("no point in \(record)")
            return
        }
        let reference = FileSystem.join(dir, "crop.png")
        let crop = CLI.run(
            ["crop", image, "--at", "\(Int(x)),\(Int(y))", "-o", reference, "--zoom", "\(zoom)"]
                + options.filter { $0 != "--zoom" && $0 != "2" })
        #expect(crop.status == 0, "\(crop.stderr)")
        #expect(TerminalCLITests.pixelsEqual(reference, FileSystem.join(dir, "p-1.png")))
    }

    @Test func peekRefusesWhatCropRefuses() {
        let (dir, image) = TerminalCLITests.fixture("20x10")
        let both = CLI.run(["peek", image, "--size", "10", "--screen", "iphone-15"], in: dir)
        #expect(both.status == 2 && both.stderr.contains("--size and --screen"))
        let zoom = CLI.run(["peek", image, "--zoom", "5000"], in: dir)
        #expect(zoom.status == 2 && zoom.stderr.contains("--zoom"))
    }
}
