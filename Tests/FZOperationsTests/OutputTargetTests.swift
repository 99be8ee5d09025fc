import Glibc
import Testing

@testable import FZCodecs
@testable import FZOperations
@testable import FZSystem
@testable import Geometry

/// Where outputs go, decided once: `-o` as typed, the default names, the clash of two
/// outputs on one path, and the refusal of an output that is an input.
@Suite("OutputTarget")
struct OutputTargetTests {
    @Test func withoutDashOEachOutputGetsItsDefaultName() {
        let target = OutputTarget(named: nil, count: 3, choice: OutputChoice()) { "peek-\($0).png" }
        #expect(target.place == .files(["peek-1.png", "peek-2.png", "peek-3.png"]))
        #expect(target.writes)
    }

    @Test func aDashIsStandardOutput() {
        let target = OutputTarget(named: "-", choice: OutputChoice()) { _ in "unused.png" }
        #expect(target.place == .standardOutput)
        #expect(target.path(0) == "-" && target.writtenPath(0) == "-")
    }

    @Test func severalOutputsNumberThePatternFromOneWithPrintfPadding() {
        let target = OutputTarget(named: "out/%02d-%%.png", count: 3, choice: OutputChoice()) { _ in "x" }
        #expect(target.place == .files(["out/01-%.png", "out/02-%.png", "out/03-%.png"]))
    }

    @Test func oneOutputKeepsItsNameAsTypedPercentAndAll() {
        let target = OutputTarget(named: "100%.png", count: 1, choice: OutputChoice()) { _ in "x" }
        #expect(target.place == .files(["100%.png"]))
    }

    @Test func withoutAPlaceNothingIsWritten() {
        let target = OutputTarget(.none)
        #expect(!target.writes)
        #expect(target.writtenPath(0) == nil)
    }

    @Test func eachOutputsFormatFollowsItsOwnExtension() {
        let target = OutputTarget(.files(["a.jpg", "b.png"]))
        #expect(target.format(0).extensions.contains("jpg"))
        #expect(target.format(1).extensions.contains("png"))
        #expect(target.format(0) != target.format(1))
    }

    @Test func twoOptionsOnOnePathClashStandardOutputNever() {
        let message = OutputTarget.clash([("-o", "x.png"), ("--save", "y.png"), ("--diff", "x.png")])
        #expect(message?.contains("-o and --diff both write 'x.png'") == true)
        #expect(OutputTarget.clash([("-o", "-"), ("--diff", "-")]) == nil)
        #expect(OutputTarget.clash([("-o", "x.png"), ("--diff", "y.png")]) == nil)
    }

    @Test func anOutputThatIsAnInputByAnyNameIsRefused() throws {
        let (dir, input) = try OperationFixtures.coords(PixelSize(width: 4, height: 4))
        let link = FileSystem.join(dir, "link.png")
        #expect(symlink(input, link) == 0)
        for spelling in [input, link, FileSystem.join(dir, "./coords.png")] {
            #expect(throws: ToolFailure.self, "\(spelling)") {
                try OutputTarget(.files(["\(dir)/other.png", spelling])).checkNotInputs([input])
            }
        }
        try OutputTarget(.files([FileSystem.join(dir, "new.png")])).checkNotInputs([input])
        try OutputTarget(.standardOutput).checkNotInputs([input])
    }
}
