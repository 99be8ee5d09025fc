import ArgumentParser
import FZCodecs
import FZSystem

extension GainMapPolicy: ExpressibleByArgument {}

/// `--gain-map keep|drop|apply` and `--hdr-headroom`: what outputs do with an input's HDR gain
/// map, shared (through `MetadataFlags`) by every command that writes an image made from an input.
struct GainMapFlags: ParsableArguments {
    @Option(
        name: .customLong("gain-map"),
        help: ArgumentHelp(
            "What outputs do with an input's HDR gain map (Ultra HDR, Adobe and Apple JPEGs, Apple HEICs): keep carries it cut and resampled with the output's geometry, JPEG outputs then being Ultra HDR JPEGs and HEIC outputs keeping an Apple map as Apple does (other formats leave it out, as --json notes); drop writes SDR outputs only; apply writes PNG outputs as what an HDR display shows (16-bit, BT.2100 PQ, cICP).",
            valueName: "keep|drop|apply"))
    var gainMap: GainMapPolicy = .keep

    @Option(
        name: .customLong("hdr-headroom"), help: ArgumentHelp(HDRHeadroom.help, valueName: "stops|ratio"),
        transform: { text in
            do throws(ToolFailure) {
                return try HDRHeadroom(parsing: text)
            } catch {
                throw ValidationError(error.message)
            }
        })
    var hdrHeadroom: HDRHeadroom = .mapMaximum
}
