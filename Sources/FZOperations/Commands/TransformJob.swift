import FZCodecs
import FZFormat
import FZGainMap
import FZImage
import FZRender
import FZSystem
import FZTerminal
import Geometry

/// `forcezoom transform` as a value: the steps and the canvas, and `run()` reading the
/// input, warping it and writing the output (as `Thumbnailer` is for thumb), so the
/// command line only parses and reports.
public struct TransformJob {
    public var input: String
    /// Where the output goes and how it is encoded: nowhere with `--show` and no -o.
    public var target: OutputTarget
    public var settings: RenderSettings
    /// The steps, composed in command-line order, about the image centre.
    public var steps: AffineTransform
    /// The sum of the quarter turns when the steps are quarter turns alone (the samples
    /// are then copied, and a 16-bit PNG keeps its 16 bits); nil otherwise.
    public var quarterTurns: Double?
    /// The output's size, or nil for the transformed image's bounding box.
    public var canvas: PixelSize?
    /// With a canvas: the image point the steps act about, in unit coordinates.
    public var anchor: (x: Double, y: Double) = (0.5, 0.5)
    public var background: Color
    public var filter: ResampleFilter
    /// The pins to draw, loaded after the input is opened (so a missing input is the
    /// error a run reports first, as before the job was a type of its own).
    public var markers = MarkerSource()
    public var depth: SampleDepth?
    /// What is told the rendered pixels (`--show`; 16-bit turns at 8 bits).
    public var display: InlineDisplay?

    public init(
        input: String, target: OutputTarget, settings: RenderSettings, steps: AffineTransform, background: Color,
        filter: ResampleFilter
    ) {
        self.input = input
        self.target = target
        self.settings = settings
        self.steps = steps
        self.background = background
        self.filter = filter
    }

    /// What was written, for --json.
    public struct Result {
        public var input: String
        public var uprightSize: PixelSize
        public var transform: AffineTransform
        public var canvas: PixelSize
        /// The path written, nil when nothing is.
        public var output: String?
        /// 16 when the samples were copied at 16 bits, else nil (8).
        public var bitDepth: Int?
        /// What the output did with the input's gain map (nil: it has none, or nothing was written).
        public var gainMap: GainMapOutcome?
        /// How many of the input's regions the output kept and dropped (nil: it has none, or
        /// nothing was written).
        public var regions: (kept: Int, dropped: Int)?
    }

    public func run() throws -> Result {
        let reader = try ImageReader(path: input, options: settings.decode)
        let markers = try markers.load()
        try target.checkNotInputs([input] + (self.markers.file.map { [$0] } ?? []))
        let size = reader.header.uprightSize
        guard steps.inverted != nil else {
            throw ToolFailure("\(reader.path): the transform collapses the image (determinant 0)")
        }
        let why =
            quarterTurns != nil
            ? SampleDepth.sixteenBitProblem(
                wanted: depth, reader, oneToOne: true, pins: !markers.isEmpty,
                output: target.format())
            : "copies samples only for quarter turns (--rotate 90, 180, 270 alone)"
        if let why, depth == .sixteen { throw ToolFailure("\(reader.path): --depth 16 \(why)", exitCode: 2) }
        if why == nil, let quarterTurns { return try turnSixteenBit(reader, quarterTurns: quarterTurns) }
        let (canvasSize, full) = try placement(size, path: reader.path)
        // Prefilter reductions: decode smaller, then warp by what remains.
        let w = Double(size.width)
        let h = Double(size.height)
        let pre = AffineRenderer.prefilterScale(for: full)
        var source: Image
        if pre < 1 {
            let reduced = PixelSize(width: max(1, Int((w * pre).rounded())), height: max(1, Int((h * pre).rounded())))
            source = try reader.readResampled(to: reduced, filter: .lanczos).0
        } else {
            source = try reader.readImage()
        }
        try settings.convert(&source, from: reader.header.color, path: reader.path)
        let carried = settings.carry(reader.header.color, path: reader.path)
        let inks = DrawingColors(output: carried)
        let warp = AffineTransform.scale(w / Double(source.width), h / Double(source.height)).then(full)
        var out = AffineRenderer.render(
            source, transform: warp, canvas: canvasSize, background: inks.map(background), filter: filter)
        PinLayer(markers, color: inks.map(PinRenderer.color)).draw(on: &out, transform: full)
        var gain = GainMapCarry()
        var regions: (kept: Int, dropped: Int)?
        if target.writes {
            // The gain map under the same affine, at its own scale (`GainMapRenderer`).
            gain = settings.carriedGainMap(reader, format: target.format())
            let metadata = settings.carriedMetadata(reader, format: target.format())?.placed(full, output: canvasSize)
            regions = metadata?.regionCount(for: canvasSize)
            try target.write(
                out, protecting: [input], color: carried, metadata: metadata,
                gainMap: gain.map?.carried(imageToOutput: full, output: canvasSize, filter: filter))
        }
        try display?.show([out])
        var result = Result(
            input: reader.path, uprightSize: size, transform: full, canvas: canvasSize, output: target.writtenPath(0))
        result.gainMap = settings.written(gain, path: reader.path)
        result.regions = regions
        return result
    }

