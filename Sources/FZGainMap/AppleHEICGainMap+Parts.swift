import FZHEIF

extension AppleHEICGainMap {
    /// What `joined` takes from a file libheif wrote: its `ftyp`, the `meta` children it keeps
    /// as they are (`hdlr`...), the primary item, each item (its `infe`, type and data), the
    /// references, the properties and their associations, and `idat`. Read with `HEIFBoxes`'
    /// bounded readers; anything cut short, out of the file or over `maxItems` is `Invalid`.
    struct Parts {
        struct Association {
            var index: Int
            var essential: Bool
        }
        struct Reference {
            var type: String
            var from: UInt32
            var to: [UInt32]
        }
        /// An item's data: `ranges` of `bytes` (construction method 0), or of the `idat` (1).
        struct Located {
            var id: UInt32
            var method: Int
            var ranges: [Range<Int>]
            var bytes: [UInt8]
        }
        struct Item {
            var id: UInt32
            var type: String
            var infe: [UInt8]
            var located: Located
        }

        var ftyp: [UInt8]
        var kept: [[UInt8]] = []
        var primary: UInt32 = 0
        var items: [Item] = []
        var refs: [Reference] = []
        var properties: [[UInt8]] = []
        var associations: [(UInt32, [Association])] = []
        var idat: [UInt8] = []

        init(_ bytes: [UInt8], what: String) throws(Invalid) {
            func fail(_ why: String) -> Invalid { Invalid(detail: "\(what): \(why)") }
            let top = HEIFBoxes.boxes(bytes[...])
            guard let ftyp = top.first(where: { $0.type == "ftyp" }),
                let meta = top.first(where: { $0.type == "meta" }),
                meta.body.count >= 4
            else { throw fail("no ftyp or meta box") }
            self.ftyp = AppleHEICGainMap.box("ftyp", Array(ftyp.body))
            var infes: [(UInt32, String, [UInt8])] = []
            var iloc: ArraySlice<UInt8>?
            var pitm = false
            for child in HEIFBoxes.boxes(meta.body.dropFirst(4)) {
                let b = child.body
                switch child.type {
                case "pitm":
                    guard let v = b.first, let id = HEIFBoxes.uint(b, b.startIndex + 4, v == 0 ? 2 : 4) else {
                        throw fail("pitm is cut short")
                    }
                    primary = id
                    pitm = true
                case "iinf": infes = try Self.itemInfos(b, fail)
                case "iref": refs = try Self.references(b, fail)
                case "iprp":
                    for p in HEIFBoxes.boxes(b) {
                        if p.type == "ipco" { properties = HEIFBoxes.boxes(p.body).map { Self.whole($0) } }
                        if p.type == "ipma" { associations = try Self.associations(p.body, fail) }
                    }
                case "iloc": iloc = b
                case "idat": idat = Array(b)
                default: kept.append(Self.whole(child))
                }
            }
            guard pitm, let iloc, !infes.isEmpty, infes.count <= maxItems else {
                throw fail("no pitm, iloc or items, or more than \(maxItems) items")
            }
            var located: [UInt32: Located] = [:]
            var problem: String?
            HEIFBoxes.forEachLocation(iloc: iloc) { id, method, extents in
                guard method == 0 || method == 1 else {
                    problem = "item \(id) is stored by construction method \(method)"
                    return false
                }
                let size = method == 0 ? bytes.count : idat.count
                guard extents.allSatisfy({ $0.lowerBound >= 0 && $0.upperBound <= size && !$0.isEmpty }) else {
                    problem = "the data of item \(id) lies outside the file"
                    return false
                }
                located[id] = Located(id: id, method: method, ranges: extents, bytes: method == 0 ? bytes : [])
                return true
            }
            if let problem { throw fail(problem) }
            for (id, type, infe) in infes {
                guard let l = located[id] else { throw fail("item \(id) has no location (iloc)") }
                items.append(Item(id: id, type: type, infe: infe, located: l))
            }
            guard items.contains(where: { $0.id == primary }) else { throw fail("no primary item \(primary)") }
            let count = properties.count
            guard associations.allSatisfy({ $0.1.allSatisfy { $0.index >= 1 && $0.index <= count } }) else {
                throw fail("a property index (ipma) past the \(count) properties")
            }
        }

