import Geometry

/// What `HEIFDecoder` asks libheif about a file's primary image, read from the boxes instead
/// (issue 38): for a grid whose tiles all go to libde265, a crop, a thumbnail or `info` then
/// never loads libheif (and with it x265, aom and dav1d). `read` gives nil wherever the boxes
/// say something it does not check as libheif 1.15 reads it (a tile with a colour property
/// of its own, an alpha image that is not the grid's, a compressed or unlocatable metadata
/// item, a thumbnail whose transformations cannot be read, an image or reference libheif
/// refuses...); libheif then reads the file.
struct HEIFBoxFacts {
    /// The embedded thumbnails' sizes after their transformations, in item order.
    var thumbnails: [PixelSize] = []
    /// "nclx", "prof", "rICC" or "" (an ICC profile wins over nclx, as libheif says it).
    var colorType = ""
    var nclx: [Int]?
    var icc: [UInt8]?
    /// The EXIF block from its TIFF header on, and the XMP packet.
    var exif: [UInt8]?
    var xmp: [UInt8]?

    /// An `infe` entry as this reads it beyond `HEIFGrid.Items`: a `mime` item's content type
    /// and encoding.
    private struct Entry {
        var type: String
        var contentType = ""
        var contentEncoding = ""
    }

    /// - Parameters:
    ///   - bytes: the file through `meta` at least; `file`: all of it (item data).
    ///   - iccLimit: the largest ICC profile kept (the chunk limit), as `readICC` keeps.
    ///   - alphaItem: whether the tile path decodes an alpha grid (the one alpha `auxl` allowed;
    ///     other auxiliary images, such as depth and gain maps, are checked as libheif checks them).
    static func read(
        _ bytes: [UInt8], file: UnsafeRawBufferPointer, iccLimit: Int, alphaItem: Bool
    ) -> HEIFBoxFacts? {
        guard let items = HEIFGrid.Items(bytes), let primary = items.primary else { return nil }
        let top = HEIFBoxes.boxes(bytes[...])
        guard let meta = top.first(where: { $0.type == "meta" }), meta.body.count >= 4 else { return nil }
        guard let (entries, refs) = Self.entriesAndReferences(meta.body.dropFirst(4)) else { return nil }
        func referring(_ type: String) -> [UInt32] {
            (refs[type] ?? []).filter { $0.1.contains(primary) }.map(\.0).sorted()
        }
        // The images and references as libheif checks them on opening (HEIFBoxFacts+Images):
        // auxiliary images other than the alpha grid (depth maps, gain maps) change nothing
        // it reports about the primary image.
        guard
            Self.imagesAsLibheifReads(
                items, types: entries.mapValues(\.type), refs: refs, primary: primary, alphaItem: alphaItem)
        else { return nil }
        // libheif reads every item's data on opening, and refuses the file if one has none.
        for id in entries.keys {
            guard let (method, extents) = items.locations[id], !extents.isEmpty, method == 0 || method == 1,
                extents.allSatisfy({ !$0.isEmpty && $0.upperBound <= (method == 0 ? file.count : items.idat.count) })
            else { return nil }
        }
        guard let firstTile = items.dimg[primary]?.first else { return nil }
        var facts = HEIFBoxFacts()
        guard
            facts.readColour(
                grid: items.properties(of: primary), firstTile: items.properties(of: firstTile), iccLimit: iccLimit)
        else { return nil }
        for id in referring("thmb") {
            guard entries[id]?.type == "hvc1", let size = Self.displayedSize(items.properties(of: id)) else {
                return nil
            }
            facts.thumbnails.append(size)
        }
        func data(_ id: UInt32) -> [UInt8]? { Self.itemData(id, items: items, file: file) }
        let metadata = referring("cdsc")
        // More than one block of a kind: which libheif lists first is not checked here.
        guard metadata.filter({ entries[$0]?.type == "Exif" }).count <= 1,
            metadata.filter({ entries[$0]?.type == "mime" }).count <= 1
        else { return nil }
        if let exifID = metadata.first(where: { entries[$0]?.type == "Exif" }) {
            guard entries[exifID]?.contentEncoding.isEmpty == true, let block = data(exifID) else { return nil }
            if block.count > 4 {
                let skip =
                    4 + Int(UInt32(block[0]) << 24 | UInt32(block[1]) << 16 | UInt32(block[2]) << 8 | UInt32(block[3]))
                if skip < block.count { facts.exif = Array(block[skip...]) }
            }
        }
        for id in metadata.prefix(8) where entries[id]?.type == "mime" {
            guard let e = entries[id], e.contentEncoding.isEmpty else { return nil }
            guard e.contentType == "application/rdf+xml" else { continue }
            guard let block = data(id) else { return nil }
            facts.xmp = block
            break
        }
        return facts
    }

    /// The `iinf` entries and `iref` references of a `meta` box's children; nil when one is
    /// malformed (as libheif refuses the file).
    private static func entriesAndReferences(
        _ children: ArraySlice<UInt8>
    ) -> ([UInt32: Entry], [String: [(UInt32, [UInt32])]])? {
        var entries: [UInt32: Entry] = [:]
        var refs: [String: [(UInt32, [UInt32])]] = [:]
        for child in HEIFBoxes.boxes(children) {
            let b = child.body
            guard let v = b.first else { continue }
            if child.type == "iinf" {
                for infe in HEIFBoxes.boxes(b.dropFirst(v == 0 ? 6 : 8)) where infe.type == "infe" {
                    guard let (id, entry) = Self.entry(infe.body) else { return nil }
                    entries[id] = entry
                }
            } else if child.type == "iref" {
                let n = v == 0 ? 2 : 4
                for r in HEIFBoxes.boxes(b.dropFirst(4)) {
                    let e = r.body
                    guard let from = HEIFBoxes.uint(e, e.startIndex, n),
                        let count = HEIFBoxes.uint(e, e.startIndex + n, 2), e.count >= n + 2 + Int(count) * n
                    else { return nil }
                    let to = (0..<Int(count)).compactMap { HEIFBoxes.uint(e, e.startIndex + n + 2 + $0 * n, n) }
                    refs[r.type, default: []].append((from, to))
                }
            }
        }
        return (entries, refs)
    }

