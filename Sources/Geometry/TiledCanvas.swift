/// A tiled picture (an HEIF `grid`: columns x rows of equal coded tiles, the canvas cut to
/// the grid's output size at the right and bottom) and how it is shown: the transformations
/// of the grid item (`clap`, `irot`, `imir`, in the order the file lists them) reduced to one
/// crop of the coded canvas and one `Orientation`, so that a displayed rectangle maps back to
/// the coded rectangle, and to the tiles, that make it up.
///
/// displayed = canvas.cropped(to: crop).oriented(orientation): a crop of the displayed image
/// is a crop of the coded canvas turned as a whole, so a region is assembled from its tiles
/// in coded orientation and turned once.
public struct TiledCanvas: Hashable, Sendable {
    public let columns: Int
    public let rows: Int
    public let tile: PixelSize
    /// The grid's output size (the coded canvas, before any transformation).
    public let canvas: PixelSize
    /// The part of the canvas shown (the clean apertures, mapped back to coded pixels).
    public private(set) var crop: PixelRect
    /// How the cropped canvas is turned to be shown.
    public private(set) var orientation: Orientation = .up

    /// One transformative property, as ISO/IEC 23008-12 defines it.
    public enum Transformation: Hashable, Sendable {
        /// `irot`: quarter turns anticlockwise.
        case rotate(quarterTurns: Int)
        /// `imir`: `leftRight` false swaps top and bottom (mode 0, as libheif reads it).
        case mirror(leftRight: Bool)
        /// `clap`: the clean aperture, already rounded to pixels of the image it applies to.
        case crop(PixelRect)
    }

    /// nil when the tiles do not cover the canvas exactly: fewer tiles than the output
    /// needs, or a whole row or column of tiles outside it.
    public init?(columns: Int, rows: Int, tile: PixelSize, canvas: PixelSize) {
        guard columns > 0, rows > 0, tile.width > 0, tile.height > 0, canvas.width > 0, canvas.height > 0,
            columns <= 1 << 16, rows <= 1 << 16,
            columns * tile.width >= canvas.width, rows * tile.height >= canvas.height,
            (columns - 1) * tile.width < canvas.width, (rows - 1) * tile.height < canvas.height
        else { return nil }
        self.columns = columns
        self.rows = rows
        self.tile = tile
        self.canvas = canvas
        crop = PixelRect(size: canvas)
    }

    /// The displayed size after every transformation applied so far.
    public var displayedSize: PixelSize { orientation.uprightSize(ofStored: crop.size) }

    /// Applies the next transformation; false (nothing changed) for a crop outside the image.
    public mutating func apply(_ t: Transformation) -> Bool {
        switch t {
        case .crop(let r):
            guard !r.isEmpty, r.intersection(PixelRect(size: displayedSize)) == r else { return false }
            let s = orientation.storedRect(forUpright: r, stored: crop.size)
            crop = PixelRect(x: crop.x + s.x, y: crop.y + s.y, width: s.width, height: s.height)
        case .rotate, .mirror:
            orientation = Self.compose(orientation, t)
        }
        return true
    }

    /// The coded canvas rectangle whose pixels make up the displayed rectangle `rect`.
    public func codedRect(forDisplayed rect: PixelRect) -> PixelRect {
        let s = orientation.storedRect(forUpright: rect, stored: crop.size)
        return PixelRect(x: crop.x + s.x, y: crop.y + s.y, width: s.width, height: s.height)
    }

    /// The tiles (row-major indices) a coded rectangle touches.
    public func tiles(touching coded: PixelRect) -> [Int] {
        let r = coded.intersection(PixelRect(size: canvas))
        guard !r.isEmpty else { return [] }
        var out: [Int] = []
        for row in (r.y / tile.height)...((r.maxY - 1) / tile.height) {
            for column in (r.x / tile.width)...((r.maxX - 1) / tile.width) { out.append(row * columns + column) }
        }
        return out
    }

