import FZCodecs
import FZFormat
import FZGainMap
import FZRender
import Geometry

/// A thumbnail's gain map: read once per input after its pixels, then reduced for each size
/// with the thumbnail's own filter over the same window (the ladder calls `carriedGainMap`
/// once per size with the `GainMapCarry` it read once).
extension Thumbnailer {
    /// The input's gain map as outputs in `format` carry it (decoded only when kept and the
    /// format is JPEG, or applied and it is PNG: each size is then its HDR rendition at
    /// `hdrHeadroom`); a malformed one becomes a warning of the result. Call after the pixels.
    public func gainMap(of reader: ImageReader, format: OutputFormat, into result: inout ThumbnailResult)
        -> GainMapCarry
    {
        let carry = GainMapCarry.read(reader, policy: gainMap, format: format, headroom: hdrHeadroom)
            .fitting(reader.carriedMetadata(metadata, for: format).0)
        if let w = carry.warning { result.warnings.append(w) }
        result.gainMap = carry.outcome
        return carry
    }

    /// The map at the geometry of one size: the window scaled to the output, as the pixels,
    /// reduced with the thumbnail's filter (applied: with the rendition that turns the size's
    /// pixels into its HDR image, `DecodedGainMap.carried`).
    public func carriedGainMap(_ carry: GainMapCarry, geometry g: ThumbnailGeometry) -> CarriedGainMap? {
        carry.map?.carried(
            imageToOutput: AffineTransform.translation(-g.window.x, -g.window.y).then(.scale(g.scaleX, g.scaleY)),
            output: g.output, filter: filter)
    }

    /// What the written thumbnail did with the map: dropped, with one warning, when the writer
    /// could not carry it after all (`GainMapCarry.drops`).
    func noteWritten(_ carry: GainMapCarry, into result: inout ThumbnailResult) {
        guard let w = carry.droppedWarning else { return }
        result.warnings.append(w)
        result.gainMap = carry.written
    }
}
