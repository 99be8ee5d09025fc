import Geometry

/// The metadata a file carries besides its pixels and colour description, as read: the
/// EXIF block (TIFF bytes, without JPEG's "Exif\0\0") and the XMP packet (XML bytes).
public struct ImageMetadata: Hashable, Sendable {
    public var exif: [UInt8]?
    public var xmp: [UInt8]?
    /// The IPTC-NAA record (IIM datasets), from JPEG's APP13.
    public var iptc: [UInt8]?

    public init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, iptc: [UInt8]? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }

    /// The kinds present, in vips' `keep` names ("exif", "xmp", "iptc").
    public var kinds: [String] {
        (exif != nil ? ["exif"] : []) + (xmp != nil ? ["xmp"] : []) + (iptc != nil ? ["iptc"] : [])
    }

    /// What `info` says of one block: its size, whether it parses (an output would carry
    /// it) and whether it holds a location.
    public struct Summary: Hashable, Sendable {
        public var bytes: Int
        public var valid: Bool
        public var location: Bool
    }

    public var exifSummary: Summary? {
        exif.map { e in
            let block = try? EXIFBlock(parsing: e)
            return Summary(bytes: e.count, valid: block != nil, location: block?.hasLocation ?? false)
        }
    }

    public var iptcSummary: Summary? {
        iptc.map { i in
            let record = try? IPTCBlock(parsing: i)
            return Summary(bytes: i.count, valid: record != nil, location: record?.hasLocation ?? false)
        }
    }

    public var xmpSummary: Summary? {
        xmp.map { x in
            let packet = try? XMPPacket(parsing: x)
            return Summary(bytes: x.count, valid: packet != nil, location: packet?.hasLocation ?? false)
        }
    }
}

/// Which metadata outputs keep (`--strip`, `--no-location`), named as vips 8.15's `keep`:
/// exif, xmp, iptc (which only JPEG, in APP13, has a place for). The colour description is
/// `ColorPolicy`'s, not this.
public struct MetadataPolicy: Hashable, Sendable {
    /// The kinds kept.
    public struct Keep: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let exif = Keep(rawValue: 1 << 0)
        public static let xmp = Keep(rawValue: 1 << 1)
        public static let iptc = Keep(rawValue: 1 << 2)
        public static let all: Keep = [.exif, .xmp, .iptc]
    }

    public var keep: Keep
    /// Whether the GPS IFD and XMP's location properties are kept.
    public var location: Bool
    /// Whether people's names are kept (`--no-names` leaves them out of the regions and
    /// IPTC's PersonInImage, keeping the regions themselves).
    public var names: Bool

    public init(keep: Keep = .all, location: Bool = true, names: Bool = true) {
        self.keep = keep
        self.location = location
        self.names = names
    }

    /// Everything copied (the default).
    public static let keepAll = MetadataPolicy()
    /// Nothing copied (`--strip`).
    public static let strip = MetadataPolicy(keep: [], location: false, names: false)

    /// What an output made from `metadata` carries under this policy: each block parsed
    /// once (a malformed one left out, with its reason in `warnings`).
    /// - Parameter upright: whether the output's pixels are upright (the orientation was
    ///   applied, or the decoder applies its own, as HEIF's): the EXIF and XMP orientation
    ///   is then reset to 1.
    /// - Parameter frame: the picture the regions are read in (nil: an output carries none).
    public func carried(_ metadata: ImageMetadata, upright: Bool, frame: RegionFrame? = nil) -> (
        CarriedMetadata?, warnings: [String]
    ) {
        var warnings: [String] = []
        var exif: EXIFBlock?
        var xmp: XMPPacket?
        var iptc: IPTCBlock?
        if keep.contains(.iptc), let bytes = metadata.iptc {
            do { iptc = try IPTCBlock(parsing: bytes) } catch {
                warnings.append("\(error); IPTC left out of the output")
            }
        }
        if keep.contains(.exif), let bytes = metadata.exif {
            do {
                let block = try EXIFBlock(parsing: bytes)
                if block.droppedEntries > 0 {
                    warnings.append(
                        "EXIF entries left out of the output: \(block.droppedEntries) (values outside the block, of unknown types, or pointers not followed)"
                    )
                }
                exif = block
            } catch { warnings.append("\(error); EXIF left out of the output") }
        }
        if keep.contains(.xmp), let bytes = metadata.xmp {
            do { xmp = try XMPPacket(parsing: bytes) } catch { warnings.append("\(error); XMP left out of the output") }
        }
        guard exif != nil || xmp != nil || iptc != nil else { return (nil, warnings) }
        var carried = CarriedMetadata(exif: exif, xmp: xmp, iptc: iptc, upright: upright, location: location)
        carried.names = names
        if let xmp, let frame { carried.regions = CarriedRegions(xmp, frame: frame) }
        return (carried, warnings)
    }
}

