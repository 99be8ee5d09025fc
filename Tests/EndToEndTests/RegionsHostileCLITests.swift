import TestSupport
import Testing

@testable import FZSystem

/// The hostile region files of Tools/hostile/hostile_regions.py, made here (`make-hostile.py
/// --out`): each reads, its bad regions left out with one warning each, no terminal escape
/// reaches the output, and the 100,000 regions stay within a CPU-time guard.
@Suite("Regions CLI: hostile XMP")
struct RegionsHostileCLITests {
    static let dir: String = {
        let dir = CLI.scratch()
        let tool = FileSystem.join(CLI.root, "Tools/hostile/make-hostile.py")
        precondition(CLI.shell("\(CLI.python) \(CLI.quote(tool)) --out \(CLI.quote(dir)) > /dev/null") == 0)
        return dir
    }()

    /// Debug builds are slower; no machine needs this much for 2 MB of XMP.
    static let maxCPUSeconds = 10.0

    @Test("100,000 regions: 1000 read, one warning, within the CPU-time guard")
    func budgetGuard() {
        let r = CLI.measure(["info", "--json", "regions-100k.png"], in: Self.dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(
            r.cpuSeconds < Self.maxCPUSeconds, "CPU-time guard: \(r.cpuSeconds) s of CPU, limit \(Self.maxCPUSeconds) s"
        )
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("100000 regions, over the budget of 1000"))
        #expect(r.stdout.components(separatedBy: "\"source\":\"mwg\"").count - 1 == 1000)
    }

    @Test("Names with terminal escapes and control characters are cleaned, one warning each")
    func escapes() {
        let r = CLI.run(["info", "regions-escapes.png"], in: Self.dir)
        #expect(r.status == 0)
        let controls = (r.stdout + r.stderr).unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
        }
        #expect(controls.isEmpty, "control characters reached the terminal: \(controls.map(\.value))")
        #expect(r.stderr.components(separatedBy: "control characters taken out").count - 1 == 4, "\(r.stderr)")
        #expect(r.stdout.contains("4 regions"))
        // The names stay usable: region: finds the cleaned name.
        let crop = CLI.run(
            ["crop", "regions-escapes.png", "--at", "region:tab and newline", "--geometry-only"], in: Self.dir)
        #expect(crop.status == 0, "\(crop.stderr)")
    }

    @Test("NaN, negative, >1, zero-size, infinite, unknown unit, duplicate: one warning each, left out")
    func badRegions() {
        let r = CLI.run(["info", "--json", "regions-bad.png"], in: Self.dir)
        #expect(r.status == 0)
        #expect(r.stderr.split(separator: "\n").count == 7, "\(r.stderr)")
        #expect(r.stdout.contains("\"name\":\"good\"") && !r.stdout.contains("GOOD"))
        let wrong = CLI.run(["info", "regions-applied-wrong.png"], in: Self.dir)
        #expect(wrong.status == 0 && wrong.stderr.contains("AppliedToDimensions 1000x10 disagrees"), "\(wrong.stderr)")
        #expect(!wrong.stdout.contains(" region"), "\(wrong.stdout)")
    }
}
