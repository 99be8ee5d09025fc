import ArgumentParser
import FZOperations

/// `--depth 8|16`: the output's bits a sample, for the commands that can copy samples
/// losslessly (crop at zoom 1, quarter turns).
struct DepthFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Bits a sample in the output: 16 keeps a 16-bit PNG's samples exactly (crop at --zoom 1, quarter turns), 8 rounds them. Default: the input's (16 where it can be kept, else 8).",
            valueName: "bits"))
    var depth: SampleDepth?
}

extension SampleDepth: ChoiceArgument {}
