// Over 300 lines: crop has some twenty-five options (points, view, pins, depth, formats,
// metadata, --show, --lossless) and their checks; the 8- and 16-bit writes are short paths.

import ArgumentParser
import FZOperations
import Geometry
import Synchronization

/// `forcezoom crop`: the ForceZoom peek, a square 1:1 crop around a touch point.
struct Crop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crop",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Cut the square 1:1 detail around a point (the ForceZoom peek) into an image file.",
        discussion: """
            The square has side N image pixels: --size N, or --screen for N = min(W,H) of the screen's bounds in points, as ForceZoom sizes its peek from UIScreen bounds (default: the device --view names, else 390x844 points, so N = 390; --screen iphone-15 is 393x852 points, N = 393). --screen WxH is in points here; device names are in `forcezoom help`. The touched pixel lands at output pixel (N/2, N/2) rounded down; near an edge the square shifts just enough to stay inside the image. An image smaller than the square is centred on --background. The output is always N x N.

            --at takes image pixels (1200,800), percentages (50%,25%), or with --view WxH a point in an aspect-fit view of that size, mapped back to the image (a touch on the letterbox goes to the nearest edge). --at may repeat: one decode, one output per point (-o then needs %d, from 1). --at also takes a place the file names or its pixels show: region:NAME (a region of its XMP metadata, case-insensitive; region:N the Nth, as info lists them), face (its face regions framed together), attention (its faces, else the most salient part of the pixels), entropy (the busiest part) or center; without --size or --screen a region's or the faces' square shows them whole with a quarter of their longer side as margin each side (less where the image is too small). --json says where each point came from ("where"). See docs/regions.md.

            --zoom Z shows N/Z image pixels magnified Z times: nearest neighbour for whole Z, Catmull-Rom bicubic otherwise.

            Output: PNG; gray stays gray and alpha stays alpha. A 16-bit PNG's crop at --zoom 1 is 16-bit with exactly its samples (--depth 8 rounds them); other crops are 8-bit, rounded from 16 bits. JPEG crops decode only the rows and columns they need.

            Examples:
              forcezoom crop photo.jpg --at 1200,800 -o detail.png
              forcezoom crop photo.jpg --at 50%,50% --size 256 --zoom 2 -o - > peek.png
              forcezoom crop photo.jpg --view 390x844 --at 195,300 --json
              forcezoom crop photo.jpg --at 10%,10% --at 90%,90% -o 'peek-%d.png'
              forcezoom crop photo.jpg --at 3990,10 --geometry-only
              forcezoom crop photo.jpg --at 'region:Marie Curie' -o marie.png
              forcezoom crop photo.jpg --at 1200,800 --lossless -o detail.jpg --json
            """)

    @Argument(
        help: ArgumentHelp(
            "The image: a \(FormatNames.inputs) path or an http(s) URL, or - to read standard input.",
            valueName: "input"))
    var input: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The touch point, X,Y in pixels or percent, or region:NAME, face, attention, entropy, center; repeat it for more points.",
            valueName: "x,y|word"))
    var at: [Point] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "More touch points from a file, one X,Y a line as --at takes them (# comments and blank lines skipped; at most 100000 points, 16 MiB): for thousands of points, which the parser would take quadratic time over as repeated --at.",
            valueName: "file"))
    var atFrom: String?

    @Option(name: .long, help: ExplainArgument.help)
    var explain: String?

    @Option(name: .long, help: ArgumentHelp("The square's side in image pixels.", valueName: "n"))
    var size: Int?

    @Option(
        name: [.long, .customLong("screen-points")],
        help: ArgumentHelp(
            "The device screen in points (WxH or a device name); the side is min(W,H). Default: the device --view names, else 390x844.",
            valueName: "wxh|name"))
    var screen: Size?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "--at is a point in an aspect-fit view of this size (points, or a device name for its points).",
            valueName: "wxh"))
    var view: Size?

    @Option(
        name: .long,
        help: ArgumentHelp("Magnification: the square shows N/Z image pixels, Z times larger.", valueName: "z"))
    var zoom: Double = Self.defaultZoom

    @OptionGroup var fill: BackgroundFlags<CropBackground>

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Output path, - for stdout; with several --at, a pattern with %d. Its extension chooses \(FormatNames.rendered). Default: <input stem>.crop.png here (.crop.jpg with --lossless, and the --format's own extension with --format).",
            valueName: "path"))
    var output: String?

    @Flag(name: .long, help: "Print the geometry as JSON (one line per point).")
    var json = false

    @Flag(
        name: .long,
        help: "Print the geometry as JSON from the header alone: no pixels are decoded and nothing is written.")
    var geometryOnly = false

    @Flag(
        name: .long,
        help:
            "An animated GIF, WebP, APNG or JPEG XL makes an animated crop: APNG (.png) or WebP (.webp), as the output name's extension says; every frame composited and cropped, delays and loop count kept (at most 1000 frames and 120 seconds)."
    )
    var animated = false

    /// --quality and --lossless (`CropEncoderHelp` says what --lossless copies).
    @OptionGroup var encoder: EncoderFlags<CropEncoderHelp>

    @OptionGroup var formats: FormatFlags

    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var meta: MetadataFlags
    @OptionGroup var sample: DepthFlags
    @OptionGroup var show: ShowFlags

    /// --zoom's default, named for `quickDefault`.
    static let defaultZoom = 1.0

    /// The most points `--at-from` reads, and the largest file it reads.
    static let pointLimit = 100_000
    static let pointFileLimit = 16 << 20

    /// The points of an `--at-from` file, in order, read once per process: the quick
    /// reading validates a line before the parser does when it refuses it (`Crop.quick`),
    /// and a second read of standard input (`--at-from -`) would find it empty.
    static func points(from path: String) throws -> [Point] {
        if let read = pointFiles.withLock({ $0[path] }) { return try read.get() }
        let read = Result { try readPoints(from: path) }
        pointFiles.withLock { $0[path] = read }
        return try read.get()
    }

    /// The `--at-from` files read so far, by path: their points or why they have none.
    private static let pointFiles = Mutex<[String: Result<[Point], any Error>]>([:])

    /// Reads and parses an `--at-from` file.
    private static func readPoints(from path: String) throws -> [Point] {
        let text: String
        do { text = try FileSystem.readText(path, limit: pointFileLimit) } catch {
            throw ValidationError(
                "--at-from \(Echo.value(path)): \(FileSystem.readFailure(error, limit: pointFileLimit))")
        }
        var points: [Point] = []
        var number = 0
        // Split on bytes: "\r\n" is one Character to String, so a Character split keeps CRLF lines together.
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var entry = Substring(String(decoding: line, as: UTF8.self))
            if entry.hasSuffix("\r") { entry = entry.dropLast() }
            if number == 1 && entry.hasPrefix("\u{FEFF}") { entry = entry.dropFirst() }
            entry = entry.drop { $0 == " " || $0 == "\t" }
            while let last = entry.last, last == " " || last == "\t" { entry = entry.dropLast() }
            if entry.isEmpty || entry.hasPrefix("#") { continue }
            guard let point = Point(argument: String(entry)) else {
                throw ValidationError(
                    "--at-from \(Echo.value(path)) line \(number): \(Echo.value(String(entry))) is not X,Y (pixels, or percent like 50%,50%)"
                )
            }
            points.append(point)
            if points.count > pointLimit {
                throw ValidationError("--at-from \(Echo.value(path)): more than \(pointLimit) points")
            }
        }
        return points
    }

    mutating func validate() throws {
        if atFrom == "" {
            throw ValidationError("--at-from is empty; give a file of X,Y lines (or - for standard input)")
        }
        if let atFrom { at += try Self.points(from: atFrom) }
        if at.isEmpty { throw ValidationError("give a point with --at X,Y (pixels, or percent like 50%,50%)") }
        for point in at { try point.check("--at") }
        try ExplainArgument.check(
            explain, place: at.first { $0.place == .attention || $0.place == .entropy }?.place ?? at.first?.place,
            flag: "--at")
        if explain != nil && geometryOnly {
            throw ValidationError("--geometry-only writes nothing; drop it or --explain")
        }
        if size != nil && screen != nil { throw ValidationError("--size and --screen both set the side; give one") }
        if let size { try Check.integer(size, "--size", in: 1...Budget.maxSide) }
        try screen?.check("--screen")
        try view?.check("--view")
        try Check.number(zoom, "--zoom", in: Self.zoomRange)
        // The window shows N/Z image pixels a side; past the longest side forcezoom makes,
        // no image can fill it and the sampling tables would be absurd.
        if Double(side) / zoom > Double(Budget.maxSide) {
            throw ValidationError(
                "--zoom \(Echo.number(zoom)) with side \(side) would show \(Echo.number((Double(side) / zoom).rounded(.up))) image pixels a side, over \(Budget.maxSide); give a larger --zoom"
            )
        }
        if !geometryOnly { try PeekSide(size: size, screen: screen, view: view).check(decode.budget) }
        try Outputs.checkNotEmpty(output, "-o")
        if output == nil, !geometryOnly, show.writes(output: nil), URLInputs.isURL(input) {
            throw ValidationError("\(URLInputs.displayName(input)) is a URL: name the output with -o FILE")
        }
        if let output, !StandardStream.isNamed(output), !geometryOnly {
            _ = try Outputs.pattern(output, "-o", needsCounter: at.count > 1, example: "peek-%d.png")
        }
        if StandardStream.meansStandardOutput(output) && json {
            // -o /dev/stdout too: the JSON lines would land inside the image.
            throw ValidationError("-o \(output ?? "-") writes the image to stdout; --json cannot share it")
        }
        if !geometryOnly { try formats.check(output) }
        if StandardStream.isNamed(output) && at.count > 1 { throw ValidationError("-o - takes one --at") }
        try validateLossless()
        try validateAnimated()
        try show.check(output: output, without: geometryOnly ? "--geometry-only" : lossless ? "--lossless" : nil)
    }

    /// The output side N.
    var side: Int { PeekSide(size: size, screen: screen, view: view).side }

    /// --zoom's range: from a 64th (the square shows 64 N image pixels) to 1024x.
    static let zoomRange: ClosedRange<Double> = 1.0 / 64...1024

    /// Where the crops go: -o (a pattern with %d for several points), else
    /// `<stem>.crop[-N].<ext>` here (.jpg when copying JPEG blocks); nothing with --show and no -o.
    var target: OutputTarget {
        let choice = formats.choice(encoder.settings(png: encode.png, background: fill.background.color))
        guard show.writes(output: output) || geometryOnly else { return OutputTarget(.none, choice: choice) }
        let stem = StandardStream.stem(of: input)
        let ext = copiesBlocks ? "jpg" : formats.defaultExtension
        let several = at.count > 1
        return OutputTarget(named: output, count: at.count, patterned: true, choice: choice) {
            several ? "\(stem).crop-\($0).\(ext)" : "\(stem).crop.\(ext)"
        }
    }

    func run() throws {
        let view = view?.points
        var operation = CropOperation(
            input: input,
            points: at.map { point in
                guard var touch = point.touch else { return (point.place, point.description) }
                touch.view = view
                return (.point(touch), point.description)
            }, side: side, zoom: zoom, background: fill.background.color,
            settings: encode.settings(decode, metadata: meta),
            target: target)
        operation.view = view
        operation.sizedToRegion = size == nil && screen == nil
        operation.markers = pins.source
        operation.alsoRead = atFrom.map { [$0] } ?? []
        operation.explain = explain
        operation.depth = sample.depth
        (operation.json, operation.geometryOnly, operation.copiesBlocks) = (json, geometryOnly, copiesBlocks)
        operation.display = try show.display()
        operation.animated = animated
        try operation.run(Report.terminal)
    }
}
