import FZHEIF
import FZImage
import FZSystem

/// Apple's HDR gain map written into an HEIC output, as an iPhone writes it: libheif 1.15 has no
/// call that adds an auxiliary image, so the map is coded by libheif alone (a monochrome HEVC
/// still, `HEIFEncoder.encodeMonochrome`) and its items are joined to the file libheif wrote
/// for the primary image, box by box (`joined`):
///
/// - the map's image item (and, for an odd size, the tile of its one-tile grid), hidden, with
///   its own `hvcC`, `ispe` and `pixi` (its `colr`, which Apple's has not, left out) and an
///   `auxC` of type `urn:com:apple:photo:2020:aux:hdrgainmap`;
/// - an `auxl` reference from the map to the primary item;
/// - the map's XMP (`HDRGainMap` namespace: HDRGainMapVersion and HDRGainMapHeadroom), a
///   `mime` item described by a `cdsc` reference to the map;
/// - new `iinf`, `iref`, `iprp` (`ipco`, `ipma`), `idat` and `iloc` boxes, and one `mdat` with
///   every item's data, its offsets computed afresh.
///
/// The primary's EXIF (Apple's maker note, with the headroom tags 33 and 48) is libheif's item
/// as the metadata settings made it. Both files are read with bounds checks: a box that is cut
/// short, an item whose data lies outside the file, or more items than `maxItems` is refused
/// (`Invalid`), and the caller then writes the primary alone.
package enum AppleHEICGainMap {
    package struct Invalid: Error {
        package var detail: String
    }

    /// The most items either file may have: libheif writes 3 for a primary with EXIF and XMP,
    /// 2 for an odd-sized map.
    static let maxItems = 4096

    /// The map's XMP packet, as Apple's HDRGainMap namespace says it (iOS 18 writes the headroom
    /// here too; with it the map is read right even where the EXIF maker note is left out).
    static func xmp(_ parameters: GainMapParameters) -> [UInt8] {
        let version = GainMapParameters.writtenVersion(parameters.version, default: "65536")
        let headroom = parameters.appleHeadroom.map {
            "\n         <HDRGainMap:HDRGainMapHeadroom>\($0)</HDRGainMap:HDRGainMapHeadroom>"
        }
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 6.0.0">
               <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                  <rdf:Description rdf:about=""
                        xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/">
                     <HDRGainMap:HDRGainMapVersion>\(version)</HDRGainMap:HDRGainMapVersion>\(headroom ?? "")
                  </rdf:Description>
               </rdf:RDF>
            </x:xmpmeta>
            """
        return Array(text.utf8)
    }

    /// `primary` with `map` (gray) coded by `encode` and joined to it with its XMP; why not,
    /// when the map cannot be coded or joined (the caller writes `primary` alone).
    package static func joined(
        primary: [UInt8], map: Image, parameters: GainMapParameters,
        encode: (Image) throws(OutputError) -> [UInt8]
    ) -> Result<[UInt8], Invalid> {
        guard map.format == .gray else { return .failure(Invalid(detail: "the gain map is not gray")) }
        let coded: [UInt8]
        do {
            coded = try encode(map)
        } catch {
            let why: String
            if case .writeFailed(_, let r) = error { why = r } else { why = error.reason }
            return .failure(Invalid(detail: "the gain map could not be coded (\(why))"))
        }
        do {
            return .success(try joined(primary: primary, map: coded, xmp: xmp(parameters)))
        } catch {
            return .failure(Invalid(detail: "the gain map could not be joined to the HEIC (\(error.detail))"))
        }
    }

    /// `primary` (libheif's HEIC of the output) with the map file's image (libheif's HEIC of
    /// the gain map) joined to it as Apple's hdrgainmap auxiliary image, and `xmp` as the map's
    /// XMP item.
    static func joined(primary: [UInt8], map: [UInt8], xmp: [UInt8]) throws(Invalid) -> [UInt8] {
        let p = try Parts(primary, what: "the HEIC")
        let m = try Parts(map, what: "the gain map's HEIC")
        // The map's items are numbered after the primary file's, the XMP item after them.
        let shift = p.items.map(\.id).max() ?? 0
        let mapItem = m.primary + shift
        let xmpItem = (m.items.map(\.id).max() ?? 0) + shift + 1
        guard xmpItem <= 0xFFFF else { throw Invalid(detail: "item numbers beyond 16 bits") }
        // Properties: the primary file's, then the map's (less its colr), then auxC.
        var properties = p.properties
        var index: [Int: Int] = [:]
        for (k, prop) in m.properties.enumerated() where HEIFBoxes.fourCC(prop[...], 4) != "colr" {
            properties.append(prop)
            index[k + 1] = properties.count
        }
        properties.append(box("auxC", [0, 0, 0, 0] + Array(HEIFGainMap.appleType.utf8) + [0]))
        var associations = p.associations
        for (id, list) in m.associations {
            var mapped = list.compactMap { e in
                index[e.index].map { Parts.Association(index: $0, essential: e.essential) }
            }
            if id == m.primary { mapped.append(Parts.Association(index: properties.count, essential: true)) }
            associations.append((id + shift, mapped))
        }
        var refs =
            p.refs + m.refs.map { Parts.Reference(type: $0.type, from: $0.from + shift, to: $0.to.map { $0 + shift }) }
        refs += [
            Parts.Reference(type: "auxl", from: mapItem, to: [p.primary]),
            Parts.Reference(type: "cdsc", from: xmpItem, to: [mapItem]),
        ]
        // Every map item hidden: the map is no image of its own.
        var infe = p.items.map(\.infe)
        for item in m.items {
            infe.append(
                box("infe", [2, 0, 0, 1] + be(Int(item.id + shift), 2) + [0, 0] + Array(item.type.utf8) + [0]))
        }
        infe.append(
            box(
                "infe",
                [2, 0, 0, 1] + be(Int(xmpItem), 2) + [0, 0] + Array("mime".utf8) + [0]
                    + Array("application/rdf+xml".utf8) + [0]))
        // Data: method 0 into the one new mdat; method 1 (idat) in place, the map's idat after the primary's.
        var items: [Parts.Located] = p.items.map(\.located)
        for item in m.items {
            var l = item.located
            l.id += shift
            if l.method == 1 {
                l.ranges = l.ranges.map { ($0.lowerBound + p.idat.count)..<($0.upperBound + p.idat.count) }
            }
            items.append(l)
        }
        items.append(Parts.Located(id: xmpItem, method: 0, ranges: [0..<xmp.count], bytes: xmp))
        let head = Head(
            kept: p.kept, primary: p.primary, infe: infe, refs: refs, properties: properties,
            associations: associations, idat: p.idat + m.idat, items: items)
        let start = p.ftyp.count + head.meta(mdatStart: 0).count + 8
        let body = items.filter { $0.method == 0 }.reduce(0) { $0 + $1.ranges.reduce(0) { $0 + $1.count } }
        guard start + body < Int(UInt32.max) else { throw Invalid(detail: "the file would pass 4 GB") }
        var out = p.ftyp + head.meta(mdatStart: start) + be(body + 8, 4) + Array("mdat".utf8)
        out.reserveCapacity(start + body)
        for item in items where item.method == 0 {
            for r in item.ranges { out += item.bytes[r] }
        }
        return out
    }

    static func be(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - $0))) } }

    /// A box of `type` around `body` (`HEIFGrid.Items.box`, the one box maker).
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { HEIFGrid.Items.box(type, body[...]) }

    /// The joined file's `meta` box, for its `mdat` at `mdatStart`.
    struct Head {
        var kept: [[UInt8]]
        var primary: UInt32
        var infe: [[UInt8]]
        var refs: [Parts.Reference]
        var properties: [[UInt8]]
        var associations: [(UInt32, [Parts.Association])]
        var idat: [UInt8]
        var items: [Parts.Located]

        func meta(mdatStart: Int) -> [UInt8] {
            var body: [UInt8] = [0, 0, 0, 0] + kept.joined()
            body += box("pitm", [0, 0, 0, 0] + be(Int(primary), 2))
            body += box("iinf", [0, 0, 0, 0] + be(infe.count, 2) + infe.joined())
            var iref: [UInt8] = [0, 0, 0, 0]
            for r in refs {
                iref += box(r.type, be(Int(r.from), 2) + be(r.to.count, 2) + r.to.flatMap { be(Int($0), 2) })
            }
            body += box("iref", iref)
            let wide = properties.count > 127
            var ipma: [UInt8] = [0, 0, 0, wide ? 1 : 0] + be(associations.count, 4)
            for (id, list) in associations {
                ipma += be(Int(id), 2) + [UInt8(list.count)]
                for a in list {
                    ipma +=
                        wide ? be(a.index | (a.essential ? 0x8000 : 0), 2) : [UInt8(a.index | (a.essential ? 0x80 : 0))]
                }
            }
            body += box("iprp", box("ipco", Array(properties.joined())) + box("ipma", ipma))
            if !idat.isEmpty { body += box("idat", idat) }
            // iloc version 1 (construction methods), 4-byte offsets and lengths, no base offset.
            var iloc: [UInt8] = [1, 0, 0, 0, 0x44, 0x00] + be(items.count, 2)
            var at = mdatStart
            for item in items {
                iloc += be(Int(item.id), 2) + be(item.method, 2) + [0, 0] + be(item.ranges.count, 2)
                for r in item.ranges {
                    iloc += be(item.method == 0 ? at : r.lowerBound, 4) + be(r.count, 4)
                    if item.method == 0 { at += r.count }
                }
            }
            body += box("iloc", iloc)
            return box("meta", body)
        }
    }
}