    /// Quarter turns of a 16-bit input: the samples moved, not resampled.
    private func turnSixteenBit(_ reader: ImageReader, quarterTurns: Double) throws -> Result {
        let size = reader.header.uprightSize
        var image = try reader.readStored16([PixelRect(size: size)])[0]
        try settings.convert(&image, from: reader.header.color, path: reader.path)
        let turned = image.rotated(quarterTurns: Int(quarterTurns.truncatingRemainder(dividingBy: 4)))
        if target.writes {
            // The regions turn with the samples: the same map as the 8-bit path's when it
            // lands on the same canvas (none otherwise).
            let (canvasSize, full) = try placement(size, path: reader.path)
            let metadata = settings.carriedMetadata(reader, format: target.format())
            try target.write(
                turned, protecting: [input], color: settings.carry(reader.header.color, path: reader.path),
                metadata: canvasSize == turned.size ? metadata?.placed(full, output: turned.size) : metadata)
        }
        if let display { try display.show([InlineImage.eightBit(turned)]) }
        return Result(
            input: reader.path, uprightSize: size, transform: .rotation(degrees: quarterTurns * 90),
            canvas: turned.size, output: target.writtenPath(0),
            bitDepth: 16)
    }

    /// The canvas and the transform from image to canvas pixels.
    private func placement(_ size: PixelSize, path: String) throws -> (PixelSize, AffineTransform) {
        let w = Double(size.width)
        let h = Double(size.height)
        if let canvas {
            // As a view in a superview of the canvas's size: the pivot (the centre unless
            // --anchor) at the same point of the canvas, the steps about it.
            let a = anchor
            let full = AffineTransform.translation(-w * a.x, -h * a.y).then(steps)
                .then(.translation(Double(canvas.width) * a.x, Double(canvas.height) * a.y))
            return (canvas, full)
        }
        // The bounding box, rounded outwards (near-whole edges snapped so quarter turns
        // stay exact), with the box centred in it: the same as --canvas of that size.
        let about = AffineTransform.translation(-w / 2, -h / 2).then(steps)
        let box = about.boundingBox(of: Rect(x: 0, y: 0, width: w, height: h))
        func snap(_ v: Double) -> Double { abs(v - v.rounded()) < 1e-6 ? v.rounded() : v }
        // The box's own size, rounded up (an odd-sized image turned a quarter is centred on
        // a half pixel: its box is whole, and flooring its corner would add a blurred column).
        let bw = snap(box.width).rounded(.up)
        let bh = snap(box.height).rounded(.up)
        // Checked before any conversion to Int: the steps can make any size.
        guard bw <= Double(Budget.maxSide), bh <= Double(Budget.maxSide) else {
            throw ToolFailure(
                "\(path): the transformed image would be \(Echo.number(bw.rounded()))x\(Echo.number(bh.rounded())) pixels, and sides are limited to \(Budget.maxSide); give smaller steps or a --canvas to cut it"
            )
        }
        let canvasSize = PixelSize(width: max(1, Int(bw)), height: max(1, Int(bh)))
        let full = about.then(
            .translation(
                Double(canvasSize.width) / 2 - (box.x + box.width / 2),
                Double(canvasSize.height) / 2 - (box.y + box.height / 2)))
        do { try settings.decode.budget.check("the transformed image's bounding box", size: canvasSize) } catch {
            throw ToolFailure("\(path): \(error) (or give a --canvas to cut it)")
        }
        return (canvasSize, full)
    }
}
