import Geometry

/// What libheif 1.15 checks of a file's images and their references when it opens it
/// (`HeifContext::interpret_heif_file` and the property boxes `HeifFile` parses), so that
/// `HEIFBoxFacts` can vouch for files with auxiliary images other than the alpha grid (issue
/// 38): an iPhone photo's depth map and HDR gain map (`auxl` items with an `auxC`) change
/// nothing libheif reports about the primary image, but it refuses the whole file when one of
/// them breaks a rule checked here. A file that breaks one goes to libheif, which then says
/// what is wrong exactly as before.
extension HEIFBoxFacts {
    /// The item types libheif 1.15 treats as images (`item_type_is_image`).
    static let imageTypes: Set<String> = ["hvc1", "grid", "iden", "iovl", "av01", "vvc1"]
    /// The `auxC` types libheif 1.15 takes for alpha.
    static let alphaTypes: Set<String> = [
        "urn:mpeg:avc:2015:auxid:1", "urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha",
    ]
    /// libheif's `MAX_IMAGE_WIDTH` and `MAX_IMAGE_HEIGHT`: an `ispe` of any image above it
    /// refuses the file ("Security limit exceeded").
    static let libheifMaxSide: UInt32 = 32768

    /// Whether libheif opens the file as far as its images and references go, and gives the
    /// primary image alpha exactly when the tile path decodes an alpha grid (`alphaItem`).
    /// - Parameters:
    ///   - types: every `infe` item's type; `refs`: the `iref` references by type, (from, to).
    static func imagesAsLibheifReads(
        _ items: HEIFGrid.Items, types: [UInt32: String], refs: [String: [(UInt32, [UInt32])]], primary: UInt32,
        alphaItem: Bool
    ) -> Bool {
        // libheif parses every property box when it reads the file, used or not.
        guard items.ipco.allSatisfy({ Self.parses($0.0, $0.1) }) else { return false }
        func isImage(_ id: UInt32) -> Bool { types[id].map { imageTypes.contains($0) } ?? false }
        for (id, type) in types where imageTypes.contains(type) {
            // Every image's properties are read: an item without any, or naming one ipco
            // does not have, refuses the file; so does an ispe over libheif's limit.
            guard let indices = items.ipma[id], indices.allSatisfy({ $0 <= items.ipco.count }) else { return false }
            let properties = items.properties(of: id)
            for (kind, body) in properties where kind == "ispe" {
                guard let w = HEIFBoxes.uint(body, body.startIndex + 4, 4),
                    let h = HEIFBoxes.uint(body, body.startIndex + 8, 4), w <= libheifMaxSide, h <= libheifMaxSide
                else { return false }
            }
            // Its codec configuration (checked for hvc1, needed to read an av01 item's data).
            if type == "hvc1" && !properties.contains(where: { $0.0 == "hvcC" }) { return false }
            if type == "av01" && !properties.contains(where: { $0.0 == "av1C" }) { return false }
        }
        // Thumbnails and auxiliary images: one image each refers to, another than itself;
        // an auxiliary image has an auxC. The primary image is neither (conservatively: it
        // would leave the top-level images).
        let thumbnails = Set((refs["thmb"] ?? []).map(\.0).filter(isImage))
        for (type, list) in refs where type == "thmb" || type == "auxl" {
            for (from, to) in list where isImage(from) {
                guard from != primary, to.count == 1, isImage(to[0]), to[0] != from,
                    type == "auxl" ? auxTypes(items.properties(of: from)) != nil : !thumbnails.contains(to[0])
                else { return false }
            }
        }
        // Metadata describes one image; `prem` comes from an image.
        guard (refs["cdsc"] ?? []).allSatisfy({ $0.1.count == 1 && isImage($0.1[0]) }),
            (refs["prem"] ?? []).allSatisfy({ isImage($0.0) })
        else { return false }
        return alphaAsLibheif(items, types: types, refs: refs, primary: primary, alphaItem: alphaItem)
    }

