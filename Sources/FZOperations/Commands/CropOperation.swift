import FZCodecs
import FZFormat
import FZImage
import FZMetadata
import FZRender
import FZSystem
import Geometry

/// `forcezoom crop`: one decode of the squares around every touch point (the ForceZoom
/// peek), each rendered at its zoom with its pins and written; 16-bit samples copied when
/// they can be (`CropOperation+Deep`), JPEG blocks copied with `--lossless`
/// (`CropOperation+Lossless`), the geometry alone with `geometryOnly`.
public struct CropOperation {
    public var input: String
    /// Where to look (points have their `view` set when they are view points), and each as typed.
    public var points: [(place: Where, typed: String)]
    public var side: Int
    /// No --size or --screen: a region's or the faces' square is sized to show them whole
    /// (`regionSide`), other places keep `side`.
    public var sizedToRegion = false
    /// Per point, the `"where"` record of how it was found (filled by `run`).
    var wheres: [JSON] = []
    public var zoom: Double
    /// `--view`: points are in an aspect-fit view of this size (recorded in --json).
    public var view: PixelSize?
    public var background: Color
    public var settings: RenderSettings
    public var target: OutputTarget
    public var markers = MarkerSource()
    /// Files read besides the input (`--at-from`), which no output may replace.
    public var alsoRead: [String] = []
    /// `--explain`: where the first attention or entropy point's heat map goes (its path in
    /// that point's `where`).
    public var explain: String?
    public var depth: SampleDepth?
    public var json = false
    /// Print the geometry from the header alone: nothing decoded, nothing written.
    public var geometryOnly = false
    /// Copy the JPEG's blocks instead of decoding (`--lossless` with a JPEG output).
    public var copiesBlocks = false
    public var display: InlineDisplay?
    /// `--animated`: an animated input's every frame cropped into an animated WebP or APNG
    /// (`CropOperation+Animated`); a still input is cropped as ever.
    public var animated = false

    public init(
        input: String, points: [(place: Where, typed: String)], side: Int, zoom: Double, background: Color,
        settings: RenderSettings, target: OutputTarget
    ) {
        self.input = input
        self.points = points
        self.side = side
        self.zoom = zoom
        self.background = background
        self.settings = settings
        self.target = target
    }

    public func run(_ report: Report) throws {
        var resolved = self
        try resolved.runResolving(report)
    }

    /// `run`, the places found first (their records kept for the outputs' JSON).
    private mutating func runResolving(_ report: Report) throws {
        var reader = try ImageReader(path: input, options: settings.decode)
        let header = reader.header
        let (geometries, decoded) = try peekGeometries(reader)
        // A reduced decode (attention, entropy) used the reader: a new one decodes the squares.
        if decoded { reader = try reader.reopened() }
        if copiesBlocks { return try runLossless(reader, geometries, report) }
        if geometryOnly {
            for (i, g) in geometries.enumerated() { report.record(record(g, header, i, path: reader.path)) }
            return
        }
        let markers = try markers.load()
        let filter = PeekRenderer.defaultFilter(for: zoom)
        let rects = geometries.map { $0.sourceRect(margin: PeekRenderer.margin(for: $0, filter: filter)) }
        try checkBudget(rects, path: reader.path)
        try target.checkNotInputs([input] + (self.markers.file.map { [$0] } ?? []) + alsoRead)
        let format = target.format()
        if animated, try runAnimated(reader, geometries, rects: rects, markers: markers, report) { return }
        let why = SampleDepth.sixteenBitProblem(
            wanted: depth, reader, oneToOne: zoom == 1, pins: !markers.isEmpty, output: format)
        guard let why else { return try runSixteenBit(geometries, reader: reader, report) }
        if depth == .sixteen { throw ToolFailure("\(reader.path): --depth 16 \(why)", exitCode: 2) }
        // The colour the outputs carry needs the header alone: worked out before the decode,
        // it fills the wait of a first HEIC tile for libde265's tables (de265_init, 5 ms,
        // begun at start; issue 38). Its warning is said where it was said after the decode,
        // and not at all if the decode fails. Metadata and the gain map stay after the
        // decode: a decoder may read them from the same stream (a PNG's text after its
        // pixels, an Ultra HDR JPEG's second image).
        let (carried, dropped) = settings.color.carried(header.color)
        var sources = try reader.readUpright(rects)
        for i in sources.indices { try settings.convert(&sources[i], from: header.color, path: reader.path) }
        settings.sayDropped(dropped, path: reader.path)
        // Colours are turned into the output's profile only when one is drawn: lcms2's two
        // transforms cost ~10 ms, a fifth of a one-tile HEIC crop (issue 38).
        let drawn = !markers.isEmpty || geometries.contains(where: PeekRenderer.isPadded)
        let inks = DrawingColors(output: drawn ? carried : nil)
        for w in reader.warnings { settings.warnings.say("\(reader.path): \(w)") }
        let metadata = settings.carriedMetadata(reader, format: format)?.resolved(
            for: PixelSize(width: side, height: side))
        let gain = target.writes ? settings.carriedGainMap(reader, format: format) : GainMapCarry()
        let motion = json && target.writes ? settings.motionClipDropped(reader) : nil
        for (i, g) in geometries.enumerated() {
            var peek = PeekRenderer.render(
                g, source: sources[i], sourceRect: rects[i], background: inks.map(background), filter: filter)
            // Pins keep their size in output pixels at any --zoom.
            PinLayer(markers, color: inks.map(PinRenderer.color)).draw(
                on: &peek, transform: .translation(-g.window.x, -g.window.y).then(.scale(g.zoom, g.zoom)))
            // The gain map and the regions from the same source points as the colour: the
            // window, at the zoom.
            let toPeek = AffineTransform.translation(-g.window.x, -g.window.y).then(.scale(g.zoom, g.zoom))
            let map = gain.map?.carried(imageToOutput: toPeek, output: peek.size, filter: filter)
            let placed = metadata?.placed(toPeek, output: peek.size)
            let bytes =
                target.writes
                ? try target.write(peek, i, protecting: [input], color: carried, metadata: placed, gainMap: map)
                : nil
            if json {
                report.record(
                    record(g, header, i, path: reader.path, output: target.writtenPath(i), bytes: bytes).noting(
                        settings.written(gain, path: reader.path)
                    ).noting(motionClip: motion, written: bytes != nil).noting(
                        regions: placed, size: peek.size, written: target.writes))
            }
            try display?.show([peek])
        }
    }

