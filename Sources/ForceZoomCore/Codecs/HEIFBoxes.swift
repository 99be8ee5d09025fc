/// What an HEIF file's boxes say about its primary image, read with bounds checks from the
/// bytes alone (no libheif): the brands, the primary item's type (the codec, or a grid) and
/// its transformative properties (`irot`, `imir`, `clap`), which libheif applies and `info`
/// reports. libheif 1.15 has no call that lists the transformations.
struct HEIFBoxes: Equatable, Sendable {
    var majorBrand = ""
    var compatibleBrands: [String] = []
    /// The primary item's type: "hvc1", "av01", "grid", "iden"...
    var primaryType = ""
    /// The primary item's transformations in the order the file lists them ("irot 90", "imir top-bottom", "clap").
    var transformations: [String] = []
    /// How many tiles a grid primary image has (its `dimg` references), 0 when not a grid.
    var gridTiles = 0
    /// The codec of the tiles of a grid primary image.
    var tileType = ""
    /// The primary item's `ispe` (its size before the transformations), when the boxes say.
    var primarySize: PixelSize?
    /// Whether the derived-image references (`dimg`) from the primary item come back to an
    /// item already on the path: libheif 1.15 follows them until its stack overflows.
    var referenceLoop = false

    /// Reads what it can; fields stay empty where the boxes are missing or broken (libheif
    /// then says what is wrong when it reads the file).
    init(_ bytes: [UInt8]) {
        var primary: UInt32?
        var types: [UInt32: String] = [:]
        var properties: [(String, [UInt8])] = []
        var associations: [UInt32: [Int]] = [:]
        var dimg: [UInt32: [UInt32]] = [:]
        for box in Self.boxes(bytes[...]) {
            if box.type == "ftyp" {
                let b = box.body
                if b.count >= 4 { majorBrand = Self.fourCC(b, b.startIndex) }
                var i = b.startIndex + 8
                while i + 4 <= b.endIndex && compatibleBrands.count < 64 {
                    compatibleBrands.append(Self.fourCC(b, i))
                    i += 4
                }
            }
            guard box.type == "meta", box.body.count >= 4 else { continue }
            for child in Self.boxes(box.body.dropFirst(4)) {
                let b = child.body
                switch child.type {
                case "pitm":
                    guard let v = b.first else { break }
                    primary = v == 0 ? Self.uint(b, b.startIndex + 4, 2) : Self.uint(b, b.startIndex + 4, 4)
                case "iinf":
                    guard let v = b.first else { break }
                    for infe in Self.boxes(b.dropFirst(v == 0 ? 6 : 8)) where infe.type == "infe" {
                        let e = infe.body
                        guard let ev = e.first, ev >= 2 else { continue }
                        let idSize = ev == 2 ? 2 : 4
                        if let id = Self.uint(e, e.startIndex + 4, idSize), e.count >= 4 + idSize + 2 + 4 {
                            types[id] = Self.fourCC(e, e.startIndex + 4 + idSize + 2)
                        }
                    }
                case "iprp":
                    for p in Self.boxes(b) {
                        if p.type == "ipco" {
                            properties = Self.boxes(p.body).prefix(4096).map { ($0.type, Array($0.body)) }
                        } else if p.type == "ipma" {
                            associations.merge(Self.associations(p.body)) { a, _ in a }
                        }
                    }
                case "iref":
                    guard let v = b.first else { break }
                    let idSize = v == 0 ? 2 : 4
                    for r in Self.boxes(b.dropFirst(4)) where r.type == "dimg" {
                        let e = r.body
                        guard let from = Self.uint(e, e.startIndex, idSize), let n = Self.uint(e, e.startIndex + idSize, 2) else { continue }
                        dimg[from, default: []] += (0..<Int(n)).compactMap { Self.uint(e, e.startIndex + idSize + 2 + $0 * idSize, idSize) }
                    }
                default: break
                }
            }
        }
        guard let primary else { return }
        primaryType = types[primary] ?? ""
        for index in associations[primary] ?? [] where index >= 1 && index <= properties.count {
            let (type, body) = properties[index - 1]
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
        // Depth-first along dimg from the primary item; a reference to an item on the path is a loop.
        var path: Set<UInt32> = []
        var visits = 0
        func walk(_ item: UInt32) -> Bool {
            visits += 1
            if visits > 100_000 || path.contains(item) { return true }
            path.insert(item)
            defer { path.remove(item) }
            return (dimg[item] ?? []).contains { walk($0) }
        }
        referenceLoop = walk(primary)
        if primaryType == "grid" {
            let tiles = dimg[primary] ?? []
            gridTiles = tiles.count
            tileType = tiles.first.flatMap { types[$0] } ?? ""
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

    struct Box {
        var type: String
        var body: ArraySlice<UInt8>
    }

    /// The boxes in `bytes`, up to the first that does not fit (at most 4096).
    static func boxes(_ bytes: ArraySlice<UInt8>) -> [Box] {
        var out: [Box] = []
        var i = bytes.startIndex
        while i + 8 <= bytes.endIndex && out.count < 4096 {
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
            guard size >= header, size <= bytes.endIndex - i else { break }
            out.append(Box(type: type, body: bytes[(i + header)..<(i + size)]))
            i += size
        }
        return out
    }

    /// An `ipma` box: each item's property indices (1-based).
    static func associations(_ b: ArraySlice<UInt8>) -> [UInt32: [Int]] {
        guard b.count >= 8, let count = uint(b, b.startIndex + 4, 4) else { return [:] }
        let version = b[b.startIndex], wide = b[b.startIndex + 3] & 1 == 1
        var out: [UInt32: [Int]] = [:]
        var i = b.startIndex + 8
        for _ in 0..<min(Int(count), 65536) {
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

    static func uint(_ b: ArraySlice<UInt8>, _ at: Int, _ size: Int) -> UInt32? {
        guard at >= b.startIndex, at + size <= b.endIndex else { return nil }
        var v: UInt32 = 0
        for k in 0..<size { v = v << 8 | UInt32(b[at + k]) }
        return v
    }

    static func uint64(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt64? {
        guard let hi = uint(b, at, 4), let lo = uint(b, at + 4, 4) else { return nil }
        return UInt64(hi) << 32 | UInt64(lo)
    }

    static func fourCC(_ b: ArraySlice<UInt8>, _ at: Int) -> String {
        guard at >= b.startIndex, at + 4 <= b.endIndex else { return "" }
        return String(decoding: b[at..<(at + 4)].map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
