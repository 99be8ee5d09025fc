import FZFormat
import FZImage
import FZMetadata
import FZRender
import FZSystem
import Geometry

extension AnimationJob {
    /// The contact sheet of `count` frames of `screen`: what `--contact-sheet` and `--show`
    /// allocate (checked against the budget before any work).
    public static func contactSheetSize(screen: PixelSize, count: Int) -> PixelSize {
        AnimationRenderer.contactSheetSize(cell: AnimationRenderer.cellSize(screen: screen), count: count)
    }

    /// The whole command: the input opened (standard input read once), the pins loaded,
    /// the frames' geometry worked out for the upright size, every output checked before
    /// any work (none twice, none an input), then rendered and written; one JSON record a
    /// frame with `json`, and the geometry alone when nothing is written.
    /// - Parameters:
    ///   - geometry: the frames for an upright image size (from the command's options).
    ///   - pinSizes: the pins' size in each frame.
    ///   - writes: whether any file or picture is made (else the geometry alone is printed).
    public mutating func perform(
        _ report: Report, markers source: MarkerSource, geometry: (PixelSize, PixelPoint?) -> [ZoomAnimation.Frame],
        pinSizes: ([ZoomAnimation.Frame]) -> [Double], writes: Bool, json: Bool, display: InlineDisplay?
    ) throws {
        if StandardStream.isNamed(input) {
            do { stdin = try FileSystem.readBytes(input, limit: settings.decode.stdinLimit) } catch {
                throw ToolFailure(
                    "\(StandardStream.inputLabel): cannot read: \(FileSystem.readFailure(error, limit: settings.decode.stdinLimit)); save it to a file"
                )
            }
        }
        var reader = try openReader()
        markers = try source.load()
        frames = geometry(reader.header.uprightSize, nil)
        if let place, let last = frames.last {
            // The box is what the last frame's fill shows of the image.
            let (found, consumed) = try Self.resolve(
                place, reader, box: (last.view.width / last.scale, last.view.height / last.scale),
                warnings: settings.warnings)
            if consumed { reader = try reader.reopened() }
            placement = found.record
            frames = geometry(reader.header.uprightSize, found.point)
        }
        self.pinSizes = pinSizes(frames)
        guard writes else { return printFrames(report) }  // geometry only: nothing decoded
        try checkOutputs()
        if let display { showSheet = { try display.show([$0]) } }
        try run(reader)
        if json { printFrames(report) }
    }

    /// Where `place` lands for a fill showing `box` upright pixels, and whether the reduced
    /// decode (attention, entropy) used `reader` up. `fit --at` finds its place the same way.
    package static func resolve(
        _ place: Where, _ reader: ImageReader, box: (width: Double, height: Double), warnings: Warnings
    ) throws -> (Placement, consumed: Bool) {
        var consumed = false
        let path = reader.path
        do {
            let found = try WhereResolver.resolve(
                place, path: path, upright: reader.header.uprightSize, box: box,
                regions: {
                    let r = reader.uprightRegions()
                    for w in r.warnings { warnings.say("\(path): \(w)") }
                    return r
                },
                pixels: {
                    let (p, used) = try WhereResolver.reducedPixels(reader)
                    consumed = used
                    return p
                })
            return (found, consumed)
        } catch let error as GeometryError { throw ToolFailure(path: path, error) }
    }

    /// Every path this run writes, worked out once and checked before any work: none twice
    /// (a usage error), none an input.
    private mutating func checkOutputs() throws {
        if case .numbered(let pattern) = target.place { framePaths = (1...frames.count).map(pattern.path) }
        var named = framePaths.enumerated().map { ("-o frame \($0.offset + 1)", $0.element) }
        if let apng { named.append(("--apng", apng)) }
        if let contactSheet { named.append(("--contact-sheet", contactSheet)) }
        if let clash = OutputTarget.clash(named) { throw ToolFailure(clash, exitCode: 2) }
        try OutputTarget(.files(named.map(\.1))).checkNotInputs([input] + (overlay.map { [$0.path] } ?? []))
    }

    /// One JSON line per frame: what a UI test compares its own animation against.
    private func printFrames(_ report: Report) {
        for (k, f) in frames.enumerated() {
            var members: [(String, JSON)] = [
                ("frame", .int(f.index + 1)), ("time", .number(f.time)), ("phase", .string(f.phase)),
                ("progress", .number(f.progress)), ("presented", .number(f.presented)),
                ("rect", f.view.rect.json), ("rotation", .number(f.view.rotation)), ("scale", .number(f.scale)),
                ("transform", f.transform.json),
            ]
            if !markers.isEmpty { members.append(("pinSize", .number(pinSizes[k]))) }
            if let placement { members.append(("where", placement)) }
            report.record(JSON.record(members))
        }
    }
}
