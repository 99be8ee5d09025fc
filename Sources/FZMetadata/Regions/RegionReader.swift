import Geometry

/// Reads the regions of an XMP packet in its three vocabularies and maps each to upright
/// pixels (docs/regions.md says which frame each is written in and why):
/// - MWG (`mwg-rs:Regions`, exiftool's RegionInfo): centre and size, normalised, in the *stored* pixels
///   (before the orientation), as the MWG guidelines (2010, section 5.9) define them and
///   exiftool's `rotate_regions.config` rotates them; `AppliedToDimensions` names the image
///   they were measured on.
/// - Microsoft Photo (`MP:RegionInfo/MPRI:Regions`): a top-left rectangle, normalised, in the
///   *upright* picture Windows Photo Gallery shows and tags.
/// - IPTC (`Iptc4xmpExt:ImageRegion`): a boundary (rectangle, circle or polygon) in relative
///   or pixel units, read in the stored pixels as MWG's (pixel units count stored pixels).
/// Where two vocabularies name the same region, MWG's wins, then IPTC's.
struct RegionReader {
    static let mwgRS = "http://www.metadataworkinggroup.com/schemas/regions/"
    static let area = "http://ns.adobe.com/xmp/sType/Area#"
    static let dim = "http://ns.adobe.com/xap/1.0/sType/Dimensions#"
    static let mp = "http://ns.microsoft.com/photo/1.2/"
    static let mpri = "http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
    static let mpreg = "http://ns.microsoft.com/photo/1.2/t/Region#"
    static let iptcExt = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"

    /// A region's area before mapping: normalised to the frame it was written in.
    struct Candidate {
        var name: String?
        var type: String
        var source: ImageRegion.Source
        var normalized: Rect
        var upright: Bool
        var label: String
    }

    let tree: XMPTree
    let stored: PixelSize
    let orientation: Orientation
    var warnings: [String] = []
    var regionWarnings = 0
    var budgetLeft = RegionReading.maxRegions
    var overBudget = 0
    /// Per vocabulary, its regions that were read (a name another vocabulary also has among
    /// them): what an output writes back in each form (`CarriedRegions`).
    var bySource: [ImageRegion.Source: [ImageRegion]] = [:]

    init(tree: XMPTree, stored: PixelSize, orientation: Orientation) {
        self.tree = tree
        self.stored = stored
        self.orientation = orientation
    }

    var upright: PixelSize { orientation.uprightSize(ofStored: stored) }

    /// One line about one region (the first `maxWarnings`; the rest are counted).
    mutating func warn(_ line: String) {
        regionWarnings += 1
        if regionWarnings <= RegionReading.maxWarnings { warnings.append(line) }
    }

    /// Takes one region from the budget: false once it is spent (the region is left out).
    mutating func take() -> Bool {
        guard budgetLeft > 0 else {
            overBudget += 1
            return false
        }
        budgetLeft -= 1
        return true
    }

    mutating func read() -> RegionReading {
        var candidates: [Candidate] = []
        for info in tree.elements(Self.mwgRS, "Regions") { candidates += mwg(tree.resource(info)) }
        for info in tree.elements(Self.iptcExt, "ImageRegion") { candidates += iptc(info) }
        for info in tree.elements(Self.mp, "RegionInfo") { candidates += microsoft(tree.resource(info)) }
        let regions = resolved(candidates)
        if regionWarnings > RegionReading.maxWarnings {
            warnings.append("\(regionWarnings - RegionReading.maxWarnings) more regions left out for the same reasons")
        }
        if overBudget > 0 {
            warnings.append(
                "\(RegionReading.maxRegions + overBudget) regions, over the budget of \(RegionReading.maxRegions): the first \(RegionReading.maxRegions) read, \(overBudget) left out"
            )
        }
        var reading = RegionReading(regions: regions, warnings: warnings)
        reading.bySource = bySource
        return reading
    }

    /// The candidates mapped to upright pixels, duplicates left out (one warning each).
    mutating func resolved(_ candidates: [Candidate]) -> [ImageRegion] {
        var out: [ImageRegion] = []
        var byName: [String: Int] = [:]
        let u = upright
        for c in candidates {
            let r = pixels(c)
            guard r.width > 0, r.height > 0 else {
                warn("\(c.label): its area lies outside the image; left out")
                continue
            }
            if let name = c.name {
                let key = name.lowercased()
                if let i = byName[key] {
                    let kept = out[i]
                    if kept.source != c.source {
                        bySource[c.source, default: []].append(
                            ImageRegion(name: c.name, type: c.type, source: c.source, rect: r))
                    }
                    if kept.source == c.source {
                        warn("\(c.label): the name is already taken by another \(c.source.rawValue) region; left out")
                    } else if !Self.agree(kept.rect, r, in: u) {
                        warn(
                            "\(c.label) disagrees with the \(kept.source.rawValue) region of the same name (\(Self.text(r)) against \(Self.text(kept.rect)) in upright pixels); the \(kept.source.rawValue) one is used"
                        )
                    }
                    continue
                }
                byName[key] = out.count
            }
            out.append(ImageRegion(name: c.name, type: c.type, source: c.source, rect: r))
            bySource[c.source, default: []].append(out[out.count - 1])
        }
        return out
    }

    /// Two areas of one region agree when their centres lie within a tenth of the image's
    /// longer side and their sizes within a quarter of it.
    static func agree(_ a: Rect, _ b: Rect, in size: PixelSize) -> Bool {
        let tolerance = Double(max(size.width, size.height))
        let dc = max(abs((a.x + a.maxX) - (b.x + b.maxX)), abs((a.y + a.maxY) - (b.y + b.maxY))) / 2
        let ds = max(abs(a.width - b.width), abs(a.height - b.height))
        return dc <= tolerance / 10 && ds <= tolerance / 4
    }

    static func text(_ r: Rect) -> String {
        func f(_ v: Double) -> String { String(Int(v.rounded())) }
        return "\(f(r.width))x\(f(r.height))+\(f(r.x))+\(f(r.y))"
    }

    /// A candidate's area in upright pixels, clipped to the image.
    func pixels(_ c: Candidate) -> Rect {
        let n = c.normalized
        let frame = c.upright ? upright : stored
        let inFrame = Rect(
            x: n.x * Double(frame.width), y: n.y * Double(frame.height), width: n.width * Double(frame.width),
            height: n.height * Double(frame.height))
        let r = c.upright ? inFrame : orientation.inverse.storedRect(forUpright: inFrame, stored: upright)
        let x0 = min(max(r.x, 0), Double(upright.width))
        let y0 = min(max(r.y, 0), Double(upright.height))
        let x1 = min(max(r.maxX, 0), Double(upright.width))
        let y1 = min(max(r.maxY, 0), Double(upright.height))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
