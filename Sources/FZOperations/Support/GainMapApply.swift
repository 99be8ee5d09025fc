import FZCodecs
import FZImage
import FZRender
import FZSystem

/// `--gain-map apply` for one output (issue 39): what an HDR display shows, written instead
/// of the SDR output as a 16-bit PNG in BT.2100 PQ (cICP 9/16/0/1). Each command calls this
/// once per output, where it would otherwise write `sdr`.
public enum GainMapApply {
    /// Renders `sdr` (the output's pixels as they would be written) with `map` (the gain map
    /// already at the output's geometry, at its own scale) and writes the PNG at `path`.
    /// - Parameters:
    ///   - color: the SDR pixels' colour description (the input's: an ICC profile, or none for sRGB).
    ///   - input: the input's name, for messages.
    ///   - metadata: EXIF/XMP to carry (the lead decides; hdrgm XMP describes a map this file
    ///     does not have, so leave it out of what is carried).
    /// - Returns: the bytes written (nil for standard output).
    /// - Throws: `GainMapRenditionError` (profile, budget) or `OutputError`.
    @discardableResult
    public static func write(
        sdr: Image, color: ColorDescription, map: Image, parameters: GainMapParameters, headroom: HDRHeadroom,
        to path: String, settings: PNGSettings = .default, protecting inputs: [String] = [], budget: Budget,
        input: String, metadata: CarriedMetadata? = nil
    ) throws -> Int64? {
        let hdr = try GainMapRendition.render(
            sdr, color: color, map: map, parameters: parameters, headroom: headroom, budget: budget, path: input)
        return try ImageWriter.writePQ(hdr, to: path, settings: settings, protecting: inputs, metadata: metadata)
    }
}
