import FZSystem
import Geometry

extension RegionReader {
    /// IPTC image regions: each item of `Iptc4xmpExt:ImageRegion` with its `RegionBoundary`.
    mutating func iptc(_ property: Int) -> [Candidate] {
        var out: [Candidate] = []
        let parent = tree.nodes.indices.first { tree.nodes[$0].children.contains(property) }
        guard let parent else { return [] }
        for (i, item) in tree.items(parent, Self.iptcExt, "ImageRegion").enumerated() {
            guard take() else { continue }
            let name = sanitized(tree.field(item, Self.iptcExt, "Name"), label: "IPTC region \(i + 1)")
            let label = "IPTC region \(i + 1)" + (name.map { " (\"\($0)\")" } ?? "")
            guard let b = tree.structure(item, Self.iptcExt, "RegionBoundary") else {
                warn("\(label): no RegionBoundary; left out")
                continue
            }
            let unit = tree.field(b, Self.iptcExt, "rbUnit")?.xmpTrimmed.lowercased()
            let scale: (Double, Double)
            switch unit {
            case "relative": scale = (1, 1)
            case "pixel": scale = (Double(stored.width), Double(stored.height))
            default:
                warn("\(label): unit \(Self.quoted(unit ?? "")) is neither \"relative\" nor \"pixel\"; left out")
                continue
            }
            guard let r = boundary(b, scale: scale, label: label) else { continue }
            out.append(
                Candidate(name: name, type: iptcType(item), source: .iptc, normalized: r, upright: false, label: label))
        }
        return out
    }

    /// The boundary's bounding box, normalised: a rectangle, a circle or a polygon's vertices.
    mutating func boundary(_ b: Int, scale: (Double, Double), label: String) -> Rect? {
        let shape = tree.field(b, Self.iptcExt, "rbShape")?.xmpTrimmed.lowercased() ?? "rectangle"
        var box: [Double]
        switch shape {
        case "rectangle":
            let v = ["rbX", "rbY", "rbW", "rbH"].compactMap { number(b, Self.iptcExt, $0) }
            guard v.count == 4 else {
                warn("\(label): its rectangle's rbX, rbY, rbW and rbH are not all numbers; left out")
                return nil
            }
            box = [v[0] / scale.0, v[1] / scale.1, v[2] / scale.0, v[3] / scale.1]
        case "circle":
            let v = ["rbX", "rbY", "rbRx"].compactMap { number(b, Self.iptcExt, $0) }
            guard v.count == 3 else {
                warn("\(label): its circle's rbX, rbY and rbRx are not all numbers; left out")
                return nil
            }
            // rbRx is relative to the width (or in pixels): the same length along y.
            let rx = v[2] / scale.0
            let ry = rx * Double(stored.width) / Double(max(1, stored.height))
            box = [v[0] / scale.0 - rx, v[1] / scale.1 - ry, 2 * rx, 2 * ry]
        case "polygon":
            let points = tree.items(b, Self.iptcExt, "rbVertices").compactMap { p -> (Double, Double)? in
                guard let x = number(p, Self.iptcExt, "rbX"), let y = number(p, Self.iptcExt, "rbY") else { return nil }
                return (x / scale.0, y / scale.1)
            }
            guard points.count >= 3 else {
                warn("\(label): a polygon needs three vertices of numbers; left out")
                return nil
            }
            let xs = points.map(\.0)
            let ys = points.map(\.1)
            box = [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!]
        default:
            warn("\(label): shape \(Self.quoted(shape)) is not rectangle, circle or polygon; left out")
            return nil
        }
        guard Self.normalized(shape == "rectangle" ? box + [box[0] + box[2], box[1] + box[3]] : box) else {
            warn("\(label): its boundary lies outside the image (negative, or past its size); left out")
            return nil
        }
        guard box[2] > 0, box[3] > 0 else {
            warn("\(label): its boundary has zero size; left out")
            return nil
        }
        return Rect(x: box[0], y: box[1], width: box[2], height: box[3])
    }

    /// An IPTC region's type: the last word of its first content type (`rCtype`, as
    /// http://cv.iptc.org/newscodes/imageregiontype/human), faces for human and headshot.
    func iptcType(_ item: Int) -> String {
        let types = tree.items(item, Self.iptcExt, "rCtype")
        guard let first = types.first,
            let id = tree.field(first, "http://iptc.org/std/Iptc4xmpExt/2008-02-29/", "Identifier")
                ?? tree.items(first, Self.iptcExt, "Identifier").first.map({ tree.nodes[$0].text })
                // The IPTC standard's (and exiftool's) xmp:Identifier, a Bag.
                ?? tree.items(first, "http://ns.adobe.com/xap/1.0/", "Identifier").first.map({ tree.nodes[$0].text })
        else { return "area" }
        let word = id.xmpTrimmed.split(separator: "/").last.map(String.init)?.lowercased() ?? ""
        if word == "human" || word == "headshot" || word == "face" { return "face" }
        return Self.mwgType(word)
    }

    /// A name with control characters (terminal escapes among them) and bidirectional
    /// overrides taken out, one warning when it had any; nil when empty.
    mutating func sanitized(_ name: String?, label: String) -> String? {
        guard let name else { return nil }
        let (text, changed) = Self.clean(name)
        if changed { warn("\(label): control characters taken out of its name") }
        let trimmed = String(text.xmpTrimmed.prefix(RegionReading.maxNameLength))
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The text without terminal escapes (whole: `ESC [ 2 J`, `ESC ] 0 ; title BEL`), C0/C1
    /// controls, DEL and bidirectional controls (`Echo.printable`), and whether any was there.
    static func clean(_ s: String) -> (text: String, changed: Bool) {
        let text = Echo.printable(s)
        return (text, text != s)
    }
}

extension StringProtocol {
    /// Without XML white space at either end.
    var xmpTrimmed: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { s = s.dropLast() }
        return String(s)
    }
}
