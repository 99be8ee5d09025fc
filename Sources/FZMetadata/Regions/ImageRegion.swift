import Geometry

/// A named or typed area of a picture, read from its metadata (`ImageMetadata.regions`):
/// a face, a pet, a focus area, a barcode, or any area an application marked. Its
/// rectangle is in the upright pixels of the file as forcezoom shows it (after the
/// orientation), whatever frame the metadata wrote it in.
public struct ImageRegion: Hashable, Sendable {
    /// Which metadata it was read from.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// MWG regions (`mwg-rs:RegionInfo`: Picasa, digiKam, Lightroom, Apple Photos, immich).
        case mwg
        /// Microsoft Photo regions (`MP:RegionInfo`: Windows Photo Gallery).
        case microsoft
        /// IPTC image regions (`Iptc4xmpExt:ImageRegion`).
        case iptc
    }

    /// The name shown (a person's, for faces), control characters taken out; nil when unnamed.
    public var name: String?
    /// What it marks, lower case: face, pet, focus, barcode, or area (MWG's types; IPTC's
    /// region types by their last word; Microsoft's regions are people, so faces).
    public var type: String
    public var source: Source
    /// The area in upright pixels of this file (sub-pixel), inside the image.
    public var rect: Rect

    public init(name: String?, type: String, source: Source, rect: Rect) {
        self.name = name
        self.type = type
        self.source = source
        self.rect = rect
    }

    /// The rectangle on whole pixels: each edge rounded to the nearest, at least one pixel.
    public var pixelRect: PixelRect {
        let x0 = Int(rect.x.rounded())
        let y0 = Int(rect.y.rounded())
        let x1 = max(x0 + 1, Int(rect.maxX.rounded()))
        let y1 = max(y0 + 1, Int(rect.maxY.rounded()))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether it is a face (what `--at face` takes).
    public var isFace: Bool { type == "face" }
}

/// The regions of a file and what was wrong with the ones left out (one line each).
public struct RegionReading: Hashable, Sendable {
    public var regions: [ImageRegion]
    public var warnings: [String]
    /// Per vocabulary, the regions read in it (`regions` holds one of each name): what an
    /// output writes back in each form.
    package var bySource: [ImageRegion.Source: [ImageRegion]] = [:]

    public init(regions: [ImageRegion] = [], warnings: [String] = []) {
        self.regions = regions
        self.warnings = warnings
    }

    /// The most regions read from one file; the rest are left out with a warning.
    public static let maxRegions = 1000
    /// The most warnings about single regions; the rest are counted in one more line.
    public static let maxWarnings = 20
    /// The longest name kept, in characters (longer ones are cut).
    public static let maxNameLength = 256

    /// The region named `name` (case-insensitive), or the `name`th (from 1) when it is a number
    /// and no region has that name.
    public func region(named name: String) -> ImageRegion? {
        let key = name.lowercased()
        if let r = regions.first(where: { $0.name?.lowercased() == key }) { return r }
        if let n = Int(name), n >= 1, n <= regions.count { return regions[n - 1] }
        return nil
    }

    /// The faces, largest first.
    public var faces: [ImageRegion] {
        regions.filter(\.isFace).sorted { $0.rect.width * $0.rect.height > $1.rect.width * $1.rect.height }
    }

    /// The names, for a message listing them ("Marie Curie", "Pierre Curie", or "region 3"
    /// for an unnamed one).
    public var names: [String] {
        regions.enumerated().map { i, r in r.name.map { "\"\($0)\"" } ?? "region \(i + 1) (\(r.type))" }
    }
}

extension ImageMetadata {
    /// The regions of the XMP packet, in upright pixels of an image stored at `stored` and
    /// shown through `orientation` (`RegionReader` says which frame each vocabulary uses).
    /// A malformed packet has none, and says so.
    public func regions(stored: PixelSize, orientation: Orientation) -> RegionReading {
        guard let xmp else { return RegionReading() }
        let packet: XMPPacket
        do { packet = try XMPPacket(parsing: xmp) } catch {
            return RegionReading(warnings: ["\(error); its regions are not read"])
        }
        var reader = RegionReader(tree: XMPTree(packet), stored: stored, orientation: orientation)
        return reader.read()
    }
}
