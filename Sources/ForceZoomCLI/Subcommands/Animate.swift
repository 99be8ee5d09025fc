// Length: over 300 lines: animate has some forty options and their validation; the work itself is
// the core's AnimationJob.
import ArgumentParser
import FZOperations
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom animate`: the zoom transition as frames.
struct Animate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Render the zoom transition (thumbnail rect to fullscreen, with rotation) as frames.",
        discussion: """
            RECT is x,y,w,h in pixels of the portrait screen. Each frame shows the image aspect-filled (--mode fit to letterbox) into the view, which moves from --from to --to, clipped to it, on --background. `--to fullscreen` (the default) is the screen's bounds for --orientation as `fit` defines them: the last frame is `fit`'s output, pins included.

            Timing, as ZoomingViewController animates: the view zooms to the upright fullscreen in --zoom-duration (0.2 s), then turns into a landscape or upside-down --orientation in --turn-duration (0.25 s); each phase has its own curve (--easing, --turn-easing) and the zoom's last frame is exactly the upright fullscreen (`fit --orientation portrait`). --rotate-with-zoom turns during the zoom instead. Frame k is at time k/fps (every phase boundary is a frame; a phase of D s gets round(D x fps) intervals), the last at exactly the total. --frames N spreads N frames over the same phases instead. --easing is a standard cubic Bezier, as UIKit's: linear, ease-in (.42,0,1,1), ease-out (0,0,.58,1), ease-in-out (.42,0,.58,1).

            --reverse renders the dismiss transition: its own animation, time running forward, from fullscreen back to the rect (turn back upright first, then zoom out), the easings as given.

            --bounce renders the rotating-bounce recipe instead, in real time whatever --fps: +pi/100 rad every 0.03 s (60 degrees a second), scaled by |cos(angle)| + 0.5; --duration defaults to one full turn (6 s). The image is aspect-fit and the whole bounce scaled by one factor so that its largest turned extent fits the screen: the canvas is the screen and no corner is cut. --from, --to, --orientation, --mode, the phase options, --reverse and --overlay mean nothing with --bounce and are refused.

            Pins (--marker, --markers) are subviews of the zooming view: they follow their image points, turn with the view and are clipped to its bounds, and keep their size on screen. --pin-scale-range MIN,MAX takes the map seed's units: the map clamps its zoom scale to MIN...MAX and scales pins by 1/zoomScale, so pins drawn = zoom / clamp(zoom, MIN, MAX) times the standard size, with zoom = --initial-zoom (default 1: the map's zoom scale with the view at its rect) times the view's magnification since then. A map loaded at 0.25: --initial-zoom 0.25 --pin-scale-range 0.25,1 (pins keep their size up to 4x, then grow).

            --overlay FILE composites a PNG (a toolbar, a caption: ZOZolaZoomTransition's supplementary view) unzoomed at --overlay-at X,Y on every frame, faded with the transition: --overlay-fade out (default) is opaque at the rect and gone fullscreen, in the opposite.

            --screen NAME renders at the device's pixels (--scale 1 for a point-sized preview); --screen WxH is in pixels.

            Outputs: -o 'frames/%03d.png' (a numbered sequence from 1, in the format its extension names), --apng OUT.png (one animated PNG), --contact-sheet OUT.png (all frames in a grid); --json prints one line per frame: time, phase, the phase's eased progress, presented (0 at the rect, 1 fullscreen), view rect, turn, scale, pin size and 2x3 matrix.

            Examples:
              forcezoom animate photo.jpg --screen 390x844 --from 20,100,120,90 -o 'f/%03d.png'
              forcezoom animate photo.jpg --screen iphone-14 --from 60,300,360,270 --orientation landscape-left --apng zoom.png
              forcezoom animate photo.jpg --screen 390x844 --from 20,100,120,90 --reverse --contact-sheet sheet.png --json
              forcezoom animate photo.jpg --screen 390x844 --bounce --fps 30 --apng bounce.png
            """)

    @Argument(help: ArgumentHelp("The image: a \(FormatNames.inputs) path, or -.", valueName: "input"))
    var input: String

    @Option(
        name: [.long, .customLong("screen-pixels")],
        help: ArgumentHelp(
            "The portrait screen: WxH pixels, or a device name (then its pixels).", valueName: "wxh|name"))
    var screen: Size

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With a device name: pixels per point (default the device's; 1 for a point-sized preview).", valueName: "s")
    )
    var scale: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Start rect x,y,w,h in screen pixels (not with --bounce, which has none).", valueName: "rect"),
        transform: RectArgument.parse)
    var from: RectArgument?

    @Option(
        name: .long, help: ArgumentHelp("End rect x,y,w,h, or fullscreen (default).", valueName: "rect"),
        transform: TargetArgument.parse)
    var to: TargetArgument?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --to fullscreen: portrait (default), landscape-left, landscape-right, upside-down, auto.",
            valueName: "o"))
    var orientation: OrientationChoice?

    @Option(name: .long, help: ArgumentHelp("fill (default, as a zooming thumbnail) or fit.", valueName: "mode"))
    var mode: FitGeometry.Mode?

    @Option(
        name: .long,
        help: ArgumentHelp("Number of frames, spread over the phases (instead of giving --fps).", valueName: "n"))
    var frames: Int?

    @Option(name: .long, help: ArgumentHelp("The zoom's duration in seconds (default 0.2).", valueName: "s"))
    var zoomDuration: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("The turn's duration in seconds, after the zoom (default 0.25).", valueName: "s"))
    var turnDuration: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --bounce: its length (default 6 s, one turn). Otherwise --zoom-duration by another name.",
            valueName: "s"))
    var duration: Double?

    @Option(name: .long, help: ArgumentHelp("Frames per second (default 60).", valueName: "f"))
    var fps: Double = 60

    @Option(
        name: .long,
        help: ArgumentHelp("The zoom's curve: linear, ease-in, ease-out, ease-in-out (default).", valueName: "curve"))
    var easing: Easing?

    @Option(name: .long, help: ArgumentHelp("The turn's curve (default: the --easing one).", valueName: "curve"))
    var turnEasing: Easing?

    @Flag(name: .long, help: "The dismiss transition: fullscreen back to the rect.")
    var reverse = false

    @Flag(name: .long, help: "Turn while zooming instead of after.")
    var rotateWithZoom = false

    @Flag(name: .long, help: "The rotating-bounce recipe, instead of the zoom transition from the rect.")
    var bounce = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The map's zoom-scale clamp MIN,MAX: pins keep their size while the zoom scale is in it.",
            valueName: "min,max"))
    var pinScaleRange: NumberList?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --pin-scale-range: the map's zoom scale with the view at its rect (default 1).", valueName: "z"))
    var initialZoom: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("A PNG composited unzoomed on every frame, faded with the transition.", valueName: "file"))
    var overlay: String?

    @Option(name: .long, help: ArgumentHelp("The overlay's top-left in screen pixels (default 0,0).", valueName: "x,y"))
    var overlayAt: NumberList?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "out (opaque at the rect, gone fullscreen; the default) or in (the other way).", valueName: "fade"))
    var overlayFade: Overlay.Fade?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The upright point the fill keeps in the middle of the view (X,Y, X%,Y%, region:NAME, face, attention, entropy, center); --mode fit and --bounce refuse it.",
            valueName: "x,y|word"))
    var at: Point?

    @OptionGroup var fill: BackgroundFlags<AnimateBackground>

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Frame sequence pattern with %d or %0Nd (frame numbers from 1); its extension chooses \(FormatNames.rendered).",
            valueName: "pattern"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Write one animated PNG.", valueName: "path"))
    var apng: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Write all frames in a grid (in the format its extension names).", valueName: "path"))
    var contactSheet: String?

    @Flag(name: .long, help: "Print each frame's geometry as JSON Lines.")
    var json = false

    @OptionGroup var formats: FormatFlags

    @OptionGroup var encoder: EncoderFlags<AnimateEncoderHelp>

    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var meta: MetadataFlags
    @OptionGroup var show: ShowFlags

    /// `--overlay-at`: two whole numbers within ±1000000.
    static func point(_ list: NumberList) -> PixelPoint? {
        let v = list.values
        guard v.count == 2, v.allSatisfy({ $0 == $0.rounded() && abs($0) <= 1_000_000 }) else { return nil }
        return PixelPoint(x: Int(v[0]), y: Int(v[1]))
    }

    var pinRange: PinScaleRange {
        guard let pinScaleRange else { return .unlimited }
        let v = pinScaleRange.values
        return PinScaleRange(minimum: v[0], maximum: v[1], initialZoom: initialZoom ?? 1)
    }

    /// The canvas: WxH, or the device's points at --scale (its own scale by default).
    var screenPixels: PixelSize { screen.device.map { $0.pixels(atScale: scale ?? $0.scale) } ?? screen.pixels }

    var zoomSeconds: Double { zoomDuration ?? duration ?? 0.2 }
    var turnSeconds: Double { turnDuration ?? 0.25 }
    var bounceSeconds: Double { duration ?? Bounce.period }

    /// Frames before any orientation is known: the most the geometry can give.
    var frameBound: Int {
        if let frames { return frames + 1 }
        if bounce { return Int((bounceSeconds * fps).rounded()) + 1 }
        return Int((zoomSeconds * fps).rounded()) + Int((turnSeconds * fps).rounded()) + 3
    }

    func validate() throws {
        try screen.check("--screen")
        try Fit.checkScale(scale, screen: screen)
        let s = screenPixels
        try Check.budget { () throws(BudgetError) in try Budget().check("--screen", size: s) }
        try validateMotion()
        try validateTiming()
        try validatePinsAndOverlay()
        try validateOutputs()
        try validateBudget(screen: s)
    }

    /// --bounce against the zoom's options, --from, --to and the turn's options.
    private func validateMotion() throws {
        if bounce {
            let meaningless: [(String, Bool)] = [
                ("--from", from != nil), ("--to", to != nil), ("--orientation", orientation != nil),
                ("--mode", mode != nil),
                ("--easing", easing != nil), ("--turn-easing", turnEasing != nil),
                ("--zoom-duration", zoomDuration != nil),
                ("--turn-duration", turnDuration != nil), ("--reverse", reverse),
                ("--rotate-with-zoom", rotateWithZoom),
                ("--overlay", overlay != nil), ("--at", at != nil),
            ]
            if let (name, _) = meaningless.first(where: { $0.1 }) {
                throw ValidationError(
                    "\(name) means nothing with --bounce (it spins the fitted image in place); leave it out")
            }
        } else {
            guard from != nil else { throw ValidationError("give the start rect with --from x,y,w,h (screen pixels)") }
        }
        if let at {
            try at.check("--at")
            if mode == .fit {
                throw ValidationError("--at places the fill's crop; leave --mode fit out (a fit shows the whole image)")
            }
        }
        let toRect = to?.rect != nil
        if toRect && orientation != nil && orientation != .fixed(.portrait) {
            throw ValidationError("--orientation applies to --to fullscreen")
        }
        if turnDuration != nil || turnEasing != nil {
            if rotateWithZoom {
                throw ValidationError(
                    "--turn-duration and --turn-easing time the turn after the zoom; with --rotate-with-zoom the turn is part of the zoom"
                )
            }
            if toRect || orientation == nil || orientation == .fixed(.portrait) {
                throw ValidationError(
                    "--turn-duration and --turn-easing need a turn: --to fullscreen with --orientation landscape-left, landscape-right, upside-down or auto"
                )
            }
        }
    }

    /// Durations, frame counts and the rate.
    private func validateTiming() throws {
        if duration != nil && zoomDuration != nil {
            throw ValidationError("--duration is --zoom-duration for the transition; give one")
        }
        if let frames, !(2...10_000).contains(frames) { throw ValidationError("--frames must be 2-10000") }
        for (name, v) in [
            ("--zoom-duration", zoomDuration), ("--turn-duration", turnDuration), ("--duration", duration),
        ] {
            if let v, !(v > 0 && v <= 600) {
                throw ValidationError("\(name) must be more than 0 and at most 600 seconds, got \(Echo.number(v))")
            }
        }
        if !(fps > 0 && fps <= 1000) {
            throw ValidationError("--fps must be more than 0 and at most 1000, got \(Echo.number(fps))")
        }
        if frameBound > 10_001 { throw ValidationError("that is \(frameBound) frames; at most 10000") }
    }

    /// --pin-scale-range, --initial-zoom and the overlay's options.
    private func validatePinsAndOverlay() throws {
        if let p = pinScaleRange {
            let v = p.values
            if v.count != 2 || !(v[0] >= 1e-6) || !(v[1] >= v[0]) || !(v[1] <= 1e6) {
                throw ValidationError("--pin-scale-range takes MIN,MAX with 0.000001 <= MIN <= MAX <= 1000000")
            }
        }
        if let z = initialZoom {
            if pinScaleRange == nil {
                throw ValidationError(
                    "--initial-zoom sets where --pin-scale-range's zoom starts; give --pin-scale-range too")
            }
            if !(z >= 1e-6 && z <= 1e6) { throw ValidationError("--initial-zoom must be 0.000001 to 1000000") }
        }
        if overlay == nil && (overlayAt != nil || overlayFade != nil) {
            throw ValidationError("--overlay-at and --overlay-fade need --overlay FILE")
        }
        if let overlayAt, Self.point(overlayAt) == nil {
            throw ValidationError(
                "--overlay-at takes X,Y in whole screen pixels within ±1000000, got '\(Echo.value(overlayAt.text))'")
        }
    }

    /// Something to write, and every output's name.
    private func validateOutputs() throws {
        if output == nil && apng == nil && contactSheet == nil && !json && !show.show {
            throw ValidationError(
                "say what to write: -o 'frames/%03d.png', --apng FILE, --contact-sheet FILE or --json")
        }
        try Outputs.checkNotEmpty(output, "-o")
        try Outputs.checkNotEmpty(apng, "--apng")
        try Outputs.checkNotEmpty(contactSheet, "--contact-sheet")
        if let output { _ = try Outputs.pattern(output, "-o", needsCounter: true, example: "'frames/%03d.png'") }
        if StandardStream.isNamed(output) || StandardStream.isNamed(apng) || StandardStream.isNamed(contactSheet) {
            throw ValidationError("animate writes files; - (stdout) is not an output here")
        }
        try formats.check(output)
        try formats.check(contactSheet)
        if let apng, !["png", "apng"].contains(FileSystem.fileExtension(apng).lowercased()) {
            throw ValidationError("--apng writes an animated PNG; name '\(Echo.value(apng))' .png or .apng")
        }
        try Outputs.checkDistinct(
            [("--apng", apng), ("--contact-sheet", contactSheet), ("--overlay", overlay), ("the input", input)]
                .compactMap { o, p in p.map { (o, $0) } })
    }

    /// What the frames cost, against the budget, before any work.
    private func validateBudget(screen s: PixelSize) throws {
        // What the frames cost: the frames in flight (each thread renders one, one more
        // waits to be written), the contact sheet, and the pixels drawn in all (four times
        // --max-pixels: a 120 fps fullscreen animation of an iPad Pro is 0.3 G pixels).
        let budget = decode.budget
        let threads = ThumbOperation.processorCount
        try Check.budget { () throws(BudgetError) in
            try budget.check("the frames in flight (--screen \(screen))", size: s, count: min(frameBound, 2 * threads))
            if contactSheet != nil || show.show {
                try budget.check(
                    "the contact sheet (--frames \(frameBound))",
                    size: AnimationJob.contactSheetSize(screen: s, count: frameBound))
            }
            let all = Budget(
                maxPixels: budget.maxPixels > 0 ? budget.maxPixels.multipliedReportingOverflow(by: 4).partialValue : 0,
                maxBytes: 0)
            try all.check("all \(frameBound) frames", size: s, bytesPerPixel: 0, count: frameBound)
        }
    }

    func geometry(image: PixelSize, focus: PixelPoint?) -> [ZoomAnimation.Frame] {
        let screen = screenPixels
        if bounce {
            let rate = frames.map { Double($0 - 1) / bounceSeconds } ?? fps
            return Bounce(image: image, screen: screen, duration: bounceSeconds, fps: rate).frames
        }
        let o = orientation ?? .fixed(.portrait)
        let chosen = o.resolve(image: image, screen: screen)
        let zoomEasing = easing ?? .easeInOut
        // validate() made sure --from is given without --bounce.
        let start = from?.rect ?? Rect(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height))
        var animation = ZoomAnimation(
            image: image, screen: screen, from: start,
            to: to?.rect, orientation: chosen,
            mode: mode ?? .fill, easing: zoomEasing,
            turnEasing: turnEasing ?? zoomEasing,
            zoomDuration: zoomSeconds, turnDuration: turnSeconds, fps: fps, frameCount: frames,
            rotateWithZoom: rotateWithZoom, reverse: reverse)
        animation.focus = focus
        return animation.frames
    }

    /// Where the frames go: -o's numbered series (validate() parsed it), with the format
    /// and encoding each name gets; nowhere without -o.
    var frameTarget: OutputTarget {
        let choice = formats.choice(encoder.settings(png: encode.png, background: fill.background.color))
        let pattern = output.flatMap { try? OutputPattern(parsing: $0) }
        return OutputTarget(pattern.map { .numbered($0) } ?? .none, choice: choice)
    }

    func run() throws {
        var settings = encode.settings(decode, metadata: meta)
        let target = frameTarget
        settings.output = target.choice
        var job = AnimationJob(
            input: input, settings: settings, screen: screenPixels, background: fill.background.color, fps: fps,
            threads: ThumbOperation.processorCount)
        if let overlay {
            job.overlay = (overlay, overlayAt.flatMap(Self.point) ?? PixelPoint(x: 0, y: 0), overlayFade ?? .out)
        }
        (job.target, job.apng, job.contactSheet, job.clip) = (target, apng, contactSheet, !bounce)
        job.place = at?.place
        let writes = output != nil || apng != nil || contactSheet != nil || show.show
        try job.perform(
            Report.terminal, markers: pins.source, geometry: geometry(image:focus:), pinSizes: pinRange.pinSizes,
            writes: writes, json: json, display: try show.display())
    }
}
