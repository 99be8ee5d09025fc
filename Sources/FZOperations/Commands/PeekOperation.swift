import FZCodecs
import FZFormat
import FZImage
import FZMetadata
import FZSystem
import FZTerminal
import Geometry

/// `forcezoom peek`: the image decoded once, explored in the terminal with the keys, each
/// saved peek written as the pattern's next file and recorded as `crop --json` records it.
public struct PeekOperation {
    public var input: String
    /// Where the session starts, or nil for the centre.
    public var start: TouchPoint?
    public var settings: RenderSettings
    /// The saved peeks: a numbered series (`OutputTarget.Place.numbered`).
    public var target: OutputTarget
    public var display: InlineDisplay
    /// The saved peek's side as `crop --size/--screen` gives it (the command line gives crop's
    /// default, 390, without them), nil: the pane's side.
    public var side: Int?
    /// The zoom the session starts at (`crop --zoom`).
    public var zoom: Double = 1

    public init(
        input: String, start: TouchPoint?, settings: RenderSettings, target: OutputTarget, display: InlineDisplay
    ) {
        self.input = input
        self.start = start
        self.settings = settings
        self.target = target
        self.display = display
    }

    /// What r / Tab jumps through: the faces and the named regions, in the file's order,
    /// each labelled with its name (an unnamed face: "face N", its place in the file).
    package static func stops(_ reading: RegionReading) -> [PeekStop] {
        reading.regions.enumerated().compactMap { i, r in
            guard r.isFace || r.name != nil else { return nil }
            return PeekStop(label: r.name ?? "\(r.type) \(i + 1)", rect: r.rect)
        }
    }

    /// Standard input must be a terminal (the keys come from it).
    public static var hasKeyboard: Bool { TerminalScreen.isTerminal(0) }

    public func run(_ report: Report) throws {
        let reader = try ImageReader(path: input, options: settings.decode)
        let header = reader.header
        do { try settings.decode.budget.check("the decoded image (peek)", size: header.uprightSize) } catch {
            throw ToolFailure("\(reader.path): \(error)")
        }
        let regions = reader.uprightRegions()
        for w in regions.warnings { settings.warnings.say("\(reader.path): \(w)") }
        var image = try reader.readImage()  // decoded once: every move crops from it
        try settings.convert(&image, from: header.color, path: reader.path)
        let carried = settings.carry(header.color, path: reader.path)
        for w in reader.warnings { settings.warnings.say("\(reader.path): \(w)") }
        // Standard output redirected (> saved.jsonl): the screen is drawn on the terminal itself.
        if !TerminalScreen.isTerminal(1) && !TerminalScreen.useControllingTerminal() {
            throw ToolFailure("peek: standard output is no terminal and /dev/tty cannot be opened", exitCode: 2)
        }
        let inline = display.target()
        let window = TerminalScreen.window() ?? TerminalScreen.Window(columns: 80, rows: 24, pixels: nil)
        let cell = inline.graphics == .blocks ? PixelSize(width: 1, height: 2) : window.cell(probed: inline.cell)
        do {
            try PeekScreen.check(columns: window.columns, rows: window.rows, cell: cell, budget: settings.decode.budget)
        } catch { throw ToolFailure("peek: \(error); make the window smaller or raise --max-memory") }
        var screen = PeekScreen(image: image, columns: window.columns, rows: window.rows, cell: cell)
        screen.size(side: side, zoom: zoom)
        screen.stops = Self.stops(regions)
        if let start {
            do { screen.point = try start.resolve(in: header.uprightSize) } catch {
                throw ToolFailure(path: input, error)
            }
        }
        var saved: [JSON] = []
        var failed = false
        var session = PeekSession(
            screen: screen, target: inline, columns: window.columns, rows: window.rows, budget: settings.decode.budget)
        try session.run { g, peek, pane in
            let index = saved.count
            let path = target.path(index)
            do {
                let bytes = try target.write(peek, index, protecting: [input], color: carried)
                saved.append(
                    CropOperation.geometryJSON(
                        g, header: header, requested: "\(g.point.x),\(g.point.y)", view: nil, output: path,
                        bytes: bytes, path: reader.path))
                // Its side (crop's), and the pane's where that shows it scaled.
                return "saved \(Echo.path(path)): \(g.side) px" + (pane == g.side ? "" : ", shown at \(pane)")
            } catch {
                failed = true
                return "not saved: \(error)"
            }
        }
        for record in saved { report.record(record) }
        if failed { throw ToolFailure("\(reader.path): a peek could not be saved (see the status line's message)") }
    }
}
