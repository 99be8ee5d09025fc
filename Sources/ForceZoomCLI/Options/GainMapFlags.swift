import ArgumentParser
import FZCodecs

extension GainMapPolicy: ExpressibleByArgument {}

/// `--gain-map keep|drop`: what outputs do with an input's HDR gain map, shared (through
/// `MetadataFlags`) by every command that writes an image made from an input. `apply` joins
/// as one more case of `GainMapPolicy` (with `--hdr-headroom` beside it here).
struct GainMapFlags: ParsableArguments {
    @Option(
        name: .customLong("gain-map"),
        help: ArgumentHelp(
            "What outputs do with an input's HDR gain map (Ultra HDR, Adobe and Apple JPEGs, Apple HEICs): keep carries it cut and resampled with the output's geometry, JPEG outputs then being Ultra HDR JPEGs (other formats leave it out, as --json notes); drop writes SDR outputs only.",
            valueName: "keep|drop"))
    var gainMap: GainMapPolicy = .keep
}
