import ArgumentParser
import FZOperations
import Geometry

/// `--explain PATH`: where attention's or entropy's score map is written (a PNG heat map,
/// docs/regions.md), for the commands whose place can be one of them.
enum ExplainArgument {
    static let help = ArgumentHelp(
        "With attention or entropy: write the score of every place the box could go as a PNG heat map (brightest: the place chosen); --json's where then names it and gives the runner-up.",
        valueName: "path.png")

    /// The checks: a PNG name, and a place that is scored.
    static func check(_ path: String?, place: Where?, flag: String) throws {
        guard let path else { return }
        try Outputs.checkNotEmpty(path, "--explain")
        guard place == .attention || place == .entropy else {
            throw ValidationError(
                "--explain shows why attention or entropy chose its point; give \(flag) attention or \(flag) entropy")
        }
        guard path.lowercased().hasSuffix(".png") else {
            throw ValidationError("--explain \(Echo.value(path)) writes a PNG heat map: give a name ending .png")
        }
    }
}
