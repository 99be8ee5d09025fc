import Geometry

extension RegionReader {
    /// A number field, or nil when absent or not a finite number.
    func number(_ node: Int, _ uri: String, _ local: String) -> Double? {
        guard let text = tree.field(node, uri, local) else { return nil }
        return Self.number(text)
    }

    static func number(_ text: some StringProtocol) -> Double? {
        let t = text.xmpTrimmed
        guard let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// Whether normalised values lie in 0...1 (a rounding's worth over allowed).
    static func normalized(_ values: [Double]) -> Bool { values.allSatisfy { $0 >= -1e-6 && $0 <= 1 + 1e-6 } }

    /// MWG regions: `RegionList` under one `RegionInfo`, measured on `AppliedToDimensions`.
    mutating func mwg(_ info: Int) -> [Candidate] {
        var frameUpright = false
        if let dims = tree.structure(info, Self.mwgRS, "AppliedToDimensions") {
            let w = number(dims, Self.dim, "w")
            let h = number(dims, Self.dim, "h")
            let unit = tree.field(dims, Self.dim, "unit")?.xmpTrimmed.lowercased()
            switch Self.frame(w: w, h: h, unit: unit, stored: stored, upright: upright) {
            case .stored: break
            case .upright:
                frameUpright = true
                warnings.append(
                    "MWG regions: AppliedToDimensions \(Self.dimText(w, h)) is the upright size, not the stored \(stored); read in the upright picture"
                )
            case .disagrees(let why):
                let n = tree.items(info, Self.mwgRS, "RegionList").count
                warnings.append(
                    "MWG regions: AppliedToDimensions \(why); \(n == 1 ? "its region" : "its \(n) regions") left out")
                return []
            }
        }
        var out: [Candidate] = []
        for (i, item) in tree.items(info, Self.mwgRS, "RegionList").enumerated() {
            guard take() else { continue }
            let name = sanitized(tree.field(item, Self.mwgRS, "Name"), label: "MWG region \(i + 1)")
            let label = "MWG region \(i + 1)" + (name.map { " (\"\($0)\")" } ?? "")
            let type = Self.mwgType(tree.field(item, Self.mwgRS, "Type"))
            guard let area = tree.structure(item, Self.mwgRS, "Area") else {
                warn("\(label): no Area; left out")
                continue
            }
            let unit = tree.field(area, Self.area, "unit")?.xmpTrimmed.lowercased()
            guard unit == nil || unit == "normalized" else {
                warn("\(label): unit \(Self.quoted(unit ?? "")) is not MWG's \"normalized\"; left out")
                continue
            }
            let x = number(area, Self.area, "x")
            let y = number(area, Self.area, "y")
            let d = number(area, Self.area, "d")
            let w = number(area, Self.area, "w") ?? d
            let h = number(area, Self.area, "h") ?? d
            guard let x, let y, let w, let h else {
                warn("\(label): its area's x, y, w and h are not all numbers; left out")
                continue
            }
            guard Self.normalized([x, y, w, h]) else {
                warn("\(label): area \(x),\(y) \(w)x\(h) is outside 0...1 (normalised); left out")
                continue
            }
            guard w > 0, h > 0 else {
                warn("\(label): area has zero size; left out")
                continue
            }
            out.append(
                Candidate(
                    name: name, type: type, source: .mwg,
                    normalized: Rect(x: x - w / 2, y: y - h / 2, width: w, height: h),
                    upright: frameUpright, label: label))
        }
        return out
    }

    enum Frame: Equatable {
        case stored, upright
        case disagrees(String)
    }

    /// Which picture MWG's `AppliedToDimensions` names: the stored one (or a resized copy of
    /// it, whose normalised areas still hold), the upright one (a writer that measured the
    /// turned picture), or neither.
    static func frame(w: Double?, h: Double?, unit: String?, stored: PixelSize, upright: PixelSize) -> Frame {
        guard let w, let h, w > 0, h > 0, w <= 1e9, h <= 1e9 else {
            return .disagrees("\(dimText(w, h)) is not a size")
        }
        guard unit == nil || unit == "pixel" else { return .disagrees("unit \(quoted(unit ?? "")) is not \"pixel\"") }
        func proportional(_ s: PixelSize) -> Bool {
            abs(w * Double(s.height) - h * Double(s.width)) <= 0.01 * w * Double(s.height)
        }
        if proportional(stored) { return .stored }
        if upright != stored && proportional(upright) { return .upright }
        return .disagrees("\(dimText(w, h)) disagrees with the image's \(stored) pixels")
    }

    static func dimText(_ w: Double?, _ h: Double?) -> String {
        func f(_ v: Double?) -> String {
            v.map { $0 == $0.rounded() && abs($0) < 1e12 ? String(Int($0)) : "\($0)" } ?? "?"
        }
        return "\(f(w))x\(f(h))"
    }

    static func quoted(_ s: String) -> String { "\"" + RegionReader.clean(String(s.prefix(40))).text + "\"" }

    static func mwgType(_ type: String?) -> String {
        let t = (type ?? "").xmpTrimmed.lowercased()
        guard !t.isEmpty else { return "area" }
        let letters = String(t.unicodeScalars.filter { ("a"..."z").contains($0) }.prefix(32).map(Character.init))
        return letters.isEmpty ? "area" : letters
    }

    /// Microsoft Photo regions: `MPRI:Regions`, each an `MPReg:Rectangle` "x, y, w, h".
    mutating func microsoft(_ info: Int) -> [Candidate] {
        var out: [Candidate] = []
        for (i, item) in tree.items(info, Self.mpri, "Regions").enumerated() {
            guard take() else { continue }
            let name = sanitized(tree.field(item, Self.mpreg, "PersonDisplayName"), label: "Microsoft region \(i + 1)")
            let label = "Microsoft region \(i + 1)" + (name.map { " (\"\($0)\")" } ?? "")
            guard let rectangle = tree.field(item, Self.mpreg, "Rectangle") else {
                warn("\(label): no Rectangle; left out")
                continue
            }
            let parts = rectangle.split(separator: ",", omittingEmptySubsequences: false).compactMap(Self.number)
            guard parts.count == 4 else {
                warn("\(label): Rectangle \(Self.quoted(rectangle)) is not four numbers x, y, w, h; left out")
                continue
            }
            guard Self.normalized(parts) else {
                warn("\(label): Rectangle \(Self.quoted(rectangle)) is outside 0...1 (normalised); left out")
                continue
            }
            guard parts[2] > 0, parts[3] > 0 else {
                warn("\(label): Rectangle has zero size; left out")
                continue
            }
            out.append(
                Candidate(
                    name: name, type: "face", source: .microsoft,
                    normalized: Rect(x: parts[0], y: parts[1], width: parts[2], height: parts[3]), upright: true,
                    label: label))
        }
        return out
    }
}