    /// Tile `index`'s place on the canvas, cut to the canvas.
    public func rect(ofTile index: Int) -> PixelRect {
        PixelRect(
            x: index % columns * tile.width, y: index / columns * tile.height, width: tile.width, height: tile.height
        )
        .intersection(PixelRect(size: canvas))
    }

    /// The orientation that shows what `o` shows, then turned by `t` (found by mapping the
    /// pixels of a small test image: the eight orientations are a closed group).
    static func compose(_ o: Orientation, _ t: Transformation) -> Orientation {
        let stored = PixelSize(width: 5, height: 3)
        let before = o.uprightSize(ofStored: stored)
        // Where the pixel shown at p after `t` was shown before `t`.
        func previous(_ p: PixelPoint, _ after: PixelSize) -> PixelPoint {
            switch t {
            case .rotate(let q):
                var p = p
                var size = after
                // One anticlockwise quarter turn moves (x, y) of a w x h image to (y, w-1-x);
                // undo it q times.
                for _ in 0..<((q % 4 + 4) % 4) {
                    p = PixelPoint(x: size.height - 1 - p.y, y: p.x)
                    size = size.transposed
                }
                return p
            case .mirror(let leftRight):
                return leftRight
                    ? PixelPoint(x: after.width - 1 - p.x, y: p.y) : PixelPoint(x: p.x, y: after.height - 1 - p.y)
            case .crop: return p
            }
        }
        var turned = before
        if case .rotate(let q) = t, q % 2 != 0 { turned = before.transposed }
        return Orientation.allCases.first { c in
            guard c.uprightSize(ofStored: stored) == turned else { return false }
            for y in 0..<turned.height {
                for x in 0..<turned.width {
                    let p = PixelPoint(x: x, y: y)
                    if c.storedPixel(forUpright: p, stored: stored)
                        != o.storedPixel(forUpright: previous(p, turned), stored: stored)
                    {
                        return false
                    }
                }
            }
            return true
        }!
    }

    /// libheif's rounding of a clean aperture (`clap`: width, height and the centre's offsets
    /// as fractions) on an image of `size`, asymmetric as libheif 1.15 has it: left = offset +
    /// (size-1)/2 - (width-1)/2 rounded down, top likewise but rounded half up, right = left +
    /// width - 1 and bottom = top + height - 1 rounded half up; clamped to the image; nil
    /// when less than two pixels a side are left (libheif refuses those).
    public static func cleanAperture(
        size: PixelSize, width: (Int64, Int64), height: (Int64, Int64),
        horizontalOffset: (Int64, Int64), verticalOffset: (Int64, Int64)
    ) -> PixelRect? {
        func edges(_ extent: Int, _ span: (Int64, Int64), _ offset: (Int64, Int64), roundStart: Bool) -> (Int, Int)? {
            guard span.1 > 0, offset.1 > 0, span.0 > 0, span.0 < 1 << 31, abs(offset.0) < 1 << 31,
                span.1 < 1 << 31, offset.1 < 1 << 31
            else { return nil }
            func floor(_ n: Int64, _ d: Int64) -> Int64 { n >= 0 ? n / d : -((-n + d - 1) / d) }
            func halfUp(_ n: Int64, _ d: Int64) -> Int64 { floor(2 * n + d, 2 * d) }
            // start = offset + (extent - 1)/2 - (span - 1)/2, over the denominator 2 * d1 * d2.
            let d = 2 * span.1 * offset.1
            let n = 2 * offset.0 * span.1 + Int64(extent - 1) * span.1 * offset.1 - (span.0 - span.1) * offset.1
            let start = roundStart ? halfUp(n, d) : floor(n, d)
            // end = (span - 1) + start, rounded half up.
            let end = halfUp(span.0 - span.1 + start * span.1, span.1)
            let a = Int(max(0, start))
            let b = Int(min(Int64(extent - 1), end))
            return a < b ? (a, b) : nil
        }
        guard let (l, r) = edges(size.width, width, horizontalOffset, roundStart: false),
            let (t, b) = edges(size.height, height, verticalOffset, roundStart: true)
        else { return nil }
        return PixelRect(x: l, y: t, width: r - l + 1, height: b - t + 1)
    }
}
