import FZMetadata
import Geometry

/// The frame a reader's metadata (its XMP regions) is read in, and what its outputs carry.
extension ImageReader {
    /// What an output of these pixels in `format` carries under `policy` (see
    /// `MetadataPolicy.carried` and `CarriedMetadata.fitting`), and why anything was left out.
    public func carriedMetadata(
        _ policy: MetadataPolicy, for format: OutputFormat
    ) -> (CarriedMetadata?, warnings: [String]) {
        let (carried, warnings) = policy.carried(metadata, upright: deliversUpright, frame: regionFrame)
        guard let carried else { return (nil, warnings) }
        let (fitted, more) = carried.fitting(format)
        return (fitted, warnings + more)
    }

    /// The picture an output's regions are read in: as `--at region:` reads them when the
    /// pixels are upright; with `--no-auto-orient` through the file's own orientation, then
    /// back to the stored pixels the output keeps (with its orientation tag).
    public var regionFrame: RegionFrame {
        guard !deliversUpright else { return uprightRegionFrame }
        let o = header.exifOrientationValue.flatMap { Orientation(rawValue: $0) } ?? .up
        return RegionFrame(stored: header.storedSize, orientation: o, delivered: false)
    }

    /// The picture regions are read in for the upright pixels (`--at region:`, info, the
    /// peek): the stored size through the header's orientation, or, for pixels the decoder
    /// turned itself (a RAW that libraw developed upright), back through that turn.
    var uprightRegionFrame: RegionFrame {
        let turn = decoder.pixelsTurnedBy
        guard turn != .up else {
            return RegionFrame(stored: header.storedSize, orientation: header.orientation, delivered: true)
        }
        let stored = turn.swapsAxes ? header.storedSize.transposed : header.storedSize
        return RegionFrame(stored: stored, orientation: turn, delivered: true)
    }

    /// The file's regions in the upright pixels' coordinates, and the warnings reading them.
    public func uprightRegions() -> RegionReading {
        let frame = uprightRegionFrame
        return metadata.regions(stored: frame.stored, orientation: frame.orientation)
    }
}
