/// The item references and item locations of an HEIF file read as libheif 1.15 reads them, to
/// refuse what it follows without checking (issue 53). libheif reads an `iref` box's
/// references one after another whatever sizes their headers declare, and then:
/// - `decode_image_planar` asserts (`heif_context.cc`, "Assertion 'imginfo' failed", abort)
///   on an `iden` or `iovl` item whose `dimg` names an item that is not an image it knows
///   (absent, or declared with another type): only a grid's tiles are checked;
/// - recurses without end (stack overflow) along `dimg` and alpha (`auxl`) references that
///   come back to an item (`decode_image_planar`, `get_id_of_non_virtual_child_image`);
/// - reads an item stored in `idat` (construction method 1) within the box's size counted
///   with its header, and drops the error when it does not fit (`Box_iloc::read_data`): the
///   item is then empty. Here its data must lie in the box's body, 64-bit sums unwrapped.
/// What it checks itself (a `thmb`, `auxl` or `cdsc` naming an absent item, method 2) it
/// refuses with a message of its own; this says each the same way, in one sentence, first.
/// Its other asserts a file can reach are already guarded or unreachable (see issue 53's note).
struct HEIFReferences {
    /// One reference box as libheif reads it.
    struct Reference {
        var type: String
        var from: UInt32
        var to: [UInt32]
        /// The size its header declares, its header's size, and the bytes libheif read for it.
        var declared: UInt64
        var header: Int
        var read: Int
        /// The bytes left in the `iref` box from its start.
        var room: Int
    }

    /// The item types libheif 1.15 decodes (`item_type_is_image`, less `vvc1`, which it has no decoder for).
    static let imageTypes: Set<String> = ["hvc1", "av01", "grid", "iden", "iovl"]

    var types: [UInt32: String] = [:]
    var references: [Reference] = []
    /// The first `iref` box could not be read to its end (libheif refuses the file then too).
    var cutShort = false
    var idat: ArraySlice<UInt8>?
    var iloc: ArraySlice<UInt8> = []

    /// The first problem in `bytes` (the file through `meta` at least), as a sentence; nil
    /// when the references and locations are as libheif can follow them.
    static func problem(_ bytes: [UInt8]) -> String? {
        guard let meta = HEIFBoxes.boxes(bytes[...]).first(where: { $0.type == "meta" }), meta.body.count >= 4 else {
            return nil
        }
        let r = HEIFReferences(meta.body.dropFirst(4))
        return r.referenceProblem() ?? r.loop() ?? r.boxProblem() ?? r.locationProblem()
    }

    /// The first `iinf`, `iref`, `idat` and `iloc` of a `meta` box (libheif's `get_child_box`).
    init(_ children: ArraySlice<UInt8>) {
        var sawInfo = false
        var sawRefs = false
        var sawLocations = false
        for child in HEIFBoxes.boxes(children) {
            let b = child.body
            switch child.type {
            case "iinf" where !sawInfo:
                sawInfo = true
                readItemInfos(b)
            case "iref" where !sawRefs:
                sawRefs = true
                readReferences(b)
            case "idat" where idat == nil: idat = b
            case "iloc" where !sawLocations:
                sawLocations = true
                iloc = b
            default: break
            }
        }
    }

    /// Every `infe` (libheif keeps those of versions 0 and 1 too, typeless).
    private mutating func readItemInfos(_ b: ArraySlice<UInt8>) {
        guard let v = b.first else { return }
        for infe in HEIFBoxes.boxes(b.dropFirst(v == 0 ? 6 : 8)) where infe.type == "infe" {
            let e = infe.body
            guard let ev = e.first else { continue }
            let idSize = ev == 3 ? 4 : 2
            guard let id = HEIFBoxes.uint(e, e.startIndex + 4, idSize) else { continue }
            types[id] = ev >= 2 ? HEIFBoxes.fourCC(e, e.startIndex + 4 + idSize + 2) : ""
        }
    }