    /// One peek geometry per point, in the upright image: each place found (the regions read
    /// once, a reduced decode once for attention and entropy), its record kept in `wheres`.
    mutating func peekGeometries(_ reader: ImageReader) throws -> ([PeekGeometry], decoded: Bool) {
        let upright = reader.header.uprightSize
        var geometries: [PeekGeometry] = []
        var regions: RegionReading?
        var pixels: Image?
        let path = reader.path
        let warnings = settings.warnings
        var explained = false
        var consumed = false
        wheres = []
        for point in points {
            let sized = sizedToRegion
            let box = sized ? nil : (Double(side) / zoom, Double(side) / zoom)
            var placement: Placement
            do {
                placement = try WhereResolver.resolve(
                    point.place, path: path, upright: upright, box: box,
                    regions: {
                        if let regions { return regions }
                        let r = reader.uprightRegions()
                        for w in r.warnings { warnings.say("\(path): \(w)") }
                        regions = r
                        return r
                    },
                    pixels: {
                        if let pixels { return pixels }
                        let (p, used) = try WhereResolver.reducedPixels(reader)
                        (pixels, consumed) = (p, used)
                        return p
                    }, explain: explain != nil && !explained)
            } catch let error as GeometryError { throw ToolFailure(path: input, error) }
            if let explain, let map = placement.explanation {
                _ = try ImageWriter.write(map, to: explain, protecting: [input] + alsoRead)
                placement.note("explain", .string(explain))
                explained = true
            }
            let n = placement.area.map { sized ? Self.regionSide($0, image: upright, zoom: zoom) : side } ?? side
            if n != side {
                do {
                    try settings.decode.budget.check("the peek of \(point.typed)", size: PixelSize(width: n, height: n))
                } catch {
                    throw ToolFailure("\(path): \(error)")
                }
            }
            geometries.append(PeekGeometry(image: upright, point: placement.point, side: n, zoom: zoom))
            wheres.append(placement.record)
        }
        return (geometries, consumed)
    }

    /// The side of a square that shows `area` whole at `zoom`: its longer side with a quarter
    /// of it as margin on each side, the margin narrowed where the image is too small to
    /// hold it (never below the area itself).
    static func regionSide(_ area: Rect, image: PixelSize, zoom: Double) -> Int {
        let longer = max(area.width, area.height)
        let room = Double(min(image.width, image.height))
        let shown = max(longer, min(longer * 1.5, room))
        return max(1, min(Budget.maxSide, Int((shown * zoom - 1e-9).rounded(.up))))
    }

    /// The decoded pieces are held together (one decode for every point): their bytes meet
    /// the budget before anything is decoded.
    func checkBudget(_ rects: [PixelRect], path: String) throws {
        let pieces = rects.reduce(Int64(0)) { $0.addingReportingOverflow($1.size.area).partialValue }
        do {
            try settings.decode.budget.check(
                "the \(rects.count) decoded squares (--at)",
                bytes: pieces.multipliedReportingOverflow(by: 4).partialValue)
        } catch {
            throw ToolFailure("\(path): \(error)")
        }
    }

    /// Point `index`'s record for --json and --geometry-only.
    func record(
        _ g: PeekGeometry, _ header: ImageHeader, _ index: Int, path: String, output: String? = nil,
        bytes: Int64? = nil, depth: Int? = nil
    ) -> JSON {
        Self.geometryJSON(
            g, header: header, requested: points[index].typed, view: view, output: output, bytes: bytes, path: path,
            depth: depth, where: index < wheres.count ? wheres[index] : nil)
    }
}
