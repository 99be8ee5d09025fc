// Length: over 300 lines on purpose: one bounds-checked reader of the boxes libheif would otherwise
// read first (meta, iinf, iloc, iprp, iref, grid); split, its bounds discipline would be too.

import Geometry

/// What an HEIF file's boxes say about its primary image, read with bounds checks from the
/// bytes alone (no libheif): the brands, the primary item's type (the codec, or a grid) and
/// its transformative properties (`irot`, `imir`, `clap`), which libheif applies and `info`
/// reports. libheif 1.15 has no call that lists the transformations.
package struct HEIFBoxes: Equatable, Sendable {
    var majorBrand = ""
    var compatibleBrands: [String] = []
    /// The primary item's type: "hvc1", "av01", "grid", "iden"...
    var primaryType = ""
    /// The primary item's transformations in the order the file lists them ("irot 90", "imir top-bottom", "clap").
    var transformations: [String] = []
    /// The same transformative properties as (type, body), for `HEIFGrid.transformed`.
    var transformProperties: [TransformProperty] = []
    struct TransformProperty: Equatable, Sendable {
        var type: String
        var body: [UInt8]
    }
    /// How many tiles a grid primary image has (its `dimg` references), 0 when not a grid.
    var gridTiles = 0
    /// The codec of the tiles of a grid primary image.
    var tileType = ""
    /// The primary item's `ispe` (its size before the transformations), when the boxes say.
    var primarySize: PixelSize?
    /// The largest picture any HEVC parameter set in the file declares (what libde265
    /// allocates for, whatever the `ispe` says).
    var largestCodedSize: PixelSize?
    /// The largest canvas of a derived image (grid or overlay) reachable from the primary
    /// item, from its descriptor (`ImageGrid`, `ImageOverlay`): libheif
    /// allocates its canvas for this size, whatever the `ispe` says (a 64x48 grid whose
    /// descriptor said 26725x26979 made it allocate gigabytes; found by `make fuzz`).
    var gridSize: PixelSize?
    /// A grid or overlay reachable from the primary item whose descriptor cannot be read
    /// (no location, cut short, or a side of 0): libheif then composes from what it guesses
    /// (1.5 GB for a 1 KB file whose iloc index size was changed; found by `make fuzz`).
    var unreadableDerived: UInt32?
    /// An `hvcC` whose header disagrees with its own parameter set (see `HEVCSequenceSize`).
    var parameterMismatch: String?
    /// Whether the derived-image references (`dimg`) from the primary item come back to an
    /// item already on the path: libheif 1.15 follows them until its stack overflows.
    var referenceLoop = false
    /// An item the primary image derives from (`dimg`, for a grid or `iden`) that the file
    /// does not have: libheif 1.15 asserts on it (abort; found by `make fuzz`).
    var missingReference: UInt32?
    /// A box whose children were not all read (more than `maxChildren`): what lies past
    /// them (a `dimg` loop, a grid's primary `infe`) would reach libheif unchecked, so the
    /// file is refused (issue 40: 4096 dummy `iref` entries hid a loop from a cap of 4096).
    var tooManyChildren: String?

    /// The most children read of one box: every `iinf`, `iref`, `ipco` and `ipma` entry
    /// within it is checked. A grid names at most 256x256 tiles (its rows and columns are
    /// bytes), and an alpha grid as many again, so real files stay far under it; a file over
    /// it is refused, never half read. 48 bytes a box: 12 MiB at most, within any budget.
    static let maxChildren = 1 << 18

    /// Reads what it can; fields stay empty where the boxes are missing or broken (libheif
    /// then says what is wrong when it reads the file).
    init(_ bytes: [UInt8]) {
        var meta = MetaItems()
        var sawMeta = false
        let top = Self.boxes(bytes[...])
        if top.count >= Self.maxChildren { tooManyChildren = "file" }
        for box in top {
            if box.type == "ftyp" { readBrands(box.body) }
            // Only the first `meta` box counts, as for libheif.
            guard box.type == "meta", box.body.count >= 4, !sawMeta else { continue }
            sawMeta = true
            meta = MetaItems(box.body.dropFirst(4))
        }
        if tooManyChildren == nil { tooManyChildren = meta.tooManyChildren }
        for (type, body) in meta.properties where type == "hvcC" {
            if let size = HEVCSequenceSize.largest(inHvcC: body), largestCodedSize.map({ size.area > $0.area }) ?? true
            {
                largestCodedSize = size
            }
            if parameterMismatch == nil { parameterMismatch = HEVCSequenceSize.mismatch(inHvcC: body) }
        }
        guard let primary = meta.primary else { return }
        primaryType = meta.types[primary] ?? ""
        readPrimaryProperties(meta, primary: primary)
        // Depth-first along dimg from the primary item; a reference to an item on the path is a loop.
        var path: Set<UInt32> = []
        var visits = 0
        func walk(_ item: UInt32) -> Bool {
            visits += 1
            if visits > 100_000 || path.contains(item) { return true }
            path.insert(item)
            defer { path.remove(item) }
            if missingReference == nil, let absent = (meta.dimg[item] ?? []).first(where: { meta.types[$0] == nil }) {
                missingReference = absent
            }
            return (meta.dimg[item] ?? []).contains { walk($0) }
        }
        referenceLoop = walk(primary)
        readDerivedCanvases(meta, primary: primary, file: bytes)
        if primaryType == "grid" {
            let tiles = meta.dimg[primary] ?? []
            gridTiles = tiles.count
            tileType = tiles.first.flatMap { meta.types[$0] } ?? ""
        }
    }

    /// What the first `meta` box holds, as `init` reads it: the primary item, the items'
    /// types, the properties and their associations, the `dimg` references and the data
    /// and locations of the items.
    private struct MetaItems {
        var primary: UInt32?
        var types: [UInt32: String] = [:]
        var properties: [(String, [UInt8])] = []
        var associations: [UInt32: [Int]] = [:]
        var dimg: [UInt32: [UInt32]] = [:]
        var idat: ArraySlice<UInt8> = []
        var iloc: ArraySlice<UInt8> = []
        /// The first box whose children reached `maxChildren`.
        var tooManyChildren: String?

        init() {}

        /// The children of `parent`'s body, noting a box with more than can be read.
        private mutating func children(
            of parent: String, _ body: ArraySlice<UInt8>, clamped: Bool = false
        ) -> [HEIFBoxes.Box] {
            let list = HEIFBoxes.boxes(body, clamped: clamped)
            if list.count >= HEIFBoxes.maxChildren && tooManyChildren == nil { tooManyChildren = parent }
            return list
        }

        /// Reads the children of a `meta` box (its body after version and flags); later
        /// boxes of a kind add to (iinf, iref, ipma) or replace (pitm, ipco, idat, iloc)
        /// what earlier ones said.
        init(_ children: ArraySlice<UInt8>) {
            for child in self.children(of: "meta", children) {
                let b = child.body
                switch child.type {
                case "idat": idat = b
                case "iloc":
                    iloc = b
                    // Entries past the cap are never located: a count over it is refused.
                    let wide = b.first.map { $0 >= 2 } ?? false
                    // (A count the bytes cannot hold is malformed, not hidden: an entry
                    // takes at least 6 bytes.)
                    if let n = HEIFBoxes.uint(b, b.startIndex + 6, wide ? 4 : 2), n > HEIFBoxes.maxChildren,
                        b.count > HEIFBoxes.maxChildren * 6
                    {
                        tooManyChildren = tooManyChildren ?? "iloc"
                    }
                case "pitm":
                    guard let v = b.first else { break }
                    primary = v == 0 ? HEIFBoxes.uint(b, b.startIndex + 4, 2) : HEIFBoxes.uint(b, b.startIndex + 4, 4)
                case "iinf": readItemInfos(b)
                case "iprp":
                    for p in self.children(of: "iprp", b) {
                        if p.type == "ipco" {
                            properties = self.children(of: "ipco", p.body).map { ($0.type, Array($0.body)) }
                        } else if p.type == "ipma" {
                            // At least 3 bytes an entry: a larger count is malformed, not hidden.
                            if let n = HEIFBoxes.uint(p.body, p.body.startIndex + 4, 4), n > HEIFBoxes.maxChildren,
                                p.body.count > HEIFBoxes.maxChildren * 3
                            {
                                tooManyChildren = tooManyChildren ?? "ipma"
                            }
                            associations.merge(HEIFBoxes.associations(p.body)) { a, _ in a }
                        }
                    }
                case "iref": readDerivations(b)
                default: break
                }
            }
        }

        /// An `iinf` box: each item's type (its `infe`, version 2 or later).
        private mutating func readItemInfos(_ b: ArraySlice<UInt8>) {
            guard let v = b.first else { return }
            for infe in children(of: "iinf", b.dropFirst(v == 0 ? 6 : 8)) where infe.type == "infe" {
                let e = infe.body
                guard let ev = e.first, ev >= 2 else { continue }
                let idSize = ev == 2 ? 2 : 4
                if let id = HEIFBoxes.uint(e, e.startIndex + 4, idSize), e.count >= 4 + idSize + 2 + 4 {
                    types[id] = HEIFBoxes.fourCC(e, e.startIndex + 4 + idSize + 2)
                }
            }
        }

        /// An `iref` box: the `dimg` references (derived image to the items it is made of).
        private mutating func readDerivations(_ b: ArraySlice<UInt8>) {
            guard let v = b.first else { return }
            let idSize = v == 0 ? 2 : 4
            // Clamped as libheif reads them: a reference box claiming more bytes than
            // its parent holds is still read (a self-reference hidden so overflowed
            // libheif's stack; found by `make fuzz`).
            for r in children(of: "iref", b.dropFirst(4), clamped: true) where r.type == "dimg" {
                let e = r.body
                guard let from = HEIFBoxes.uint(e, e.startIndex, idSize),
                    let n = HEIFBoxes.uint(e, e.startIndex + idSize, 2)
                else { continue }
                dimg[from, default: []] += (0..<Int(n)).compactMap {
                    HEIFBoxes.uint(e, e.startIndex + idSize + 2 + $0 * idSize, idSize)
                }
            }
        }
    }

    /// The `ftyp` box: the major and (at most 64) compatible brands.
    private mutating func readBrands(_ b: ArraySlice<UInt8>) {
        if b.count >= 4 { majorBrand = Self.fourCC(b, b.startIndex) }
        var i = b.startIndex + 8
        while i + 4 <= b.endIndex && compatibleBrands.count < 64 {
            compatibleBrands.append(Self.fourCC(b, i))
            i += 4
        }
    }

    /// The primary item's transformations and `ispe`, from its associated properties.
    private mutating func readPrimaryProperties(_ meta: MetaItems, primary: UInt32) {
        for index in meta.associations[primary] ?? [] where index >= 1 && index <= meta.properties.count {
            let (type, body) = meta.properties[index - 1]
            if ["irot", "imir", "clap"].contains(type) {
                transformProperties.append(TransformProperty(type: type, body: Array(body)))
            }
            switch type {
            case "irot": transformations.append("irot \(Int((body.first ?? 0) & 3) * 90)")
            // ISO/IEC 23008-12 as amended (and libheif, Apple): mode 0 swaps top and bottom, 1 left and right.
            case "imir": transformations.append("imir \((body.first ?? 0) & 1 == 0 ? "top-bottom" : "left-right")")
            case "clap": transformations.append("clap")
            case "ispe":
                if let w = Self.uint(body[...], 4, 4), let h = Self.uint(body[...], 8, 4) {
                    primarySize = PixelSize(width: Int(w), height: Int(h))
                }
            default: break
            }
        }
    }

    /// The canvases of the derived images libheif will compose (grids and overlays reachable
    /// from the primary item): it allocates each at its descriptor's size. Sets `gridSize`
    /// (the largest) and `unreadableDerived` (the first whose descriptor cannot be read).
    private mutating func readDerivedCanvases(_ meta: MetaItems, primary: UInt32, file bytes: [UInt8]) {
        var seen: Set<UInt32> = []
        var queue = [primary]
        while let item = queue.popLast(), seen.count < Self.maxChildren {
            guard seen.insert(item).inserted else { continue }
            queue += meta.dimg[item] ?? []
            guard let type = meta.types[item], type == "grid" || type == "iovl" else { continue }
            var size: PixelSize?
            if let (method, offset, length) = Self.location(of: item, iloc: meta.iloc) {
                let source = method == 1 ? meta.idat : (method == 0 ? bytes[...] : [])
                let start = source.startIndex + offset
                if offset >= 0, start + 2 <= source.endIndex {
                    let d = source[start..<min(source.endIndex, start + max(length, 2))]
                    let wide = (d[d.startIndex + 1] & 1) == 1
                    // grid: version, flags, rows-1, columns-1, then the size; iovl: version,
                    // flags, four fill values (2 or 4 bytes), then the size.
                    let at = d.startIndex + (type == "grid" ? 4 : 2 + (wide ? 16 : 8))
                    if let w = Self.uint(d, at, wide ? 4 : 2), let h = Self.uint(d, at + (wide ? 4 : 2), wide ? 4 : 2),
                        w > 0, h > 0
                    {
                        size = PixelSize(width: Int(w), height: Int(h))
                    }
                }
            }
            guard let size else {
                if unreadableDerived == nil { unreadableDerived = item }
                continue
            }
            if gridSize.map({ size.area > $0.area }) ?? true { gridSize = size }
        }
    }

    /// The codec name for an item type.
    static func codec(_ type: String) -> String {
        switch type {
        case "hvc1": return "HEVC"
        case "av01": return "AV1"
        case "avc1": return "AVC"
        case "jpeg": return "JPEG"
        case "": return "unknown"
        default: return type
        }
    }

    package struct Box {
        package var type: String
        package var body: ArraySlice<UInt8>
    }

    /// The boxes in `bytes`, up to the first that does not fit (at most `maxChildren`); `clamped`:
    /// a box claiming more than what is left is read to the end instead, as libheif does.
    package static func boxes(_ bytes: ArraySlice<UInt8>, clamped: Bool = false) -> [Box] {
        var out: [Box] = []
        var i = bytes.startIndex
        while i + 8 <= bytes.endIndex && out.count < maxChildren {
            guard var size = uint(bytes, i, 4).map(Int.init) else { break }
            let type = fourCC(bytes, i + 4)
            var header = 8
            if size == 1 {
                guard let large = uint64(bytes, i + 8), large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = bytes.endIndex - i
            }
            if clamped && size > bytes.endIndex - i { size = bytes.endIndex - i }
            guard size >= header, size <= bytes.endIndex - i else { break }
            out.append(Box(type: type, body: bytes[(i + header)..<(i + size)]))
            i += size
        }
        return out
    }

    /// Where `item`'s data is, from an `iloc` box: (construction method, offset of its first
    /// extent including the base offset, that extent's length; 0 = to the end).
    package static func location(of item: UInt32, iloc b: ArraySlice<UInt8>) -> (method: Int, offset: Int, length: Int)?
    {
        var found: (method: Int, offset: Int, length: Int)?
        forEachLocation(iloc: b) { id, method, extents in
            guard id == item, let first = extents.first else { return true }
            found = (method, first.lowerBound, first.count)
            return false
        }
        return found
    }

    /// The one reader of an `iloc` box: calls `body` with each item's id, construction method
    /// and extents (base offset included; a length of 0 means "to the end") in file order,
    /// until `body` returns false. An item cut off by the box's end is not reported.
    package static func forEachLocation(iloc b: ArraySlice<UInt8>, _ body: (UInt32, Int, [Range<Int>]) -> Bool) {
        guard b.count >= 8 else { return }
        let version = b[b.startIndex]
        let sizes = b[b.startIndex + 4]
        let more = b[b.startIndex + 5]
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 15)
        let baseSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 15) : 0
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseSize),
            [0, 4, 8].contains(indexSize)
        else {
            return
        }
        func read(_ at: Int, _ size: Int) -> Int? {
            if size == 0 { return 0 }
            if size == 8 { return uint64(b, at).flatMap { $0 <= UInt64(Int32.max) ? Int($0) : nil } }
            return uint(b, at, size).map(Int.init)
        }
        var i = b.startIndex + 6
        let idSize = version < 2 ? 2 : 4
        guard let count = read(i, idSize) else { return }
        i += idSize
        for _ in 0..<min(count, maxChildren) {
            guard let id = read(i, idSize) else { return }
            i += idSize
            var method = 0
            if version >= 1 {
                guard let m = read(i, 2) else { return }
                method = m & 15
                i += 2
            }
            i += 2  // data_reference_index
            guard let base = read(i, baseSize), let n = read(i + baseSize, 2) else { return }
            i += baseSize + 2
            var extents: [Range<Int>] = []
            for _ in 0..<min(n, 65536) {
                i += indexSize
                guard let o = read(i, offsetSize), let l = read(i + offsetSize, lengthSize) else { return }
                i += offsetSize + lengthSize
                extents.append((base + o)..<(base + o + l))
            }
            if !body(UInt32(id), method, extents) { return }
        }
    }

    /// An `ipma` box: each item's property indices (1-based).
    package static func associations(_ b: ArraySlice<UInt8>) -> [UInt32: [Int]] {
        guard b.count >= 8, let count = uint(b, b.startIndex + 4, 4) else { return [:] }
        let version = b[b.startIndex]
        let wide = b[b.startIndex + 3] & 1 == 1
        var out: [UInt32: [Int]] = [:]
        var i = b.startIndex + 8
        for _ in 0..<min(Int(count), maxChildren) {
            let idSize = version < 1 ? 2 : 4
            guard let id = uint(b, i, idSize), i + idSize < b.endIndex else { break }
            let n = Int(b[i + idSize])
            i += idSize + 1
            var list: [Int] = []
            for _ in 0..<n {
                if wide {
                    guard let v = uint(b, i, 2) else { return out }
                    list.append(Int(v & 0x7FFF))
                    i += 2
                } else {
                    guard i < b.endIndex else { return out }
                    list.append(Int(b[i] & 0x7F))
                    i += 1
                }
            }
            out[id] = list
        }
        return out
    }

    package static func uint(_ b: ArraySlice<UInt8>, _ at: Int, _ size: Int) -> UInt32? {
        guard at >= b.startIndex, at + size <= b.endIndex else { return nil }
        var v: UInt32 = 0
        for k in 0..<size { v = v << 8 | UInt32(b[at + k]) }
        return v
    }

    package static func uint64(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt64? {
        guard let hi = uint(b, at, 4), let lo = uint(b, at + 4, 4) else { return nil }
        return UInt64(hi) << 32 | UInt64(lo)
    }

    package static func fourCC(_ b: ArraySlice<UInt8>, _ at: Int) -> String {
        guard at >= b.startIndex, at + 4 <= b.endIndex else { return "" }
        return String(
            decoding: b[at..<(at + 4)].map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}

extension HEIFBoxes {
    /// `bytes` with an essential `irot` property (`degrees` anticlockwise) added to the primary
    /// item and its alpha: ipco, ipma, iprp and meta grow, and every iloc offset past the old end of meta
    /// moves by the bytes added. nil when the boxes are not as libheif writes them.
    package static func addingRotation(_ bytes: [UInt8], degrees: Int) -> [UInt8]? {
        addingProperty(bytes, [0, 0, 0, 9] + Array("irot".utf8) + [UInt8((degrees / 90) & 3)])
    }

    /// `bytes` with an essential `imir` property added as `addingRotation` adds `irot` (after
    /// it, as HEIF orders them: irot, then imir). `axis` as libheif reads it: 0 exchanges top
    /// and bottom, 1 left and right.
    package static func addingMirror(_ bytes: [UInt8], axis: Int) -> [UInt8]? {
        addingProperty(bytes, [0, 0, 0, 9] + Array("imir".utf8) + [UInt8(axis & 1)])
    }

    /// `bytes` with the transformative property box `property` associated (essential) with the
    /// primary item and its alpha, after the properties it already has.
    package static func addingProperty(_ bytes: [UInt8], _ property: [UInt8]) -> [UInt8]? {
        guard let meta = findBox("meta", in: 0..<bytes.count, of: bytes) else { return nil }
        let metaBody = (meta.start + 12)..<(meta.start + meta.size)
        guard let pitm = findBox("pitm", in: metaBody, of: bytes), let iprp = findBox("iprp", in: metaBody, of: bytes),
            let ipco = findBox("ipco", in: (iprp.start + 8)..<(iprp.start + iprp.size), of: bytes),
            let ipma = findBox("ipma", in: (iprp.start + 8)..<(iprp.start + iprp.size), of: bytes),
            let iloc = findBox("iloc", in: metaBody, of: bytes), ipma.start > ipco.start
        else { return nil }
        let pitmV = bytes[pitm.start + 8]
        guard let primary = uint(bytes[...], pitm.start + 12, pitmV == 0 ? 2 : 4) else { return nil }
        // The new property's index (1-based) after the existing ones.
        var count = 0
        var i = ipco.start + 8
        while i + 8 <= ipco.start + ipco.size, let s = uint(bytes[...], i, 4), s >= 8 {
            count += 1
            i += Int(s)
        }
        let irot = property
        let index = count + 1
        let wide = bytes[ipma.start + 11] & 1 == 1
        guard wide || index < 128 else { return nil }
        let targets = primaryAndAuxiliaries(primary, iref: findBox("iref", in: metaBody, of: bytes), of: bytes)
        guard let entries = associationEntries(ipma, for: targets, of: bytes), !entries.isEmpty else { return nil }
        let association: [UInt8] = wide ? [UInt8(0x80 | (index >> 8)), UInt8(index & 0xFF)] : [UInt8(0x80 | index)]
        let added = association.count * entries.count
        let delta = irot.count + added
        var out = bytes
        // From the back, so earlier offsets stay valid: the associations (in ipma, after ipco), then irot.
        for entry in entries.reversed() {
            out.insert(contentsOf: association, at: entry.end)
            out[entry.countAt] += 1
        }
        out.insert(contentsOf: irot, at: ipco.start + ipco.size)
        grow(&out, at: meta.start, by: delta)
        grow(&out, at: iprp.start, by: delta)
        grow(&out, at: ipco.start, by: irot.count)
        grow(&out, at: ipma.start + irot.count, by: added)
        // iloc: shift offsets that pointed past the old end of meta.
        let ilocAt = iloc.start + (iloc.start > iprp.start ? delta : 0)
        guard shiftLocations(&out, ilocAt: ilocAt, past: meta.start + meta.size, by: delta) else { return nil }
        return out
    }

    /// The box of `type` among the boxes in `range` of `bytes` (its start, header size and
    /// size), nil when it is not there or a box before it does not fit.
    private static func findBox(_ type: String, in range: Range<Int>, of bytes: [UInt8]) -> (
        start: Int, header: Int, size: Int
    )? {
        var i = range.lowerBound
        while i + 8 <= range.upperBound {
            guard let s = uint(bytes[...], i, 4).map(Int.init), s >= 8, i + s <= range.upperBound else {
                return nil
            }
            if fourCC(bytes[...], i + 4) == type { return (i, 8, s) }
            i += s
        }
        return nil
    }

    /// The primary item and its auxiliary images (alpha: `auxl` references to the primary,
    /// in the `iref` box), which must turn with it or libheif drops them.
    private static func primaryAndAuxiliaries(
        _ primary: UInt32, iref: (start: Int, header: Int, size: Int)?, of bytes: [UInt8]
    ) -> Set<UInt32> {
        var targets: Set<UInt32> = [primary]
        if let iref {
            let idSize = bytes[iref.start + 8] == 0 ? 2 : 4
            for r in boxes(bytes[(iref.start + 12)..<(iref.start + iref.size)]) where r.type == "auxl" {
                let e = r.body
                guard let from = uint(e, e.startIndex, idSize), let k = uint(e, e.startIndex + idSize, 2) else {
                    continue
                }
                let to = (0..<Int(k)).compactMap { uint(e, e.startIndex + idSize + 2 + $0 * idSize, idSize) }
                if to.contains(primary) { targets.insert(from) }
            }
        }
        return targets
    }

    /// The `ipma` entries of the `targets` items: where each one's association count is and
    /// where its list ends. nil when the box is cut short.
    private static func associationEntries(
        _ ipma: (start: Int, header: Int, size: Int), for targets: Set<UInt32>, of bytes: [UInt8]
    ) -> [(countAt: Int, end: Int)]? {
        let version = bytes[ipma.start + 8]
        let wide = bytes[ipma.start + 11] & 1 == 1
        guard let n = uint(bytes[...], ipma.start + 12, 4) else { return nil }
        var j = ipma.start + 16
        var entries: [(countAt: Int, end: Int)] = []
        for _ in 0..<n {
            let idSize = version < 1 ? 2 : 4
            guard let id = uint(bytes[...], j, idSize), j + idSize < bytes.count else { return nil }
            let countAt = j + idSize
            let k = Int(bytes[countAt])
            j = countAt + 1 + k * (wide ? 2 : 1)
            if targets.contains(id) { entries.append((countAt, j)) }
        }
        return entries
    }

    /// Adds `by` to the 32-bit big-endian box size at `at`.
    private static func grow(_ out: inout [UInt8], at: Int, by: Int) {
        let v = Int(uint(out[...], at, 4)!) + by
        for k in 0..<4 { out[at + k] = UInt8(v >> (24 - 8 * k) & 0xFF) }
    }

    /// Moves by `delta` every file offset (construction method 0) in the `iloc` box at
    /// `ilocAt` that points at or past `oldEnd`: base offsets, and extent offsets where
    /// there is no base. false when the box is cut short.
    private static func shiftLocations(_ out: inout [UInt8], ilocAt: Int, past oldEnd: Int, by delta: Int) -> Bool {
        var p = ilocAt + 8
        let v = out[p]
        p += 4
        let offsetSize = Int(out[p] >> 4)
        let lengthSize = Int(out[p] & 15)
        let baseSize = Int(out[p + 1] >> 4)
        let indexSize = v == 1 || v == 2 ? Int(out[p + 1] & 15) : 0
        p += 2
        guard let items = uint(out[...], p, v < 2 ? 2 : 4) else { return false }
        p += v < 2 ? 2 : 4
        func read(_ at: Int, _ size: Int) -> Int {
            var r = 0
            for k in 0..<size { r = r << 8 | Int(out[at + k]) }
            return r
        }
        func write(_ at: Int, _ size: Int, _ value: Int) {
            for k in 0..<size { out[at + k] = UInt8(value >> (8 * (size - 1 - k)) & 0xFF) }
        }
        for _ in 0..<items {
            p += v < 2 ? 2 : 4
            var method = 0
            if v == 1 || v == 2 {
                method = read(p, 2) & 15
                p += 2
            }
            p += 2
            let base = read(p, baseSize)
            if method == 0 && baseSize > 0 && base >= oldEnd { write(p, baseSize, base + delta) }
            p += baseSize
            let extents = read(p, 2)
            p += 2
            for _ in 0..<extents {
                p += indexSize
                guard p + offsetSize + lengthSize <= out.count else { return false }
                let offset = read(p, offsetSize)
                if method == 0 && base == 0 && offsetSize > 0 && offset >= oldEnd {
                    write(p, offsetSize, offset + delta)
                }
                p += offsetSize + lengthSize
            }
        }
        return true
    }
}