    /// `Box_iref::parse`: a header (size, type, a 64-bit size after size 1, 16 bytes after
    /// `uuid`), then the source, a count and the targets, whatever the header's size says.
    private mutating func readReferences(_ b: ArraySlice<UInt8>) {
        guard let v = b.first else { return }
        let idSize = v == 0 ? 2 : 4
        var i = b.startIndex + 4
        while i < b.endIndex && references.count < HEIFBoxes.maxChildren {
            let start = i
            guard let size32 = HEIFBoxes.uint(b, i, 4) else {
                cutShort = true
                return
            }
            let type = HEIFBoxes.fourCC(b, i + 4)
            var declared = UInt64(size32)
            i += 8
            if size32 == 1 {
                guard let large = HEIFBoxes.uint64(b, i) else {
                    cutShort = true
                    return
                }
                declared = large
                i += 8
            }
            if type == "uuid" { i += 16 }
            let header = i - start
            guard let from = HEIFBoxes.uint(b, i, idSize), let n = HEIFBoxes.uint(b, i + idSize, 2) else {
                cutShort = true
                return
            }
            i += idSize + 2
            var to: [UInt32] = []
            for _ in 0..<n {
                guard let t = HEIFBoxes.uint(b, i, idSize) else {
                    cutShort = true
                    return
                }
                to.append(t)
                i += idSize
            }
            references.append(
                Reference(
                    type: type, from: from, to: to, declared: declared, header: header, read: i - start,
                    room: b.endIndex - start))
        }
    }

    /// What a reference's source is called in a message.
    private func name(_ r: Reference) -> String {
        switch r.type {
        case "dimg": return "derived image \(r.from)"
        case "thmb": return "thumbnail \(r.from)"
        case "auxl": return "auxiliary image \(r.from)"
        default: return "metadata item \(r.from)"
        }
    }

    /// Whether libheif follows `r`: a `dimg` from a grid, iden or iovl item, a `thmb` or
    /// `auxl` from an image, a `cdsc` from any declared item. It never looks at the others
    /// (dummy references from undeclared items, a `dimg` from an item of an unknown type).
    func followed(_ r: Reference) -> Bool {
        guard let type = types[r.from] else { return false }
        switch r.type {
        case "dimg": return ["grid", "iden", "iovl"].contains(type)
        case "thmb", "auxl": return Self.imageTypes.contains(type) || type == "vvc1"
        default: return r.type == "cdsc"
        }
    }

    /// A `dimg`, `thmb`, `auxl` or `cdsc` reference libheif follows to an item the file does
    /// not declare, to an item libheif does not decode, or to its own source.
    func referenceProblem() -> String? {
        for r in references where followed(r) {
            if r.type != "dimg" && r.to.count != 1 {
                return "\(name(r)) has \(r.to.count) \(r.type) references (one is allowed)"
            }
            let verb = r.type == "cdsc" ? "describes" : "refers to"
            for t in r.to {
                if t == r.from { return "\(name(r)) \(verb) itself (a reference loop)" }
                guard let type = types[t] else {
                    return "\(name(r)) \(verb) item \(t), which the file does not declare"
                }
                if !Self.imageTypes.contains(type) {
                    return
                        "\(name(r)) \(verb) item \(t), an item of type '\(type)', which is not an image libheif decodes"
                }
            }
        }
        return nil
    }

    /// A cycle along what decoding an item decodes: its `dimg` sources and the images whose
    /// `auxl` names it (its alpha). Found without recursion, for every item, not only the
    /// primary one (a thumbnail is decoded the same way).
    func loop() -> String? {
        var next: [UInt32: [UInt32]] = [:]
        for r in references where followed(r) {
            if r.type == "dimg" {
                next[r.from, default: []] += r.to
            } else if r.type == "auxl" {
                for t in r.to { next[t, default: []].append(r.from) }
            }
        }
        // 0: not seen, 1: on the path, 2: done.
        var state: [UInt32: UInt8] = [:]
        for root in next.keys.sorted() where state[root] == nil {
            var stack: [(item: UInt32, index: Int)] = [(root, 0)]
            state[root] = 1
            while var top = stack.popLast() {
                let children = next[top.item] ?? []
                guard top.index < children.count else {
                    state[top.item] = 2
                    continue
                }
                let child = children[top.index]
                top.index += 1
                stack.append(top)
                switch state[child] {
                case 1:
                    return "the derivation and alpha references (dimg, auxl) of item \(child) come back to it (a loop)"
                case nil:
                    state[child] = 1
                    stack.append((child, 0))
                default: break
                }
            }
        }
        return nil
    }

