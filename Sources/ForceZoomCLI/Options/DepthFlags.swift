import ArgumentParser
import ForceZoomCore

/// `--depth 8|16`: the output's bits a sample, for the commands that can copy samples
/// losslessly (crop at zoom 1, quarter turns).
struct DepthFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Bits a sample in the output: 16 keeps a 16-bit PNG's samples exactly (crop at --zoom 1, quarter turns), 8 rounds them. Default: the input's (16 where it can be kept, else 8).",
            valueName: "bits"))
    var depth: SampleDepth?

    /// Why a 16-bit output cannot be made here, or nil when it can.
    func sixteenBitProblem(_ header: ImageHeader, input: String, oneToOne: Bool, pins: Bool, encode: EncodeFlags) -> String? {
        if depth == .eight { return "is not wanted" }
        if !PNG16.applies(to: header) { return "needs a 16-bit PNG or a 10/12-bit HEIF input; this one has \(header.bitDepth)-bit samples" }
        if input == "-" { return "reads the file again at full depth; give a file, not -" }
        if !oneToOne { return "copies samples; a --zoom other than 1 resamples them (8-bit)" }
        if pins { return "copies samples; pins are drawn at 8 bits" }
        if header.orientation != .up { return "copies samples; an EXIF orientation is applied at 8 bits" }
        return nil
    }
}

/// 8 or 16 bits a sample.
enum SampleDepth: String, ExpressibleByArgument, CaseIterable {
    case eight = "8"
    case sixteen = "16"
}