    /// Whether libheif gives the primary image alpha exactly when the tile path decodes an
    /// alpha grid: that grid is then the one alpha-like auxiliary image of the primary, its
    /// `auxC` names alpha as libheif reads it, and its size equals the primary's as libheif
    /// compares them; without one, no auxiliary image of the primary may look like alpha.
    private static func alphaAsLibheif(
        _ items: HEIFGrid.Items, types: [UInt32: String], refs: [String: [(UInt32, [UInt32])]], primary: UInt32,
        alphaItem: Bool
    ) -> Bool {
        // Alpha-like as HEIFGrid or libheif could take it (any auxC of the item).
        let alphaLike = (refs["auxl"] ?? []).filter { from, to in
            to.contains(primary)
                && items.properties(of: from).contains { type, body in
                    guard type == "auxC" else { return false }
                    let name = Self.auxType(body)
                    return alphaTypes.contains(name) || name.contains("alpha") || name.contains("auxid:1")
                }
        }.map(\.0)
        guard alphaItem else { return alphaLike.isEmpty }
        guard alphaLike.count == 1, let alpha = alphaLike.first, types[alpha] == "grid",
            let names = auxTypes(items.properties(of: alpha)), alphaTypes.contains(names.last!),
            let size = libheifSize(items.properties(of: alpha)), size == libheifSize(items.properties(of: primary))
        else { return false }
        return true
    }

    /// An item's `auxC` types in property order (libheif takes the last); nil without one.
    private static func auxTypes(_ properties: [(String, ArraySlice<UInt8>)]) -> [String]? {
        let names = properties.filter { $0.0 == "auxC" }.map { auxType($0.1) }
        return names.isEmpty ? nil : names
    }

    /// An `auxC` box's type: the string after version and flags, up to its terminating 0.
    private static func auxType(_ body: ArraySlice<UInt8>) -> String {
        String(decoding: body.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An image's size as libheif 1.15 compares an alpha image's with its master's: its
    /// `ispe`, then the properties after it (an `irot` of 90 or 270 swaps the sides); nil
    /// without an ispe, or with a `clap` (whose rounding this does not repeat).
    private static func libheifSize(_ properties: [(String, ArraySlice<UInt8>)]) -> PixelSize? {
        var size: PixelSize?
        for (type, body) in properties {
            if type == "ispe" {
                guard let w = HEIFBoxes.uint(body, body.startIndex + 4, 4),
                    let h = HEIFBoxes.uint(body, body.startIndex + 8, 4)
                else { return nil }
                size = PixelSize(width: Int(w), height: Int(h))
            } else if size != nil && type == "clap" {
                return nil
            } else if let s = size, type == "irot", (body.first ?? 0) & 1 == 1 {
                size = PixelSize(width: s.height, height: s.width)
            }
        }
        return size
    }

    /// Whether libheif 1.15's parser accepts a property box (a failed parse refuses the
    /// whole file): the kinds it reads and that images carry; others pass.
    static func parses(_ type: String, _ body: ArraySlice<UInt8>) -> Bool {
        switch type {
        case "hvcC": return hvcCParses(body)
        // Version and flags, then a string that must end in 0 unless nothing follows.
        case "auxC": return body.count == 4 || (body.count > 4 && body.dropFirst(4).contains(0))
        case "ispe": return body.count >= 12
        case "pixi": return body.count >= 5 && body.count >= 5 + Int(body[body.startIndex + 4])
        case "irot", "imir": return !body.isEmpty
        case "clap":
            // Eight 32-bit numbers; denominators non-zero, sizes and denominators within Int32.
            let v = (0..<8).compactMap { HEIFBoxes.uint(body, body.startIndex + 4 * $0, 4) }
            guard v.count == 8 else { return false }
            let limited = [v[0], v[1], v[2], v[3], v[5], v[7]].allSatisfy { $0 <= UInt32(Int32.max) }
            return limited && [v[1], v[3], v[5], v[7]].allSatisfy { $0 != 0 }
        default: return true
        }
    }

    /// Whether an `hvcC` body reads to the end of its NAL unit arrays (libheif's
    /// `Box_hvcC::parse` fails on any short read), as `fz_de265_hvcc_info` checks it.
    static func hvcCParses(_ h: ArraySlice<UInt8>) -> Bool {
        guard h.count >= 23 else { return false }
        var i = h.startIndex + 23
        for _ in 0..<Int(h[h.startIndex + 22]) {
            guard let units = HEIFBoxes.uint(h, i + 1, 2) else { return false }
            i += 3
            for _ in 0..<Int(units) {
                guard let n = HEIFBoxes.uint(h, i, 2), i + 2 + Int(n) <= h.endIndex else { return false }
                i += 2 + Int(n)
            }
        }
        return true
    }
}
