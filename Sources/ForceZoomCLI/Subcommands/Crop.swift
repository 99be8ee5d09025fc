// Over 300 lines: crop has some twenty-five options (points, view, pins, depth, formats,
// metadata, --show, --lossless) and their checks; the 8- and 16-bit writes are short paths.

import ArgumentParser
import FZCodecs
import FZCompare
import FZFixtures
import FZImage
import FZOperations
import FZRender
import FZSystem
import FZTerminal
import FZThumbnails
import Geometry

/// `forcezoom crop`: the ForceZoom peek, a square 1:1 crop around a touch point.
struct Crop: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cut the square 1:1 detail around a point (the ForceZoom peek) into an image file.",
        discussion: """
            The square has side N image pixels: --size N, or --screen for N = min(W,H) of the screen's bounds in points, as ForceZoom sizes its peek from UIScreen bounds (default 390x844 points, so N = 390; --screen iphone-15 is 393x852 points, N = 393). --screen WxH is in points here; device names are in `forcezoom help`. The touched pixel lands at output pixel (N/2, N/2) rounded down; near an edge the square shifts just enough to stay inside the image. An image smaller than the square is centred on --background. The output is always N x N.

            --at takes image pixels (1200,800), percentages (50%,25%), or with --view WxH a point in an aspect-fit view of that size, mapped back to the image (a touch on the letterbox goes to the nearest edge). --at may repeat: one decode, one output per point (-o then needs %d, from 1).

            --zoom Z shows N/Z image pixels magnified Z times: nearest neighbour for whole Z, Catmull-Rom bicubic otherwise.

            Output: PNG; gray stays gray and alpha stays alpha. A 16-bit PNG's crop at --zoom 1 is 16-bit with exactly its samples (--depth 8 rounds them); other crops are 8-bit, rounded from 16 bits. JPEG crops decode only the rows and columns they need.

            Examples:
              forcezoom crop photo.jpg --at 1200,800 -o detail.png
              forcezoom crop photo.jpg --at 50%,50% --size 256 --zoom 2 -o - > peek.png
              forcezoom crop photo.jpg --view 390x844 --at 195,300 --json
              forcezoom crop photo.jpg --at 10%,10% --at 90%,90% -o 'peek-%d.png'
              forcezoom crop photo.jpg --at 3990,10 --geometry-only
              forcezoom crop photo.jpg --at 1200,800 --lossless -o detail.jpg --json
            """)

    @Argument(
        help: ArgumentHelp("The image: a \(FormatNames.inputs) path, or - to read standard input.", valueName: "input"))
    var input: String

    @Option(
        name: .long,
        help: ArgumentHelp("The touch point, X,Y in pixels or percent; repeat it for more points.", valueName: "x,y"))
    var at: [Point] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "More touch points from a file, one X,Y a line as --at takes them (# comments and blank lines skipped; at most 100000 points, 16 MiB): for thousands of points, which the parser would take quadratic time over as repeated --at.",
            valueName: "file"))
    var atFrom: String?

    @Option(name: .long, help: ArgumentHelp("The square's side in image pixels.", valueName: "n"))
    var size: Int?

    @Option(
        name: [.long, .customLong("screen-points")],
        help: ArgumentHelp(
            "The device screen in points (WxH or a device name); the side is min(W,H). Default 390x844.",
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
    var zoom: Double = 1

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Fill where the image is smaller than the square: black, white, transparent, #RRGGBB, #RRGGBBAA. A JPEG output, which has no alpha, also flattens transparent pixels onto it (onto white where it is transparent); PNG, WebP, HEIC and AVIF keep them.",
            valueName: "color"))
    var background: ColorArgument = ColorArgument(.transparent)

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

    /// --quality and --lossless (`CropEncoderHelp` says what --lossless copies).
    @OptionGroup var encoder: EncoderFlags<CropEncoderHelp>

    @OptionGroup var formats: FormatFlags

    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var meta: MetadataFlags
    @OptionGroup var sample: DepthFlags
    @OptionGroup var show: ShowFlags

    /// The most points `--at-from` reads, and the largest file it reads.
    static let pointLimit = 100_000
    static let pointFileLimit = 16 << 20

    /// The points of an `--at-from` file, in order.
    static func points(from path: String) throws -> [Point] {
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
        if let atFrom { at += try Self.points(from: atFrom) }
        if at.isEmpty { throw ValidationError("give a point with --at X,Y (pixels, or percent like 50%,50%)") }
        for point in at { try point.check("--at") }
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
        if !geometryOnly { try PeekSide(size: size, screen: screen).check(decode.budget) }
        try Outputs.checkNotEmpty(output, "-o")
        if let output, output != "-", !geometryOnly {
            _ = try Outputs.pattern(output, "-o", needsCounter: at.count > 1, example: "peek-%d.png")
        }
        if output == "-" && json { throw ValidationError("-o - writes the image to stdout; --json cannot share it") }
        if !geometryOnly { try formats.check(output) }
        if output == "-" && at.count > 1 { throw ValidationError("-o - takes one --at") }
        try validateLossless()
        try show.check(output: output, without: geometryOnly ? "--geometry-only" : lossless ? "--lossless" : nil)
    }

    /// The output side N.
    var side: Int { PeekSide(size: size, screen: screen).side }

    /// --zoom's range: from a 64th (the square shows 64 N image pixels) to 1024x.
    static let zoomRange: ClosedRange<Double> = 1.0 / 64...1024

    /// The path for output `index` (1-based).
    func outputPath(_ index: Int) -> String {
        if let output {
            return output == "-" ? output : ((try? OutputPattern(parsing: output))?.path(index) ?? output)
        }
        let stem = input == "-" ? "stdin" : FileSystem.stem(input)
        let ext = formats.defaultExtension
        return at.count > 1 ? "\(stem).crop-\(index).\(ext)" : "\(stem).crop.\(ext)"
    }

    /// One peek geometry per --at point, in the upright image.
    func peekGeometries(in upright: PixelSize) throws -> [PeekGeometry] {
        var geometries: [PeekGeometry] = []
        for point in at {
            var touch = point.touch
            touch.view = view?.points
            let pixel: PixelPoint
            do { pixel = try touch.resolve(in: upright) } catch { throw ToolFailure(path: input, error) }
            geometries.append(PeekGeometry(image: upright, point: pixel, side: side, zoom: zoom))
        }
        return geometries
    }

    /// The decoded pieces are held together (one decode for every point): their bytes meet
    /// the budget before anything is decoded.
    func checkBudget(_ rects: [PixelRect], path: String) throws {
        let pieces = rects.reduce(Int64(0)) { $0.addingReportingOverflow($1.size.area).partialValue }
        do {
            try decode.budget.check(
                "the \(rects.count) decoded squares (--at)",
                bytes: pieces.multipliedReportingOverflow(by: 4).partialValue)
        } catch {
            throw ToolFailure("\(path): \(error)")
        }
    }

    func run() throws {
        let reader = try ImageReader(path: input, options: encode.reading(decode))
        let header = reader.header
        let geometries = try peekGeometries(in: header.uprightSize)
        if copiesBlocks { return try runLossless(reader, geometries) }
        if geometryOnly {
            for (i, g) in geometries.enumerated() {
                print(geometryJSON(g, header: header, requested: at[i], output: nil, bytes: nil, path: reader.path))
            }
            return
        }

        let markers = try pins.load()
        let filter = PeekRenderer.defaultFilter(for: zoom)
        let rects = geometries.map { $0.sourceRect(margin: PeekRenderer.margin(for: $0, filter: filter)) }
        try checkBudget(rects, path: reader.path)
        let paths = at.indices.map { outputPath($0 + 1) }
        try Outputs.checkNotInputs(
            paths, inputs: [input] + (pins.markers.map { [$0] } ?? []) + (atFrom.map { [$0] } ?? []))
        let choice = formats.choice(encoder.settings(png: encode.png, background: background.color))
        let format = choice.format(for: paths[0])
        if let why = sample.sixteenBitProblem(reader, oneToOne: zoom == 1, pins: !markers.isEmpty, output: format) {
            if sample.depth == .sixteen { throw ToolFailure("\(reader.path): --depth 16 \(why)", exitCode: 2) }
        } else {
            return try runSixteenBit(geometries, reader: reader, paths: paths)
        }
        var sources = try reader.readUpright(rects)
        for i in sources.indices {
            try encode.convert(&sources[i], from: header.color, path: reader.path, lenient: decode.lenient)
        }
        let carried = encode.carry(header.color, path: reader.path)
        let inks = DrawingColors(output: carried)
        for w in reader.warnings { Terminal.warning("\(reader.path): \(w)") }
        let metadata = meta.carried(reader, output: paths[0], format: format.format)?.resolved(
            for: PixelSize(width: side, height: side))
        for (i, g) in geometries.enumerated() {
            var peek = PeekRenderer.render(
                g, source: sources[i], sourceRect: rects[i], background: inks.map(background.color), filter: filter)
            // Pins keep their size in output pixels at any --zoom.
            PinLayer(markers, color: inks.map(PinRenderer.color)).draw(
                on: &peek, transform: .translation(-g.window.x, -g.window.y).then(.scale(g.zoom, g.zoom)))
            let path = show.writes(output: output) ? paths[i] : nil
            let bytes = try path.flatMap { path throws in
                try ImageWriter.write(
                    peek, to: path, encoding: choice.encoding(for: path), protecting: [input], color: carried,
                    background: choice.background, metadata: metadata)
            }
            if json {
                print(geometryJSON(g, header: header, requested: at[i], output: path, bytes: bytes, path: reader.path))
            }
            try show.display([peek])
        }
    }

    /// The lossless path: the squares read at full depth in one decode (the image is upright
    /// as stored here) and written at 16 bits, the samples unchanged (the padding is the
    /// background at 16 bits).
    func runSixteenBit(_ geometries: [PeekGeometry], reader: ImageReader, paths: [String]) throws {
        let header = reader.header
        let carried = encode.carry(header.color, path: reader.path)
        let metadata = meta.carried(reader, output: paths[0])
        let sources = try reader.readStored16(geometries.map(\.coveredRect))
        for (i, g) in geometries.enumerated() {
            var source = sources[i]
            try encode.convert(&source, from: header.color, path: reader.path, lenient: decode.lenient)
            let padded = g.coveredRect.size != PixelSize(width: g.side, height: g.side)
            let format = padded ? source.format.union(background.color.minimalFormat) : source.format
            var peek = Image16(width: g.side, height: g.side, format: format, fill: background.color)
            peek.place(source.converted(to: format), at: g.destination)
            let path = show.writes(output: output) ? paths[i] : nil
            let bytes: Int64?
            bytes = try path.flatMap { path throws in
                try ImageWriter.write(
                    peek, to: path, settings: encode.png, protecting: [input], color: carried, metadata: metadata)
            }
            if json {
                print(
                    geometryJSON(
                        g, header: header, requested: at[i], output: path, bytes: bytes, path: reader.path, depth: 16))
            }
            if show.show { try show.display([InlineImage.eightBit(peek)]) }
        }
    }

    /// The geometry record printed by --json and --geometry-only.
    func geometryJSON(
        _ g: PeekGeometry, header: ImageHeader, requested: Point, output: String?, bytes: Int64?, path: String,
        depth: Int? = nil
    ) -> JSON {
        var members: [(String, JSON)] = [
            ("input", .string(path)),
            ("format", .string(header.formatName)),
            ("storedSize", header.storedSize.json),
            ("uprightSize", header.uprightSize.json),
            ("orientation", .int(header.orientation.rawValue)),
            ("requested", .string(requested.description)),
            ("point", .object([("x", .int(g.point.x)), ("y", .int(g.point.y))])),
            ("side", .int(g.side)),
            ("zoom", .number(g.zoom)),
            ("cropRect", g.coveredRect.json),
            ("window", g.window.json),
            ("shift", .object([("x", .number(g.shiftX)), ("y", .number(g.shiftY))])),
            ("normalizedRect", g.normalizedRect.json),
            ("storedRect", header.orientation.storedRect(forUpright: g.coveredRect, stored: header.storedSize).json),
        ]
        if let v = view?.points {
            let fit = AspectFit(image: header.uprightSize, view: v)
            members.append(
                (
                    "view",
                    .object([
                        ("size", v.json), ("scale", .number(fit.scale)), ("imageRect", fit.imageRect.json),
                        ("previewBox", fit.viewRect(forImage: g.window).json),
                    ])
                ))
        }
        if let output { members.append(("output", .string(output))) }
        if let bytes { members.append(("bytes", .int(bytes))) }
        if output != nil { members.append(("bitDepth", .int(depth ?? 8))) }
        return JSON.record(members)
    }
}
