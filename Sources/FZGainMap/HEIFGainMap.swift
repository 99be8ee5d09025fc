import FZHEIF
import FZMetadata
import FZSystem
import Geometry

/// Apple's HEIC gain map: an auxiliary image (`auxl` to the primary item) whose `auxC` type is
/// `urn:com:apple:photo:2020:aux:hdrgainmap`, its size from its `ispe`, its XMP (a `cdsc` item)
/// carrying HDRGainMapVersion, and the headroom from the primary's EXIF maker note
/// (`AppleMakerNote`). Read from the `meta` box alone, with `HEIFBoxes`' bounded readers.
package enum HEIFGainMap {
    static let appleType = "urn:com:apple:photo:2020:aux:hdrgainmap"
    static let samsungType = "urn:com:samsung:photo:2024:aux:hdrgainmap"
    /// The most bytes of a `meta` box read (a 200 MP grid's is well under 1 MB).
    static let metaLimit = 16 << 20

    /// Looks for the gain map in the HEIF `file` (rewound first; left anywhere).
    package static func probe(_ file: CFile, primary: PixelSize, exif: [UInt8]?) -> GainMap.Probe {
        guard let meta = metaBody(file) else { return .none }
        var types: [UInt32: String] = [:]
        var primaryItem: UInt32?
        var auxl: [(from: UInt32, to: [UInt32])] = []
        var cdsc: [(from: UInt32, to: [UInt32])] = []
        var properties: [HEIFBoxes.Box] = []
        var associations: [UInt32: [Int]] = [:]
        var iloc: ArraySlice<UInt8> = []
        for child in HEIFBoxes.boxes(meta) {
            let b = child.body
            switch child.type {
            case "pitm":
                guard let v = b.first else { break }
                primaryItem = HEIFBoxes.uint(b, b.startIndex + 4, v == 0 ? 2 : 4)
            case "iinf": types = itemTypes(b)
            case "iref":
                guard let v = b.first else { break }
                let w = v == 0 ? 2 : 4
                for r in HEIFBoxes.boxes(b.dropFirst(4)) where r.type == "auxl" || r.type == "cdsc" {
                    let e = r.body
                    guard let from = HEIFBoxes.uint(e, e.startIndex, w), let n = HEIFBoxes.uint(e, e.startIndex + w, 2)
                    else { continue }
                    let to = (0..<Int(min(n, 4096))).compactMap { HEIFBoxes.uint(e, e.startIndex + w + 2 + $0 * w, w) }
                    if r.type == "auxl" { auxl.append((from, to)) } else { cdsc.append((from, to)) }
                }
            case "iprp":
                for p in HEIFBoxes.boxes(b) {
                    if p.type == "ipco" { properties = HEIFBoxes.boxes(p.body) }
                    if p.type == "ipma" { associations.merge(HEIFBoxes.associations(p.body)) { a, _ in a } }
                }
            case "iloc": iloc = b
            default: break
            }
        }
        guard let primaryItem else { return .none }
        func props(_ item: UInt32) -> [HEIFBoxes.Box] {
            (associations[item] ?? []).compactMap { $0 >= 1 && $0 <= properties.count ? properties[$0 - 1] : nil }
        }
        func auxType(_ item: UInt32) -> String? {
            guard let c = props(item).first(where: { $0.type == "auxC" }), c.body.count > 4 else { return nil }
            return String(decoding: c.body.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
        }
        let auxiliary = { (type: String) in auxl.first { $0.to.contains(primaryItem) && auxType($0.from) == type }?.from
        }
        guard let item = auxiliary(appleType) else { return auxiliary(samsungType).map(samsungNote) ?? .none }
        guard let ispe = props(item).first(where: { $0.type == "ispe" }),
            let w = HEIFBoxes.uint(ispe.body, ispe.body.startIndex + 4, 4),
            let h = HEIFBoxes.uint(ispe.body, ispe.body.startIndex + 8, 4), w > 0, h > 0
        else { return .malformed("the gain map (item \(item)) has no size") }
        let size = PixelSize(width: Int(w), height: Int(h))
        guard size.width <= primary.width, size.height <= primary.height else {
            return .malformed("the gain map (\(size)) is larger than the image (\(primary))")
        }
        var parameters = GainMapParameters(scheme: .apple, version: "")
        // Its XMP (a `cdsc` item of type mime) holds HDRGainMapVersion; a newer one the headroom too.
        for ref in cdsc where ref.to.contains(item) && types[ref.from] == "mime" {
            guard let loc = HEIFBoxes.location(of: ref.from, iloc: iloc), loc.method == 0, loc.length > 0,
                loc.length <= XMPPacket.maxBytes, file.seek(to: loc.offset)
            else { continue }
            if let p = try? GainMapParameters(xmp: file.read(upTo: loc.length)), p.scheme == .apple {
                parameters = p
            } else if let version = appleVersion(file, loc) {
                parameters.version = version
            }
        }
        if parameters.appleHeadroom == nil {
            guard let exif, let headroom = AppleMakerNote.headroom(exif: exif) else {
                return .malformed("the gain map's headroom is missing (no HDRGainMapHeadroom, no Apple maker note 33)")
            }
            parameters.setAppleHeadroom(headroom)
        }
        return .found(
            GainMap(
                container: .heifAuxiliary, offset: 0, length: 0, item: item, size: size, channels: 1,
                parameters: parameters))
    }

    /// Samsung's map (Galaxy S24 on): where its parameters are kept is not published and
    /// forcezoom reads none; said, not dropped silently.
    private static func samsungNote(_ item: UInt32) -> GainMap.Probe {
        .malformed(
            "its Samsung gain map (auxiliary image \(item), \(samsungType)) has parameters forcezoom cannot read")
    }

    /// HDRGainMapVersion alone (an XMP without a headroom).
    private static func appleVersion(_ file: CFile, _ loc: (method: Int, offset: Int, length: Int)) -> String? {
        guard file.seek(to: loc.offset), let packet = try? XMPPacket(parsing: file.read(upTo: loc.length)) else {
            return nil
        }
        return GainMapParameters.properties(packet)[GainMapParameters.apple]?["HDRGainMapVersion"]?.first
    }

    /// Each item's type, from `iinf` (`infe` version 2 or 3).
    private static func itemTypes(_ b: ArraySlice<UInt8>) -> [UInt32: String] {
        guard let v = b.first else { return [:] }
        var types: [UInt32: String] = [:]
        for infe in HEIFBoxes.boxes(b.dropFirst(v == 0 ? 6 : 8)) where infe.type == "infe" {
            let e = infe.body
            guard let ev = e.first, ev >= 2 else { continue }
            let idSize = ev == 2 ? 2 : 4
            if let id = HEIFBoxes.uint(e, e.startIndex + 4, idSize), e.count >= 4 + idSize + 2 + 4 {
                types[id] = HEIFBoxes.fourCC(e, e.startIndex + 4 + idSize + 2)
            }
        }
        return types
    }

    /// The first `meta` box's children (after its version and flags), read from the file's
    /// top-level boxes by their headers alone.
    private static func metaBody(_ file: CFile) -> ArraySlice<UInt8>? {
        guard file.rewind() else { return nil }
        var at = 0
        for _ in 0..<64 {
            guard file.seek(to: at) else { return nil }
            let head = file.read(upTo: 16)
            guard head.count >= 8, var size = HEIFBoxes.uint(head[...], 0, 4).map(Int.init) else { return nil }
            var header = 8
            if size == 1 {
                guard let large = HEIFBoxes.uint64(head[...], 8), large <= UInt64(Int.max) else { return nil }
                size = Int(large)
                header = 16
            }
            guard size >= header else { return nil }
            if HEIFBoxes.fourCC(head[...], 4) == "meta" {
                guard size - header <= metaLimit, file.seek(to: at + header) else { return nil }
                let body = file.read(upTo: size - header)
                return body.count == size - header && body.count >= 4 ? body.dropFirst(4) : nil
            }
            at += size
        }
        return nil
    }
}