        /// A box as it stood (header and body).
        static func whole(_ b: HEIFBoxes.Box) -> [UInt8] { AppleHEICGainMap.box(b.type, Array(b.body)) }

        /// `iinf`: each item's id, type and `infe` box (version 2 or 3).
        static func itemInfos(_ b: ArraySlice<UInt8>, _ fail: (String) -> Invalid) throws(Invalid)
            -> [(UInt32, String, [UInt8])]
        {
            guard let v = b.first else { throw fail("iinf is empty") }
            var out: [(UInt32, String, [UInt8])] = []
            for infe in HEIFBoxes.boxes(b.dropFirst(v == 0 ? 6 : 8)).prefix(maxItems + 1) where infe.type == "infe" {
                let e = infe.body
                guard let ev = e.first, ev >= 2 else { throw fail("an infe of version below 2") }
                let n = ev == 2 ? 2 : 4
                guard let id = HEIFBoxes.uint(e, e.startIndex + 4, n), e.count >= 4 + n + 6, id <= 0xFFFF else {
                    throw fail("an infe is cut short or numbers its item beyond 16 bits")
                }
                out.append((id, HEIFBoxes.fourCC(e, e.startIndex + 4 + n + 2), whole(infe)))
            }
            return out
        }

        /// `iref`: every reference (any type), with 16- or 32-bit item numbers.
        static func references(_ b: ArraySlice<UInt8>, _ fail: (String) -> Invalid) throws(Invalid) -> [Reference] {
            guard let v = b.first else { throw fail("iref is empty") }
            let n = v == 0 ? 2 : 4
            var out: [Reference] = []
            for r in HEIFBoxes.boxes(b.dropFirst(4)).prefix(maxItems) {
                let e = r.body
                guard let from = HEIFBoxes.uint(e, e.startIndex, n), let k = HEIFBoxes.uint(e, e.startIndex + n, 2),
                    e.count == n + 2 + Int(k) * n
                else { throw fail("an iref entry is cut short") }
                let to = (0..<Int(k)).compactMap { HEIFBoxes.uint(e, e.startIndex + n + 2 + $0 * n, n) }
                guard from <= 0xFFFF, to.allSatisfy({ $0 <= 0xFFFF }) else { throw fail("item numbers beyond 16 bits") }
                out.append(Reference(type: r.type, from: from, to: to))
            }
            return out
        }

        /// `ipma`: each item's property indices with their essential bits, in order.
        static func associations(_ b: ArraySlice<UInt8>, _ fail: (String) -> Invalid) throws(Invalid)
            -> [(UInt32, [Association])]
        {
            guard b.count >= 8, let count = HEIFBoxes.uint(b, b.startIndex + 4, 4), count <= maxItems else {
                throw fail("ipma is cut short or lists more than \(maxItems) items")
            }
            let idSize = b[b.startIndex] < 1 ? 2 : 4
            let wide = b[b.startIndex + 3] & 1 == 1
            var out: [(UInt32, [Association])] = []
            var i = b.startIndex + 8
            for _ in 0..<count {
                guard let id = HEIFBoxes.uint(b, i, idSize), i + idSize < b.endIndex, id <= 0xFFFF else {
                    throw fail("ipma is cut short")
                }
                let n = Int(b[i + idSize])
                i += idSize + 1
                var list: [Association] = []
                for _ in 0..<n {
                    guard let v = HEIFBoxes.uint(b, i, wide ? 2 : 1) else { throw fail("ipma is cut short") }
                    let bit: UInt32 = wide ? 0x8000 : 0x80
                    list.append(Association(index: Int(v & (bit - 1)), essential: v & bit != 0))
                    i += wide ? 2 : 1
                }
                out.append((id, list))
            }
            return out
        }
    }
}
