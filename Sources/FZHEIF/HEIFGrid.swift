import Geometry

/// A primary image that is an HEIF `grid` of coded tiles (HEVC or AV1), read from the boxes
/// alone so that a crop can decode only the tiles it touches (`HEIFTileDecoder`): the grid
/// descriptor, each tile's codec configuration and data, the colour property of the grid
/// item (which governs the tiles, that usually carry none), its transformations as a
/// `TiledCanvas`, and an alpha grid (`auxl` with the alpha URN) with tiles of its own.
///
/// `read` gives nil where the tile path does not apply (not a grid, nested grids, a tile
/// in `idat`...), and libheif decodes the whole image as before; it throws for a grid
/// libheif would also refuse or misdraw (tiles not covering the canvas, a tile count other
/// than the descriptor's, tiles of another codec or size, data outside the file).
package struct HEIFGrid: Sendable {
    /// One coded tile: its configuration property (`hvcC`/`av1C`) and `pixi`, as whole
    /// boxes, and where its data lies in the file.
    struct Tile: Sendable {
        var properties: [[UInt8]]
        var extents: [Range<Int>]
    }

    var brand: String
    /// "hvc1" or "av01".
    var itemType: String
    var canvas: TiledCanvas
    var tiles: [Tile]
    /// The grid's `colr` box (nclx or ICC), given to every tile.
    var colour: [UInt8]?
    /// The alpha grid's tiles (same layout) and its `auxC` box.
    var alphaTiles: [Tile]?
    var alphaProperty: [UInt8]?

    /// `canvas` as an item's transformative properties (`irot`, `imir`, `clap`, in the
    /// order given; others are skipped) show it; nil for a clean aperture that cannot be
    /// read or lies outside. Also how a single coded image is shown (`HEIFDetails.display`).
    static func transformed(_ canvas: TiledCanvas, by properties: [(String, ArraySlice<UInt8>)]) -> TiledCanvas? {
        var canvas = canvas
        for (type, body) in properties {
            let step: TiledCanvas.Transformation
            switch type {
            case "irot": step = .rotate(quarterTurns: Int((body.first ?? 0) & 3))
            case "imir": step = .mirror(leftRight: (body.first ?? 0) & 1 == 1)
            case "clap":
                func fraction(_ k: Int) -> (Int64, Int64)? {
                    guard let n = HEIFBoxes.uint(body, body.startIndex + 8 * k, 4),
                        let d = HEIFBoxes.uint(body, body.startIndex + 8 * k + 4, 4)
                    else { return nil }
                    // Widths are unsigned, offsets signed.
                    return (k < 2 ? Int64(n) : Int64(Int32(bitPattern: n)), Int64(d))
                }
                guard let w = fraction(0), let h = fraction(1), let dx = fraction(2), let dy = fraction(3),
                    let r = TiledCanvas.cleanAperture(
                        size: canvas.displayedSize, width: w, height: h, horizontalOffset: dx, verticalOffset: dy)
                else { return nil }
                step = .crop(r)
            default: continue
            }
            guard canvas.apply(step) else { return nil }
        }
        return canvas
    }

    /// Why a grid cannot be decoded: the detail of a `DecodeError.corruptHeader`.
    struct Invalid: Error {
        var detail: String
    }

    /// The primary item's grid, when there is one the tile path can decode.
    /// - Parameters:
    ///   - bytes: the file, or its start through `meta` (`HEIFFileBytes.head`).
    ///   - fileSize: the whole file's size, which tile data must lie within.
    static func read(_ bytes: [UInt8], fileSize: Int? = nil) throws(Invalid) -> HEIFGrid? {
        let fileSize = fileSize ?? bytes.count
        guard let items = Items(bytes), let primary = items.primary, items.types[primary] == "grid" else { return nil }
        guard let (layout, tiles, type) = try grid(primary, items, bytes, fileSize) else { return nil }
        guard let canvas = transformed(layout, by: items.properties(of: primary)) else { return nil }
        var out = HEIFGrid(
            brand: items.brand, itemType: type, canvas: canvas, tiles: tiles,
            colour: items.properties(of: primary).first { $0.0 == "colr" }.map { Items.box($0.0, $0.1) })
        // An alpha grid: an auxiliary item whose auxC names alpha, referring to the primary.
        for (from, to) in items.auxl where to.contains(primary) && items.types[from] == "grid" {
            guard let aux = items.properties(of: from).first(where: { $0.0 == "auxC" }),
                String(decoding: aux.1, as: UTF8.self).contains("alpha")
                    || String(decoding: aux.1, as: UTF8.self).contains("auxid:1")
            else { continue }
            guard let (alphaLayout, alphaTiles, alphaType) = try grid(from, items, bytes, fileSize), alphaType == type,
                alphaLayout.columns == layout.columns, alphaLayout.rows == layout.rows, alphaLayout.tile == layout.tile,
                alphaLayout.canvas == layout.canvas
            else { return nil }
            out.alphaTiles = alphaTiles
            out.alphaProperty = Items.box(aux.0, aux.1)
        }
        return out
    }

    /// A grid item's layout and tiles; nil where only libheif can compose it.
    private static func grid(_ item: UInt32, _ items: Items, _ bytes: [UInt8], _ fileSize: Int) throws(Invalid)
        -> (TiledCanvas, [Tile], String)?
    {
        guard let (method, extents) = items.locations[item], extents.count == 1 else { return nil }
        let source = method == 1 ? items.idat : (method == 0 ? bytes[...] : [])
        let e = extents[0]
        guard e.lowerBound >= 0, source.startIndex + e.upperBound <= source.endIndex, e.count >= 8 else {
            throw Invalid(detail: "the grid descriptor of item \(item) lies outside the file")
        }
        let d = source[(source.startIndex + e.lowerBound)..<(source.startIndex + e.upperBound)]
        let wide = d[d.startIndex + 1] & 1 == 1
        let rows = Int(d[d.startIndex + 2]) + 1
        let columns = Int(d[d.startIndex + 3]) + 1
        guard let w = HEIFBoxes.uint(d, d.startIndex + 4, wide ? 4 : 2),
            let h = HEIFBoxes.uint(d, d.startIndex + (wide ? 8 : 6), wide ? 4 : 2)
        else { throw Invalid(detail: "the grid descriptor of item \(item) is cut short") }
        let ids = items.dimg[item] ?? []
        guard ids.count == rows * columns else {
            throw Invalid(detail: "the grid has \(ids.count) tiles but its descriptor says \(columns)x\(rows)")
        }
        guard let type = items.types[ids[0]], type == "hvc1" || type == "av01" else { return nil }
        var size: PixelSize?
        var tiles: [Tile] = []
        tiles.reserveCapacity(ids.count)
        for (k, id) in ids.enumerated() {
            guard items.types[id] == type else {
                throw Invalid(
                    detail: "tile \(k) is \(HEIFBoxes.codec(items.types[id] ?? "")), not \(HEIFBoxes.codec(type))")
            }
            let props = items.properties(of: id)
            guard let ispe = props.first(where: { $0.0 == "ispe" }),
                let tw = HEIFBoxes.uint(ispe.1, ispe.1.startIndex + 4, 4),
                let th = HEIFBoxes.uint(ispe.1, ispe.1.startIndex + 8, 4)
            else { throw Invalid(detail: "tile \(k) has no size (ispe)") }
            let tileSize = PixelSize(width: Int(tw), height: Int(th))
            if size == nil { size = tileSize }
            guard tileSize == size else { throw Invalid(detail: "tile \(k) is \(tileSize), the first tile \(size!)") }
            // Transformations on a tile itself: leave it to libheif.
            guard !props.contains(where: { ["irot", "imir", "clap"].contains($0.0) }),
                let config = props.first(where: { $0.0 == "hvcC" || $0.0 == "av1C" })
            else { return nil }
            guard let (m, ranges) = items.locations[id], m == 0, !ranges.isEmpty else {
                throw Invalid(detail: "tile \(k) has no data in the file (iloc)")
            }
            guard ranges.allSatisfy({ $0.lowerBound >= 0 && $0.upperBound <= fileSize && !$0.isEmpty }) else {
                throw Invalid(detail: "the data of tile \(k) (iloc) lies outside the file, which is \(fileSize) bytes")
            }
            tiles.append(
                Tile(
                    properties: [Items.box(config.0, config.1)]
                        + props.filter { $0.0 == "pixi" }.map { Items.box($0.0, $0.1) },
                    extents: ranges))
        }
        guard let tile = size,
            let layout = TiledCanvas(
                columns: columns, rows: rows, tile: tile, canvas: PixelSize(width: Int(w), height: Int(h)))
        else {
            throw Invalid(detail: "the grid's \(columns)x\(rows) tiles of \(size!) do not cover its \(w)x\(h) canvas")
        }
        return (layout, tiles, type)
    }
}

