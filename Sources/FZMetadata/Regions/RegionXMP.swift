import Geometry

/// The region properties an output's XMP carries, written as exiftool writes them (one
/// `rdf:Description` of their own, every namespace declared on it, so it stands whatever
/// prefixes the rest of the packet uses): MWG's `mwg-rs:Regions` (centre and size, normalised
/// to the output's stored pixels, `AppliedToDimensions` its size), Microsoft's `MP:RegionInfo`
/// (a top-left rectangle normalised to the upright picture) and IPTC's
/// `Iptc4xmpExt:ImageRegion` (a relative rectangle in the stored pixels).
enum RegionXMP {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// The properties an output's copy replaces.
    static let regionProperties: Set<XMPNamespaces.Name> = [
        XMPNamespaces.Name(uri: RegionReader.mwgRS, local: "Regions"),
        XMPNamespaces.Name(uri: RegionReader.mp, local: "RegionInfo"),
        XMPNamespaces.Name(uri: RegionReader.iptcExt, local: "ImageRegion"),
    ]

    /// The properties that name the people in the picture besides the regions (left out with
    /// `--no-names`): IPTC's PersonInImage and PersonInImageWDetails.
    static let personProperties: Set<XMPNamespaces.Name> = [
        XMPNamespaces.Name(uri: RegionReader.iptcExt, local: "PersonInImage"),
        XMPNamespaces.Name(uri: RegionReader.iptcExt, local: "PersonInImageWDetails"),
    ]

    /// The `rdf:Description` holding the placed regions; names left out unless `names`.
    static func description(
        mwg: [CarriedRegions.Placed], microsoft: [CarriedRegions.Placed]?, iptc: [CarriedRegions.Placed]?,
        size: PixelSize, names: Bool
    ) -> [UInt8] {
        var x = "\n  <rdf:Description rdf:about=\"\" xmlns:rdf=\"\(rdf)\""
        x += "\n    xmlns:mwg-rs=\"\(RegionReader.mwgRS)\" xmlns:stDim=\"\(RegionReader.dim)\""
        x += " xmlns:stArea=\"\(RegionReader.area)\""
        if microsoft != nil {
            x += "\n    xmlns:MP=\"\(RegionReader.mp)\" xmlns:MPRI=\"\(RegionReader.mpri)\""
            x += " xmlns:MPReg=\"\(RegionReader.mpreg)\""
        }
        if iptc != nil { x += "\n    xmlns:Iptc4xmpExt=\"\(RegionReader.iptcExt)\"" }
        x += ">\n   <mwg-rs:Regions rdf:parseType=\"Resource\">"
        x +=
            "\n    <mwg-rs:AppliedToDimensions stDim:w=\"\(size.width)\" stDim:h=\"\(size.height)\" stDim:unit=\"pixel\"/>"
        x += "\n    <mwg-rs:RegionList>\n     <rdf:Bag>"
        for p in mwg {
            let a = p.stored
            x += "\n      <rdf:li rdf:parseType=\"Resource\">"
            x +=
                "\n       <mwg-rs:Area stArea:x=\"\(number(a.x + a.width / 2))\" stArea:y=\"\(number(a.y + a.height / 2))\""
            x += " stArea:w=\"\(number(a.width))\" stArea:h=\"\(number(a.height))\" stArea:unit=\"normalized\"/>"
            if let type = mwgType(p.region.type) { x += "\n       <mwg-rs:Type>\(type)</mwg-rs:Type>" }
            if names, let name = p.region.name { x += "\n       <mwg-rs:Name>\(escaped(name))</mwg-rs:Name>" }
            x += "\n      </rdf:li>"
        }
        x += "\n     </rdf:Bag>\n    </mwg-rs:RegionList>\n   </mwg-rs:Regions>"
        if let microsoft, !microsoft.isEmpty {
            x += "\n   <MP:RegionInfo rdf:parseType=\"Resource\">\n    <MPRI:Regions>\n     <rdf:Bag>"
            for p in microsoft {
                let u = p.upright
                x += "\n      <rdf:li rdf:parseType=\"Resource\">"
                x +=
                    "\n       <MPReg:Rectangle>\([u.x, u.y, u.width, u.height].map(number).joined(separator: ", "))</MPReg:Rectangle>"
                if names, let name = p.region.name {
                    x += "\n       <MPReg:PersonDisplayName>\(escaped(name))</MPReg:PersonDisplayName>"
                }
                x += "\n      </rdf:li>"
            }
            x += "\n     </rdf:Bag>\n    </MPRI:Regions>\n   </MP:RegionInfo>"
        }
        if let iptc, !iptc.isEmpty {
            x += "\n   <Iptc4xmpExt:ImageRegion>\n    <rdf:Bag>"
            for p in iptc {
                let a = p.stored
                x += "\n     <rdf:li rdf:parseType=\"Resource\">"
                x += "\n      <Iptc4xmpExt:RegionBoundary rdf:parseType=\"Resource\">"
                x += "\n       <Iptc4xmpExt:rbShape>rectangle</Iptc4xmpExt:rbShape>"
                x += "\n       <Iptc4xmpExt:rbUnit>relative</Iptc4xmpExt:rbUnit>"
                for (field, v) in [("rbX", a.x), ("rbY", a.y), ("rbW", a.width), ("rbH", a.height)] {
                    x += "\n       <Iptc4xmpExt:\(field)>\(number(v))</Iptc4xmpExt:\(field)>"
                }
                x += "\n      </Iptc4xmpExt:RegionBoundary>"
                if names, let name = p.region.name {
                    x += "\n      <Iptc4xmpExt:Name>\n       <rdf:Alt>"
                    x += "\n        <rdf:li xml:lang=\"x-default\">\(escaped(name))</rdf:li>"
                    x += "\n       </rdf:Alt>\n      </Iptc4xmpExt:Name>"
                }
                x += "\n     </rdf:li>"
            }
            x += "\n    </rdf:Bag>\n   </Iptc4xmpExt:ImageRegion>"
        }
        x += "\n  </rdf:Description>\n"
        return Array(x.utf8)
    }

    /// MWG's word for a type (Face, Pet, Focus, BarCode; another word capitalised), nil for
    /// a plain area (MWG writes no type for it).
    static func mwgType(_ type: String) -> String? {
        switch type {
        case "area", "": return nil
        case "barcode": return "BarCode"
        default: return type.prefix(1).uppercased() + type.dropFirst()
        }
    }

    /// A normalised value with six decimals (a millionth of the side: under a tenth of a pixel
    /// at the largest side an output has), trailing zeros left out.
    static func number(_ v: Double) -> String {
        let scaled = Int((min(max(v, 0), 1) * 1_000_000).rounded())
        let whole = scaled / 1_000_000
        var fraction = String(scaled % 1_000_000)
        guard fraction != "0" else { return String(whole) }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    /// Text as XML character data (and attribute values): the five special characters as
    /// entities, and what XML 1.0 cannot hold at all (controls but tab and line breaks,
    /// U+FFFE, U+FFFF) taken out. Names were read without controls; this holds for any text.
    static func escaped(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                let v = u.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFFFE || v == 0xFFFF { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
