import ArgumentParser
import FZOperations

extension GainMapPolicy: ChoiceArgument {}

/// `--gain-map keep|drop|apply` and `--hdr-headroom`: what outputs do with an input's HDR gain
/// map, shared (through `MetadataFlags`) by every command that writes an image made from an input.
struct GainMapFlags: ParsableArguments {
    @Option(
        name: .customLong("gain-map"),
        help: ArgumentHelp(
            "What outputs do with an input's HDR gain map (Ultra HDR, Adobe and Apple JPEGs, Apple HEICs): keep carries it cut and resampled with the output's geometry, JPEG outputs then being Ultra HDR JPEGs and HEIC outputs keeping an Apple map as Apple does (other formats leave it out, as --json notes); drop writes SDR outputs only; apply writes "
                + FormatNames.renderingHDR
                + " outputs as what an HDR display shows (BT.2100 PQ: a 16-bit PNG with cICP, a 10-bit HEIC or 12-bit AVIF with nclx).",
            valueName: "keep|drop|apply"))
    var gainMap: GainMapPolicy = Self.defaultGainMap

    @Option(
        name: .customLong("hdr-headroom"), help: ArgumentHelp(HDRHeadroom.help, valueName: "stops|ratio"),
        transform: { text in
            do throws(ToolFailure) {
                return try HDRHeadroom(parsing: text)
            } catch {
                throw ValidationError(error.message)
            }
        })
    var hdrHeadroom: HDRHeadroom = Self.defaultHeadroom

    /// The defaults, named for `quickTable`.
    static let defaultGainMap = GainMapPolicy.keep
    static let defaultHeadroom = HDRHeadroom.mapMaximum
}
