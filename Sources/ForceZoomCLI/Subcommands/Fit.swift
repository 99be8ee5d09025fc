import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom fit`: the rotated fullscreen fit.
struct Fit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Fit an image to a device screen for an orientation, turned into the portrait canvas.",
        discussion: """
            The output is the screen held in portrait: exactly W x H pixels. In landscape the content bounds are H x W; the image is aspect-fit (or, with --mode fill, filled and centre-cropped) into them, then the content is turned into the portrait canvas. Convention (UIKit's, y pointing down): landscape-left turns the content +90 degrees, clockwise as seen on the screen (the image's top edge lands on the canvas's right side, which is up for a person holding the phone turned counter-clockwise); landscape-right -90; upside-down 180. `auto` (the default) picks the orientation in which the image covers more of the screen: landscape-left for a wide image.

            Downscaling is alias-free: JPEGs decode at the DCT scale (1/2, 1/4, 1/8) still at least the target, then a Lanczos reduction stretched by the scale; quarter turns are exact pixel moves (no extra blur). Alpha is filtered premultiplied.

            --screen NAME renders at the device's pixels (points x scale); --scale 1 gives a point-sized preview (--scale S: S pixels per point). Devices, in portrait:
            \(Size.deviceTable)

            Examples:
              forcezoom fit photo.jpg --screen iphone-15 --orientation landscape-left -o fit.png
              forcezoom fit photo.jpg --screen 1170x2532 --mode fill --json
              forcezoom fit map.png --screen iphone-se --marker 1200,800,Home
            """)

    @Argument(
        help: ArgumentHelp(
            "The image: a \(FormatNames.inputs) path or an http(s) URL, or - to read standard input.",
            valueName: "input"))
    var input: String

    @Option(
        name: [.long, .customLong("screen-pixels")],
        help: ArgumentHelp(
            "The device screen in portrait: WxH pixels, or a device name from the list.", valueName: "wxh|name"))
    var screen: Size

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With a device name: pixels per point (default the device's; 1 for a point-sized preview).", valueName: "s")
    )
    var scale: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("portrait, landscape-left, landscape-right, upside-down or auto.", valueName: "o"))
    var orientation: OrientationChoice = .auto

    @Option(name: .long, help: ArgumentHelp("fit (letterbox) or fill (centre crop).", valueName: "mode"))
    var mode: FitGeometry.Mode = .fit

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --mode fill: the upright point kept in the middle (X,Y, X%,Y%, region:NAME, face, attention, entropy, center), the crop shifted no further than the image's edges.",
            valueName: "x,y|word"))
    var at: Point?

    @Flag(
        name: .long,
        help:
            "An animated GIF, WebP, APNG or JPEG XL makes an animated fit: APNG (.png) or WebP (.webp), as the output name's extension says; every frame composited and fitted, delays and loop count kept (at most 1000 frames and 120 seconds)."
    )
    var animated = false

    @OptionGroup var fill: BackgroundFlags<FitBackground>

    @OptionGroup var kernel: FilterFlags<FitFilter>

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var meta: MetadataFlags
    @OptionGroup var show: ShowFlags

    func validate() throws {
        try show.check(output: outputOptions.output)
        if outputOptions.output == nil, show.writes(output: nil), URLInputs.isURL(input) {
            throw ValidationError("\(URLInputs.displayName(input)) is a URL: name the output with -o FILE")
        }
        try screen.check("--screen")
        try Self.checkScale(scale, screen: screen)
        if let at {
            try at.check("--at")
            if mode != .fill {
                throw ValidationError("--at places the fill's crop; give --mode fill (a fit shows the whole image)")
            }
        }
        if animated {
            let (output, formats) = (outputOptions.output, outputOptions.formats)
            let named = output.flatMap { try? OutputFormat.chosen(forPath: $0, requested: formats.format).get() }
            // Thumb's and crop's rule: the two writers of animations, by the registry's names.
            if let format = named ?? formats.format, format.format.rawValue != "WebP" && format.format.rawValue != "PNG"
            {
                throw ValidationError(
                    "--animated writes animated WebP or APNG; \(format.extensions[0]) holds no animation (name the output .png or .webp)"
                )
            }
        }
        let (canvas, budget) = (screenPixels, decode.budget)
        try Check.budget { () throws(BudgetError) in try budget.check("the canvas (--screen \(screen))", size: canvas) }
    }

    /// `--scale` needs a device (WxH is already pixels) and a positive, sane value.
    static func checkScale(_ scale: Double?, screen: Size) throws {
        guard let scale else { return }
        if screen.device == nil {
            throw ValidationError(
                "--scale applies to a device name (--screen iphone-15 --scale 1); --screen \(screen) is already in pixels"
            )
        }
        if !(scale > 0 && scale <= 8) {
            throw ValidationError("--scale must be more than 0 and at most 8, got \(Echo.number(scale))")
        }
    }

    /// The canvas: WxH, or the device's points at --scale (its own scale by default).
    var screenPixels: PixelSize { screen.device.map { $0.pixels(atScale: scale ?? $0.scale) } ?? screen.pixels }

    func run() throws {
        var operation = FitOperation(
            input: input, screen: screenPixels, orientation: orientation.fixed, mode: mode,
            background: fill.background.color, filter: kernel.filter, settings: settings,
            target: outputOptions.target(
                input: input, suffix: "fit", png: encode.png, background: fill.background.color, show: show))
        operation.markers = pins.source
        operation.place = at?.place
        operation.json = outputOptions.json
        operation.display = try show.display()
        operation.animated = animated
        try operation.run(Report.terminal)
    }

    /// The core's settings: decoding, colour, PNG, metadata.
    var settings: RenderSettings { encode.settings(decode, metadata: meta) }
}