    /// An item's data, from the file (`iloc` construction method 0) or `idat` (1); nil for
    /// another method, an empty or out-of-bounds extent, or 16 MiB and more.
    private static func itemData(_ id: UInt32, items: HEIFGrid.Items, file: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let (method, extents) = items.locations[id], !extents.isEmpty else { return nil }
        var out: [UInt8] = []
        for e in extents {
            guard e.count > 0 else { return nil }
            if method == 0 {
                guard e.upperBound <= file.count else { return nil }
                out += UnsafeRawBufferPointer(rebasing: file[e])
            } else if method == 1 {
                guard e.upperBound <= items.idat.count else { return nil }
                out += items.idat[(items.idat.startIndex + e.lowerBound)..<(items.idat.startIndex + e.upperBound)]
            } else {
                return nil
            }
            guard out.count < 1 << 24 else { return nil }
        }
        return out
    }

    /// An `infe` box's item id and type, with a `mime` item's content type and encoding.
    private static func entry(_ e: ArraySlice<UInt8>) -> (UInt32, Entry)? {
        guard let version = e.first, version >= 2 else { return nil }
        let n = version == 2 ? 2 : 4
        guard let id = HEIFBoxes.uint(e, e.startIndex + 4, n), e.count >= 4 + n + 6 else { return nil }
        var entry = Entry(type: HEIFBoxes.fourCC(e, e.startIndex + 4 + n + 2))
        var strings: [String] = []
        var rest = e[(e.startIndex + 4 + n + 6)...]
        while !rest.isEmpty, strings.count < 3 {
            let end = rest.firstIndex(of: 0) ?? rest.endIndex
            strings.append(String(decoding: rest[rest.startIndex..<end], as: UTF8.self))
            rest = rest[min(rest.endIndex, end + 1)...]
        }
        if entry.type == "mime" {
            entry.contentType = strings.count > 1 ? strings[1] : ""
            entry.contentEncoding = strings.count > 2 ? strings[2] : ""
        }
        return (id, entry)
    }

    /// An item's `colr` boxes: an ICC profile (its kind and bytes) and the nclx values;
    /// nil for boxes libheif may read otherwise (two of a kind, another kind, too short).
    private static func colour(_ properties: [(String, ArraySlice<UInt8>)]) -> (
        icc: (kind: String, body: ArraySlice<UInt8>)?, nclx: [Int]?
    )? {
        var icc: (kind: String, body: ArraySlice<UInt8>)?
        var nclx: [Int]?
        for (type, body) in properties where type == "colr" {
            guard body.count >= 4 else { return nil }
            let kind = HEIFBoxes.fourCC(body, body.startIndex)
            switch kind {
            case "nclx":
                guard body.count >= 11, nclx == nil else { return nil }
                let b = Array(body)
                nclx = [
                    Int(b[4]) << 8 | Int(b[5]), Int(b[6]) << 8 | Int(b[7]), Int(b[8]) << 8 | Int(b[9]),
                    b[10] & 0x80 != 0 ? 1 : 0,
                ]
            case "prof", "rICC":
                guard icc == nil else { return nil }
                icc = (kind, body.dropFirst(4))
            default: return nil
            }
        }
        return (icc, nclx)
    }

    /// The grid's colour as libheif 1.15 reports it: the grid item's `colr` boxes, and for a
    /// kind (ICC, nclx) the grid lacks, its first tile's. An ICC profile is what libheif
    /// names first; the nclx values are reported only without one (as `readColorBox` does).
    private mutating func readColour(
        grid: [(String, ArraySlice<UInt8>)], firstTile: [(String, ArraySlice<UInt8>)], iccLimit: Int
    ) -> Bool {
        guard let own = Self.colour(grid), let tile = Self.colour(firstTile) else { return false }
        let profile = own.icc ?? tile.icc
        let values = own.nclx ?? tile.nclx
        if let profile {
            colorType = profile.kind
            if profile.body.count > 0 && profile.body.count <= iccLimit { icc = Array(profile.body) }
        } else if let values {
            colorType = "nclx"
            nclx = values
        }
        return true
    }

    /// An item's `ispe` after its `irot`, `imir` and `clap`, as libheif gives a thumbnail's size.
    private static func displayedSize(_ properties: [(String, ArraySlice<UInt8>)]) -> PixelSize? {
        guard let ispe = properties.first(where: { $0.0 == "ispe" }),
            let w = HEIFBoxes.uint(ispe.1, ispe.1.startIndex + 4, 4),
            let h = HEIFBoxes.uint(ispe.1, ispe.1.startIndex + 8, 4), w > 0, h > 0
        else { return nil }
        let size = PixelSize(width: Int(w), height: Int(h))
        guard let single = TiledCanvas(columns: 1, rows: 1, tile: size, canvas: size),
            let shown = HEIFGrid.transformed(single, by: properties)
        else { return nil }
        return shown.displayedSize
    }
}
