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

extension ImageMetadata {
    /// The XMP packet of a lossless crop (`crop --lossless`, which copies every other marker
    /// as it is): its regions moved into the crop's `output` stored pixels, cut from the
    /// input's at `origin`, the orientation tag kept; its pixel dimensions the crop's. Nil
    /// when there are no regions to move (the packet is then copied as it is).
    /// - Parameter frame: the picture the regions are read in (`ImageReader.regionFrame`).
    public func losslessCropXMP(frame: RegionFrame, origin: PixelPoint, output: PixelSize) -> [UInt8]? {
        guard let bytes = xmp, let packet = try? XMPPacket(parsing: bytes) else { return nil }
        let regions = CarriedRegions(packet, frame: frame)
        guard regions.present || !regions.all.isEmpty else { return nil }
        // Working pixels (upright, or stored with --no-auto-orient) back to the stored ones,
        // then into the crop.
        let toStored =
            frame.delivered
            ? frame.orientation.inverse.uprightTransform(stored: frame.working) : AffineTransform.identity
        var carried = CarriedMetadata(exif: nil, xmp: packet, iptc: nil, upright: false, location: true)
        // Not upright: the copied tag (the frame's orientation) is what the output says.
        carried.regions = regions
        let placed = carried.placed(
            toStored.then(.translation(-Double(origin.x), -Double(origin.y))), output: output)
        return placed.blocks(for: output).xmp
    }
}
