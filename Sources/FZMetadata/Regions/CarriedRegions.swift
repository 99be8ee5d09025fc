import Geometry

/// The picture an output's regions are read in: the input's stored size and the EXIF
/// orientation its regions are read through, and whether the pixels the commands work on
/// are upright (the orientation applied) or as stored (`--no-auto-orient`).
public struct RegionFrame: Hashable, Sendable {
    public var stored: PixelSize
    public var orientation: Orientation
    public var delivered: Bool

    /// - Parameter delivered: whether the commands' pixels are upright (else they are the
    ///   stored pixels, and the output keeps the orientation tag).
    public init(stored: PixelSize, orientation: Orientation, delivered: Bool) {
        self.stored = stored
        self.orientation = orientation
        self.delivered = delivered
    }

    /// The size of the pixels the commands work on.
    public var working: PixelSize { delivered ? orientation.uprightSize(ofStored: stored) : stored }
}

/// Where an output's pixels come from: the map from the input's working pixels (upright, as
/// every command sees them) to the output's, and the output's size. The same map the gain
/// map is carried with (`DecodedGainMap.carried(imageToOutput:)`).
public struct RegionPlacement: Hashable, Sendable {
    public var imageToOutput: AffineTransform
    public var output: PixelSize

    public init(imageToOutput: AffineTransform, output: PixelSize) {
        self.imageToOutput = imageToOutput
        self.output = output
    }
}

/// An input's regions as its outputs carry them (issue 49 item 4): read once, in the pixels
/// the commands work on, and written again for each output (`XMPPacket.rewritten`), moved
/// into the output's pixels with its placement: clipped to the output, left out when less
/// than half an output pixel of them is left along a side.
///
/// Every region `info` lists is written as an MWG region (the form other applications read
/// first); the input's Microsoft and IPTC regions are written again in their own forms when
/// it had them, so no form is left pointing at the old pixels. Only the name, the type and
/// the area are written: other fields of a region (MWG's Description, Rotation and
/// Extensions, IPTC's rId, rCtype and rRole) are not carried.
package struct CarriedRegions: Hashable, Sendable {
    var all: [ImageRegion]
    var microsoft: [ImageRegion]?
    var iptc: [ImageRegion]?
    /// Whether the packet has region properties (an output's copy replaces them).
    var present: Bool
    var frame: RegionFrame

    /// The regions of `packet`, in `frame`'s working pixels.
    init(_ packet: XMPPacket, frame: RegionFrame) {
        var reader = RegionReader(tree: XMPTree(packet), stored: frame.stored, orientation: frame.orientation)
        let reading = reader.read()
        self.frame = frame
        func working(_ r: ImageRegion) -> ImageRegion {
            guard !frame.delivered else { return r }
            var r = r
            r.rect = frame.orientation.storedRect(forUpright: r.rect, stored: frame.stored)
            return r
        }
        all = reading.regions.map(working)
        microsoft = reading.bySource[.microsoft]?.map(working)
        iptc = reading.bySource[.iptc]?.map(working)
        present = packet.names.contains { $0?.element.map(RegionXMP.regionProperties.contains) ?? false }
    }

    /// What an output's copy does with `count` regions: how many it kept, how many it left out.
    package struct Count: Hashable, Sendable {
        package var kept = 0
        package var dropped = 0
    }

    /// One region in an output: normalised to the output's stored pixels, and to its upright
    /// picture (Microsoft's frame).
    struct Placed {
        var region: ImageRegion
        var stored: Rect
        var upright: Rect
    }

    /// `regions` moved by `placement` into an output of `size` stored pixels written with the
    /// orientation `written`, normalised.
    static func placed(
        _ regions: [ImageRegion], _ placement: RegionPlacement, size: PixelSize, written: Orientation
    ) -> (placed: [Placed], count: Count) {
        var out: [Placed] = []
        var count = Count()
        let w = Double(size.width)
        let h = Double(size.height)
        for r in regions {
            let box = placement.imageToOutput.boundingBox(of: r.rect)
            let x0 = min(max(box.x, 0), w)
            let y0 = min(max(box.y, 0), h)
            let x1 = min(max(box.maxX, 0), w)
            let y1 = min(max(box.maxY, 0), h)
            guard x1 - x0 >= 0.5, y1 - y0 >= 0.5 else {
                count.dropped += 1
                continue
            }
            let stored = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            let uprightSize = written.uprightSize(ofStored: size)
            let upright = written.inverse.storedRect(forUpright: stored, stored: uprightSize)
            func normal(_ r: Rect, _ s: PixelSize) -> Rect {
                Rect(
                    x: r.x / Double(s.width), y: r.y / Double(s.height), width: r.width / Double(s.width),
                    height: r.height / Double(s.height))
            }
            out.append(Placed(region: r, stored: normal(stored, size), upright: normal(upright, uprightSize)))
            count.kept += 1
        }
        return (out, count)
    }

    /// The XML of the regions of an output of `size` stored pixels (nil: none left), and
    /// what became of them. Without `names`, no person's name is written.
    func xml(_ placement: RegionPlacement?, size: PixelSize, written: Orientation, names: Bool) -> (
        [UInt8]?, Count
    ) {
        guard let placement else { return (nil, Count(dropped: all.count)) }
        let (mwg, count) = Self.placed(all, placement, size: size, written: written)
        let mp = microsoft.map { Self.placed($0, placement, size: size, written: written).placed }
        let ip = iptc.map { Self.placed($0, placement, size: size, written: written).placed }
        guard !mwg.isEmpty else { return (nil, count) }
        return (RegionXMP.description(mwg: mwg, microsoft: mp, iptc: ip, size: size, names: names), count)
    }
}
