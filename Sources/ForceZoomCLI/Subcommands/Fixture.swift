// Length: over 300 lines: fixture has a dozen patterns, each with its options and their checks;
// the pixels are the core's FixtureWriter.
import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom fixture`: deterministic synthetic images for tests.
struct Fixture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture",
        abstract: "Make deterministic test images: coordinates, orientation, zone plate.",
        discussion: """
            Patterns:
              coords       each pixel encodes its position: R = x mod 256, G = y mod 256,
                           B = (x/256 mod 16)*16 + (y/256 mod 16); unique up to 4096x4096.
                           `fixture --decode FILE` traces a piece back to its source:
                           1:1 or magnified by a whole number Z (zoom and the exact
                           window in the JSON), padded or not (the padding reported);
                           a lossy or resampled piece is fitted ("exact":false: window,
                           scale, orientation, residual in source pixels).
              grid         lines every --step pixels (default 100) with coordinate labels
              orientation  corners red (top-left), green (top-right), blue (bottom-left),
                           yellow (bottom-right), an "F" and the word TOP
              checker      black/white cells of --step pixels (default 8)
              gradient     --direction horizontal|vertical|radial; 16-bit exact with --depth 16
              zoneplate    0.5 + 0.5 cos(pi r^2 / max(W,H)): shows any aliasing as rings
              noise        reproducible incompressible RGB noise (--seed N)
              solid        one colour (--fill COLOR, or --color COLOR)

            The same arguments give the same bytes on every machine: fixed zlib settings, no time chunks, no random state beyond --seed. --exif-orientation N stores the pixels turned so that the upright image is the pattern, as a camera does.

            Examples:
              forcezoom fixture coords --size 4000x3000 -o coords.png
              forcezoom fixture orientation --size 600x400 --exif-orientation 6 -o o6.jpg
              forcezoom fixture gradient --size 256x16 --color gray --depth 16 -o g16.png
              forcezoom fixture --decode crop.png
              forcezoom fixture kit kit --set orientation
            """,
        subcommands: [FixtureKit.self])

    @Argument(
        help: ArgumentHelp(
            "The pattern: \(Pattern.Kind.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "pattern"))
    var pattern: Pattern.Kind?

    @Option(name: .long, help: ArgumentHelp("Image size (upright).", valueName: "wxh"))
    var size: Size?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Output path (the extension picks \(FormatNames.fixtureOutputs)), or - for standard output.",
            valueName: "path"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Trace a piece of a coords image (1:1 or whole-number zoom, padded or not) back to its source rectangle and orientation (JSON).",
            valueName: "file"))
    var decode: String?

    @Option(name: .long, help: ArgumentHelp("Checker cell or grid spacing in pixels.", valueName: "n"))
    var step: Int?

    @Option(name: .long, help: ArgumentHelp("Seed for noise.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("Colour for solid.", valueName: "color"))
    var fill: ColorArgument?

    @Option(name: .long, help: ArgumentHelp("Gradient direction: horizontal, vertical, radial.", valueName: "dir"))
    var direction: Pattern.GradientDirection = .horizontal

    @Flag(
        name: .long, help: "Alpha falls from opaque (top) to clear (bottom); for gray-alpha, rgba and palette images.")
    var fade = false

    @Option(
        name: .long,
        help: ArgumentHelp("png, jpeg, webp, heic or avif (default: from the extension).", valueName: "format"))
    var format: OutputFormat?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "PNG colour type: gray, gray-alpha, rgb (default), rgba, palette. For solid, a colour.", valueName: "type"))
    var color: String?

    @Option(name: .long, help: ArgumentHelp("PNG bit depth: 1, 2, 4 (gray, palette), 8, 16.", valueName: "bits"))
    var depth: Int = 8

    @Flag(name: .long, help: "PNG: Adam7 interlacing.")
    var interlace = false

    @Option(
        name: .long,
        help: ArgumentHelp("PNG: make this colour transparent with tRNS (gray and rgb patterns).", valueName: "color"))
    var transparent: ColorArgument?

    /// --quality (default 92) and --lossless.
    @OptionGroup var encoder: EncoderFlags<FixtureEncoderHelp>

    @Option(name: .long, help: ArgumentHelp("JPEG chroma subsampling: 444, 422, 420, 440, 411.", valueName: "s"))
    var subsampling: Int = 444

    @Flag(name: .long, help: "JPEG: progressive.")
    var progressive = false

    @Flag(name: .long, help: "JPEG: one gray component.")
    var grayscale = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Embed this ICC profile unchanged (PNG iCCP, JPEG APP2, WebP ICCP, HEIC/AVIF colr, JPEG XL codestream) as the description of the pattern's samples: an RGB profile for RGB, a CMYK one with --cmyk or --ycck.",
            valueName: "file"))
    var embedICC: String?

    @Flag(name: .long, help: "JPEG: Adobe CMYK (inverted, as Photoshop writes it).")
    var cmyk = false

    @Flag(name: .long, help: "JPEG: Adobe YCCK.")
    var ycck = false

    @Flag(name: .long, help: "JPEG: arithmetic coding.")
    var arithmetic = false

    @Flag(name: .long, help: "JPEG: RGB-coded (no YCbCr transform).")
    var rgbCoded = false

    @Option(name: .long, help: ArgumentHelp("JPEG: a restart marker every N MCU rows.", valueName: "n"))
    var restart: Int = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write EXIF orientation 1-8; the stored pixels are turned so the upright image is the pattern.",
            valueName: "n"))
    var exifOrientation: Int?

    @Flag(name: .long, help: "Print the file's size and the SHA-256 of its decoded pixels as JSON.")
    var json = false

    @OptionGroup var encode: EncodeFlags

    @Option(
        name: .long,
        help: ArgumentHelp(
            "HEIC/AVIF: store the pixels turned clockwise and write an irot of 90, 180 or 270 degrees (anticlockwise), so the upright image is the pattern.",
            valueName: "degrees"))
    var heifRotate: Int = 0

    /// What the fixture is written as: `--format`, else the extension (`OutputFormat.chosen`;
    /// validate() refused a name that says neither, or a contradiction); PNG for stdout.
    var outputFormat: OutputFormat {
        (try? OutputFormat.chosen(forPath: output ?? "-", requested: format).get()) ?? .png
    }

    /// "heic" or "avif" when the output is HEIF.
    var heifKind: String? {
        switch outputFormat {
        case .heic: "heic"
        case .avif: "avif"
        default: nil
        }
    }

    var isWebP: Bool { outputFormat == .webp }

    var isJPEG: Bool { outputFormat == .jpeg }

    /// A format with no fixture writer of its own (JPEG XL): written by its registered encoder.
    var registered: OutputFormat? {
        ([.png, .jpeg, .webp, .heic, .avif] as [OutputFormat]).contains(outputFormat) ? nil : outputFormat
    }

    var pngColor: FixtureEncoding.PNGColor? { color.flatMap { FixtureEncoding.PNGColor(rawValue: $0.lowercased()) } }

    func validate() throws {
        if decode != nil {
            if pattern != nil { throw ValidationError("--decode reads a file; give no pattern") }
            return
        }
        guard pattern != nil else {
            throw ValidationError("name a pattern: \(Pattern.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let size else { throw ValidationError("give --size WxH") }
        try size.check("--size")
        let pixels = size.pixels
        try Check.budget { () throws(BudgetError) in
            try Budget(maxPixels: 268_435_456, maxBytes: 2 << 30).check(
                "--size \(size)", size: pixels, bytesPerPixel: 8)
        }
        if output == nil { throw ValidationError("give an output path with -o (\(FormatNames.fixtureExtensions))") }
        try Outputs.checkNotEmpty(output, "-o")
        if let output, case .failure(let problem) = OutputFormat.chosen(forPath: output, requested: format) {
            throw ValidationError(problem.description)
        }
        try validatePNG()
        try validateOtherFormats()
        try validateJPEG()
    }

    /// --step and PNG's bit depths for the colour type.
    private func validatePNG() throws {
        if let step { try Check.integer(step, "--step", in: 1...Budget.maxSide) }
        let depths: [Int] =
            switch pngColor {
            case .gray?: [1, 2, 4, 8, 16]
            case .palette?: [1, 2, 4, 8]
            default: [8, 16]
            }
        if !depths.contains(depth) {
            throw ValidationError(
                "--depth \(depth) is not a PNG bit depth for \(pngColor.map { "--color \($0.rawValue)" } ?? "rgb"); use \(depths.map(String.init).joined(separator: ", "))"
            )
        }
    }

    /// HEIC/AVIF, WebP and --lossless: what each format takes.
    private func validateOtherFormats() throws {
        if ![0, 90, 180, 270].contains(heifRotate) { throw ValidationError("--heif-rotate must be 0, 90, 180 or 270") }
        // Every format whose encoder declares an ICC container carries the profile (issue 36).
        if embedICC != nil && !outputFormat.metadata.icc {
            throw ValidationError(
                "--embed-icc: \(outputFormat.name) carries no ICC profile; use \(FormatNames.carryingICC)")
        }
        if heifRotate != 0 && heifKind == nil {
            throw ValidationError("--heif-rotate is an HEIC/AVIF option; the output is not .heic or .avif")
        }
        if heifKind != nil
            && (depth != 8 || interlace || transparent != nil
                || (pngColor != nil && pngColor != .rgb && pngColor != .rgba))
        {
            throw ValidationError(
                "HEIC/AVIF take --color rgb or rgba only; --depth, --interlace and --transparent are PNG options")
        }
        if isWebP
            && (depth != 8 || interlace || transparent != nil
                || (pngColor != nil && pngColor != .rgb && pngColor != .rgba))
        {
            throw ValidationError(
                "WebP takes --color rgb or rgba only; --depth, --interlace and --transparent are PNG options")
        }
        if let registered,
            depth != 8 || interlace || transparent != nil || exifOrientation != nil
                || (pngColor != nil && pngColor != .rgb && pngColor != .rgba)
        {
            throw ValidationError(
                "\(registered.name) takes --color rgb or rgba only; --depth, --interlace, --transparent and --exif-orientation are PNG, JPEG, WebP and HEIF options"
            )
        }
        if encoder.lossless && !outputFormat.encoderOptions.contains(.lossless) {
            throw ValidationError(
                "--lossless is a \(FormatNames.taking(.lossless)) option; the output is \(outputFormat.name)")
        }
        if let color, pngColor == nil, Color(parsing: color) == nil {
            throw ValidationError(
                "--color takes a PNG colour type (gray, gray-alpha, rgb, rgba, palette) or, for solid, a colour; got '\(color)'"
            )
        }
    }

    /// JPEG's options, and the output.
    private func validateJPEG() throws {
        if let e = exifOrientation, !(1...8).contains(e) { throw ValidationError("--exif-orientation must be 1-8") }
        if ![444, 422, 420, 440, 411].contains(subsampling) {
            throw ValidationError("--subsampling must be 444, 422, 420, 440 or 411")
        }
        try Check.integer(restart, "--restart", in: 0...65535)
        if [grayscale, cmyk, ycck, rgbCoded].filter({ $0 }).count > 1 {
            throw ValidationError(
                "--grayscale, --cmyk, --ycck and --rgb-coded each choose the JPEG colour form; give one")
        }
        if isJPEG && (pngColor != nil || depth != 8 || interlace || transparent != nil) {
            throw ValidationError(
                "--color (as a type), --depth, --interlace and --transparent are PNG options; the output is JPEG")
        }
        if !isJPEG && (progressive || grayscale || cmyk || ycck || arithmetic || rgbCoded || restart > 0) {
            throw ValidationError(
                "--progressive, --grayscale, --cmyk, --ycck, --arithmetic, --rgb-coded and --restart are JPEG options; the output is PNG"
            )
        }
        if StandardStream.meansStandardOutput(output) && json {
            // -o /dev/stdout too: the JSON lines would land inside the image.
            throw ValidationError("-o \(output ?? "-") writes the image to stdout; --json cannot share it")
        }
    }

    /// How the pattern is encoded, from the format and encoding options.
    var fixtureEncoding: FixtureEncoding {
        var e = FixtureEncoding()
        e.jpeg = isJPEG
        e.webp = isWebP
        e.lossless = encoder.lossless
        e.heic = heifKind == "heic"
        e.avif = heifKind == "avif"
        e.heifRotation = heifRotate
        e.color = pngColor ?? .rgb
        e.depth = depth
        e.interlaced = interlace
        e.transparent = transparent?.color
        e.quality = encoder.quality
        e.subsampling = subsampling
        e.progressive = progressive
        e.grayscale = grayscale
        e.cmyk = cmyk
        e.ycck = ycck
        e.arithmetic = arithmetic
        e.rgbCoded = rgbCoded
        e.restartRows = restart
        e.exifOrientation = exifOrientation.flatMap { Orientation(rawValue: $0) }
        e.png = encode.png
        e.registered = registered
        return e
    }

    func run() throws {
        if let decode { return try FixtureTraceOperation(path: decode).run(Report.terminal) }
        // validate() checked both
        guard let kind = pattern, let size else { throw ValidationError("name a pattern and --size") }
        let solid = fill?.color ?? (pngColor == nil ? color.flatMap { Color(parsing: $0) } : nil) ?? .white
        var p = Pattern(kind, size: size.pixels, step: step, seed: seed, color: solid, direction: direction)
        p.fade = fade
        var operation = FixtureOperation(pattern: p, encoding: fixtureEncoding, output: output!)
        (operation.embedICC, operation.json) = (embedICC, json)
        try operation.run(Report.terminal)
    }
}
