import FZImage
import FZRender
import FZSystem
import Geometry

/// The model of `forcezoom peek`: the decoded image, where the panes go on the screen, the
/// touch point and zoom, and the pictures for them. The left pane is what `frame` draws (the
/// image fitted, the preview box around the window); the right one is the peek itself, the
/// pixels `crop --at` gives for the point with `--size side --zoom z`. The image is decoded
/// once; the fitted view is scaled once; a move renders only the box and the peek (small).
public struct PeekScreen {
    public static let zooms: [Double] = [1, 2, 4, 8]

    public let image: Image
    /// One cell in canvas pixels (blocks: 1 x 2).
    public let cell: PixelSize
    /// The panes' area in pixels (the window less its status row).
    public let canvas: PixelSize
    /// The peek's side N, and its pane's left edge.
    public let side: Int
    public let peekX: Int
    public let fit: AspectFit
    package let scaledView: Image
    public var point: PixelPoint
    /// The zooms + and - step through: 1, 2, 4, 8 and the one asked for (`--zoom`).
    public private(set) var zooms = Self.zooms
    public var zoomIndex = 0
    /// The saved peek's side as `crop` takes it (`--size`, `--screen`), nil: the pane's `side`.
    /// The pane shows it scaled to `side`; what is saved is the crop at this side.
    public private(set) var fixedSide: Int?
    /// The faces and named regions r / Tab jumps through (`PeekStop`), in the file's order.
    public var stops: [PeekStop] = []
    /// The stop jumped to last (the next jump goes on from it), nil before the first.
    public internal(set) var stopIndex: Int?

    /// - Parameters:
    ///   - image: the decoded, upright image.
    ///   - columns, rows: the window in cells.
    ///   - cell: one cell in pixels (1 x 2 for blocks).
    public init(image: Image, columns: Int, rows: Int, cell: PixelSize) {
        self.image = image
        self.cell = cell
        canvas = Self.canvas(columns: columns, rows: rows, cell: cell)
        // The peek square takes at most half the width; its side on whole cells both ways.
        var n = min(canvas.height, (canvas.width - cell.width) / 2)
        n -= n % cell.height
        n = max(cell.height, n - n % cell.width)
        side = n
        peekX = (canvas.width - n) - (canvas.width - n) % cell.width
        fit = AspectFit(image: image.size, view: PixelSize(width: max(1, peekX - cell.width), height: canvas.height))
        let place = FrameRenderer.imagePixels(fit)
        scaledView = InlineImage.scaled(image.converted(to: image.format.withColor), to: place.size)
        point = PixelPoint(x: image.width / 2, y: image.height / 2)
    }

    /// The panes' area for a window of `columns` x `rows` cells (checked arithmetic, each
    /// side at most `Budget.maxSide`).
    public static func canvas(columns: Int, rows: Int, cell: PixelSize) -> PixelSize {
        PixelSize(
            width: TerminalScreen.Window.product(max(2, columns), cell.width),
            height: TerminalScreen.Window.product(max(1, rows - 1), cell.height))
    }

    /// Refuses a window whose screen would not fit `budget`: the canvas, the fitted view,
    /// the peek, what is on the screen and the encoded bytes are kept at once (about 32
    /// bytes a canvas pixel all told), so a 65535x65535-cell window is refused before any of
    /// it is allocated.
    public static func check(columns: Int, rows: Int, cell: PixelSize, budget: Budget) throws(BudgetError) {
        try budget.check(
            "the peek screen of a \(columns)x\(rows)-cell window",
            size: canvas(columns: columns, rows: rows, cell: cell),
            bytesPerPixel: 32)
    }

    public var zoom: Double { zooms[zoomIndex] }
    public var geometry: PeekGeometry {
        PeekGeometry(image: image.size, point: point, side: fixedSide ?? side, zoom: zoom)
    }

    /// Saves peeks of side `side` (nil: the pane's) and starts at `zoom`, which joins the steps.
    public mutating func size(side: Int?, zoom: Double) {
        fixedSide = side
        if !zooms.contains(zoom) { zooms = (zooms + [zoom]).sorted() }
        zoomIndex = zooms.firstIndex(of: zoom) ?? 0
    }

    /// The peek as its pane shows it: `peek()` scaled to the pane when `fixedSide` differs.
    public func shownPeek() -> Image {
        let p = peek()
        return p.width == side
            ? p : InlineImage.scaled(p.converted(to: p.format.withColor), to: PixelSize(width: side, height: side))
    }

    /// The peek, as `crop` renders it (transparent background, its default filter).
    public func peek() -> Image {
        let g = geometry
        let filter = PeekRenderer.defaultFilter(for: g.zoom)
        let rect = g.sourceRect(margin: PeekRenderer.margin(for: g, filter: filter))
        return PeekRenderer.render(
            g, source: image.cropped(to: rect), sourceRect: rect, background: .transparent, filter: filter)
    }

    /// The fitted view with the preview box, as `frame` draws it (letterbox black).
    /// The stop the peek is on, outlined (`PeekStop`).
    public func view() -> Image {
        var view = FrameRenderer.render(scaledView, fit: fit, peek: geometry, background: .black)
        outlined(&view)
        return view
    }

    /// Both panes on one canvas (for blocks), alpha over a checkerboard.
    public func composed() -> Image {
        var out = Image(width: canvas.width, height: canvas.height, format: .rgb, fill: .black)
        out.place(InlineImage.flattened(view(), background: nil), at: PixelPoint(x: 0, y: 0))
        out.place(InlineImage.flattened(shownPeek(), background: nil), at: PixelPoint(x: peekX, y: 0))
        return out
    }

    /// Applies a move, click, zoom or jump to a region; false when nothing changed.
    public mutating func apply(_ event: PeekEvent) -> Bool {
        let before = (point, zoomIndex, stopIndex)
        switch event {
        case .move(let dx, let dy):
            // One cell's worth of image pixels, at least one.
            let sx = max(1, Int((Double(cell.width) / fit.scale).rounded()))
            let sy = max(1, Int((Double(cell.height) / fit.scale).rounded()))
            point = clamp(PixelPoint(x: point.x + dx * sx, y: point.y + dy * sy))
        case .click(let column, let row):
            let x = Double((column - 1) * cell.width) + Double(cell.width) / 2
            let y = Double((row - 1) * cell.height) + Double(cell.height) / 2
            if x < Double(peekX - cell.width) && y < Double(canvas.height) { point = clamp(fit.imagePixel(x: x, y: y)) }
        case .zoomIn: zoomIndex = min(zooms.count - 1, zoomIndex + 1)
        case .zoomOut: zoomIndex = max(0, zoomIndex - 1)
        case .nextRegion: _ = jump(by: 1)
        case .previousRegion: _ = jump(by: -1)
        case .save, .quit, .suspend: break
        }
        return before != (point, zoomIndex, stopIndex)
    }

    package func clamp(_ p: PixelPoint) -> PixelPoint {
        PixelPoint(x: min(max(0, p.x), image.width - 1), y: min(max(0, p.y), image.height - 1))
    }
}