    /// A reference box shorter than its header, running past its `iref` box, or holding
    /// other than it declares: libheif reads past such sizes, other readers stop at them.
    func boxProblem() -> String? {
        if cutShort { return "the iref box ends inside a reference" }
        for (n, r) in references.enumerated() {
            let which = "reference box \(n + 1) in iref (\(r.type) from item \(r.from))"
            if r.declared < UInt64(r.header) {
                return "\(which) declares \(r.declared) bytes, fewer than its own \(r.header)-byte header"
            }
            if r.declared > UInt64(r.room) {
                return "\(which) declares \(r.declared) bytes, past the end of the iref box"
            }
            if r.declared != UInt64(r.read) { return "\(which) declares \(r.declared) bytes but holds \(r.read)" }
        }
        return nil
    }

    /// An item libheif reads on opening (every declared one) stored by a construction method
    /// it does not read, or in `idat` (method 1) outside that box or with no such box.
    func locationProblem() -> String? {
        var problem: String?
        HEIFReferences.forEachLocation(iloc) { id, method, extents in
            guard types[id] != nil else { return true }
            if method > 1 {
                problem =
                    "item \(id) is stored with construction method \(method); libheif reads methods 0 (file) and 1 (idat)"
            } else if method == 1 {
                guard let idat else {
                    problem = "item \(id) is stored in an idat box (construction method 1) the file does not have"
                    return false
                }
                for (offset, length) in extents {
                    let (end, overflow) = offset.addingReportingOverflow(length)
                    if overflow || end > UInt64(idat.count) {
                        problem =
                            "item \(id)'s data lies outside the idat box (offset \(offset), length \(length), the box holds \(idat.count) bytes)"
                    }
                }
            }
            return problem == nil
        }
        return problem
    }
}

extension HEIFReferences {
    /// An `iloc` box as `Box_iloc::parse` reads it, with 64-bit fields kept whole (unlike
    /// `HEIFBoxes.forEachLocation`, which drops an item past 2^31): each item's id,
    /// construction method and extents as (base + offset, length), a sum that overflows
    /// given as `UInt64.max`. Stops where the box ends or `body` returns false.
    static func forEachLocation(_ b: ArraySlice<UInt8>, _ body: (UInt32, Int, [(UInt64, UInt64)]) -> Bool) {
        guard b.count >= 8 else { return }
        let version = b[b.startIndex]
        let sizes = [Int(b[b.startIndex + 4] >> 4), Int(b[b.startIndex + 4] & 15), Int(b[b.startIndex + 5] >> 4)]
        let indexSize = version >= 1 ? Int(b[b.startIndex + 5] & 15) : 0
        guard (sizes + [indexSize]).allSatisfy({ [0, 4, 8].contains($0) }) else { return }
        let (offsetSize, lengthSize, baseSize) = (sizes[0], sizes[1], sizes[2])
        var i = b.startIndex + 6
        func read(_ size: Int) -> UInt64? {
            var v: UInt64 = 0
            guard i + size <= b.endIndex else { return nil }
            for k in 0..<size { v = v << 8 | UInt64(b[i + k]) }
            i += size
            return v
        }
        let idSize = version < 2 ? 2 : 4
        guard let count = read(idSize) else { return }
        for _ in 0..<min(count, UInt64(HEIFBoxes.maxChildren)) {
            guard let id = read(idSize) else { return }
            var method = 0
            if version >= 1 {
                guard let m = read(2) else { return }
                method = Int(m & 15)
            }
            guard read(2) != nil, let base = read(baseSize), let n = read(2) else { return }
            var extents: [(UInt64, UInt64)] = []
            for _ in 0..<n {
                guard read(indexSize) != nil, let o = read(offsetSize), let l = read(lengthSize) else { return }
                let (start, overflow) = base.addingReportingOverflow(o)
                extents.append((overflow ? .max : start, l))
            }
            if !body(UInt32(id), method, extents) { return }
        }
    }
}