extension HEIFGrid {
    /// The items of the first `meta` box: types, properties, references, locations.
    package struct Items {
        var brand = ""
        var primary: UInt32?
        var types: [UInt32: String] = [:]
        var ipco: [(String, ArraySlice<UInt8>)] = []
        var ipma: [UInt32: [Int]] = [:]
        var dimg: [UInt32: [UInt32]] = [:]
        var auxl: [UInt32: [UInt32]] = [:]
        /// item -> (construction method, extents relative to the file, or to idat for method 1).
        var locations: [UInt32: (Int, [Range<Int>])] = [:]
        var idat: ArraySlice<UInt8> = []

        init?(_ bytes: [UInt8]) {
            let top = HEIFBoxes.boxes(bytes[...])
            if let ftyp = top.first(where: { $0.type == "ftyp" }) {
                brand = HEIFBoxes.fourCC(ftyp.body, ftyp.body.startIndex)
            }
            guard let meta = top.first(where: { $0.type == "meta" }), meta.body.count >= 4 else { return nil }
            for child in HEIFBoxes.boxes(meta.body.dropFirst(4)) {
                let b = child.body
                guard let v = b.first else { continue }
                switch child.type {
                case "pitm": primary = HEIFBoxes.uint(b, b.startIndex + 4, v == 0 ? 2 : 4)
                case "idat": idat = b
                case "iloc": locations = Self.locations(b)
                case "iinf":
                    for infe in HEIFBoxes.boxes(b.dropFirst(v == 0 ? 6 : 8)) where infe.type == "infe" {
                        let e = infe.body
                        guard let ev = e.first, ev >= 2 else { continue }
                        let n = ev == 2 ? 2 : 4
                        if let id = HEIFBoxes.uint(e, e.startIndex + 4, n), e.count >= 4 + n + 6 {
                            types[id] = HEIFBoxes.fourCC(e, e.startIndex + 4 + n + 2)
                        }
                    }
                case "iprp":
                    for p in HEIFBoxes.boxes(b) {
                        if p.type == "ipco" { ipco = HEIFBoxes.boxes(p.body).map { ($0.type, $0.body) } }
                        if p.type == "ipma" { ipma.merge(HEIFBoxes.associations(p.body)) { a, _ in a } }
                    }
                case "iref":
                    let n = v == 0 ? 2 : 4
                    for r in HEIFBoxes.boxes(b.dropFirst(4)) where r.type == "dimg" || r.type == "auxl" {
                        let e = r.body
                        guard let from = HEIFBoxes.uint(e, e.startIndex, n),
                            let count = HEIFBoxes.uint(e, e.startIndex + n, 2)
                        else { continue }
                        let to = (0..<Int(count)).compactMap { HEIFBoxes.uint(e, e.startIndex + n + 2 + $0 * n, n) }
                        if r.type == "dimg" { dimg[from, default: []] += to } else { auxl[from, default: []] += to }
                    }
                default: break
                }
            }
        }

        /// An item's properties in the order `ipma` lists them.
        func properties(of item: UInt32) -> [(String, ArraySlice<UInt8>)] {
            (ipma[item] ?? []).compactMap { $0 >= 1 && $0 <= ipco.count ? ipco[$0 - 1] : nil }
        }

        package static func box(_ type: String, _ body: ArraySlice<UInt8>) -> [UInt8] {
            let n = UInt32(body.count + 8)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8)
                + body
        }

        /// Every item's extents from an `iloc` box (all of them, unlike `HEIFBoxes.location`;
        /// a later entry for the same id replaces an earlier one). A length of 0 means "to the
        /// end of the file": not for tiles.
        static func locations(_ b: ArraySlice<UInt8>) -> [UInt32: (Int, [Range<Int>])] {
            var out: [UInt32: (Int, [Range<Int>])] = [:]
            HEIFBoxes.forEachLocation(iloc: b) { id, method, extents in
                out[id] = (method, extents)
                return true
            }
            return out
        }
    }
}