/// The metadata an output carries, parsed from its input's and ready to be written for
/// the output's size (`blocks(for:)`).
public struct CarriedMetadata: Hashable, Sendable {
    package var exif: EXIFBlock?
    package var xmp: XMPPacket?
    package var iptc: IPTCBlock?
    package var upright: Bool
    package var location: Bool
    /// Whether people's names are written (`MetadataPolicy.names`).
    package var names = true
    /// The input's regions, written again in each output's pixels (`placed`); nil when it
    /// has no XMP or its frame was not given.
    package var regions: CarriedRegions?
    /// Where the output's pixels come from (`placed`): without it an output carries no regions.
    package var placement: RegionPlacement?

    package init(exif: EXIFBlock?, xmp: XMPPacket?, iptc: IPTCBlock?, upright: Bool, location: Bool) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
        self.upright = upright
        self.location = location
    }

    /// The APP13 payload a JPEG output carries (IPTC has no place in the other containers).
    /// Nil when nothing is left (a record that held only the location, with `--no-location`).
    public var jpegAPP13: [UInt8]? {
        guard let record = iptc?.rewritten(location: location), !record.isEmpty else { return nil }
        return IPTCBlock.app13(record)
    }

    /// Blocks already written for one size (`resolved(for:)`).
    package var written: Written?
    package struct Written: Hashable, Sendable {
        var size: PixelSize
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var placement: RegionPlacement?
    }

    /// The same metadata with its blocks written once for `size`: many outputs of one size
    /// (crop's points, animate's frames) then copy them instead of rewriting each time.
    public func resolved(for size: PixelSize) -> CarriedMetadata {
        var r = self
        let (e, x) = blocks(for: size)
        r.written = Written(size: size, exif: e, xmp: x, placement: placement)
        return r
    }

    /// The EXIF (TIFF bytes) and XMP (XML bytes) for an output of `size` pixels (the XMP
    /// with the regions placed in them, `placed`).
    public func blocks(for size: PixelSize) -> (exif: [UInt8]?, xmp: [UInt8]?) {
        let cached = written.flatMap { $0.size == size ? $0 : nil }
        let e = cached.map(\.exif) ?? exif?.rewritten(size: size, upright: upright, location: location)
        if let cached, cached.placement == placement { return (e, cached.xmp) }
        return (e, xmp?.rewritten(size: size, upright: upright, location: location, edit: regionEdit(size)))
    }

    /// This metadata as a format's containers can hold it (`OutputFormat.metadata`, as its
    /// encoder declares them): a kind the format has no place for is left out (IPTC outside
    /// JPEG), and a block over its container's limit (JPEG's 64 KiB segments) with a
    /// warning. (The rewritten EXIF's length does not depend on the output's size: the
    /// dimensions are LONGs in their entries.)
    public func fitting(_ slots: MetadataContainers) -> (CarriedMetadata?, warnings: [String]) {
        var fitted = self
        var warnings: [String] = []
        fitted.written = nil
        if let slot = slots.iptc {
            if let a = jpegAPP13, !slot.holds(a.count) {
                fitted.iptc = nil
                warnings.append("IPTC record of \(a.count) bytes is over \(slot.place); left out of the output")
            }
        } else {
            fitted.iptc = nil
        }
        if slots.exif == nil { fitted.exif = nil }
        if slots.xmp == nil { fitted.xmp = nil }
        // The blocks are only written out (for any size) where a container has a limit.
        if slots.exif?.limit != nil || slots.xmp?.limit != nil {
            // With every region kept, as in an output of the whole picture (the longest packet).
            var probe = fitted
            let whole = regions?.frame.working ?? PixelSize(width: 1, height: 1)
            probe.placement = RegionPlacement(imageToOutput: .identity, output: whole)
            let (e, x) = probe.blocks(for: whole)
            if let e, let slot = slots.exif, !slot.holds(e.count) {
                fitted.exif = nil
                warnings.append("EXIF block of \(e.count) bytes is over \(slot.place); left out of the output")
            }
            if let x, let slot = slots.xmp, !slot.holds(x.count) {
                fitted.xmp = nil
                warnings.append("XMP packet of \(x.count) bytes is over \(slot.place); left out of the output")
            }
        }
        return fitted.exif == nil && fitted.xmp == nil && fitted.iptc == nil ? (nil, warnings) : (fitted, warnings)
    }
}

/// JPEG's metadata segment prefixes (`JPEGImageEncoder` writes them and counts them in its limits).
package enum JPEGMetadata {
    /// The APP1 prefix of an XMP packet.
    package static let xmpNamespace = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    package static let exifPrefix = Array("Exif".utf8) + [0, 0]
}
