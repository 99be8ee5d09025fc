import Geometry

extension CarriedMetadata {
    /// The same metadata for an output whose pixels come from the input's working pixels
    /// through `imageToOutput` (the map the gain map is carried with) into `output` pixels:
    /// its regions are written there. Without it an output carries no regions (better none
    /// than regions pointing at other pixels).
    public func placed(_ imageToOutput: AffineTransform, output: PixelSize) -> CarriedMetadata {
        var r = self
        r.placement = RegionPlacement(imageToOutput: imageToOutput, output: output)
        return r
    }

    /// The orientation the output's copy says: 1 when its pixels are upright, else the input's.
    var writtenOrientation: Orientation { upright ? .up : (regions?.frame.orientation ?? .up) }

    /// What the XMP of an output of `size` pixels changes for the regions: the input's region
    /// properties replaced by the placed ones, and without names IPTC's PersonInImage left out.
    func regionEdit(_ size: PixelSize) -> XMPPacket.Edit {
        var edit = XMPPacket.Edit()
        if !names { edit.drop.formUnion(RegionXMP.personProperties) }
        guard let regions, regions.present || !regions.all.isEmpty else { return edit }
        edit.drop.formUnion(RegionXMP.regionProperties)
        edit.insert = regions.xml(placement, size: size, written: writtenOrientation, names: names).0
        return edit
    }

    /// How many of the input's regions an output of `size` pixels keeps and leaves out; nil
    /// when the input has none.
    public func regionCount(for size: PixelSize) -> (kept: Int, dropped: Int)? {
        guard let regions, !regions.all.isEmpty else { return nil }
        let count = regions.xml(placement, size: size, written: writtenOrientation, names: names).1
        return (count.kept, count.dropped)
    }
}
