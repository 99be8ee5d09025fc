import ArgumentParser
import ForceZoomCore

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom animate`: the zoom transition as frames.
struct Animate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the zoom transition (thumbnail rect to fullscreen, with rotation) as frames.",
        discussion: """
            RECT is x,y,w,h in pixels of the portrait screen. Frame k of N shows the image
            aspect-filled (--mode fit to letterbox) into the rect interpolated between --from
            and --to, clipped to it, on --background. `--to fullscreen` (the default) is the
            screen's bounds for --orientation as `fit` defines them: in landscape the zoom
            ends turned into that orientation, the turn animated after the zoom (second half
            of the frames) or with it (--rotate-with-zoom).

            Timing: --frames N, or --duration S x --fps F (default 0.3 s at 60 fps = 18
            frames). --easing is a standard cubic-bezier curve: linear, ease-in (.42,0,1,1),
            ease-out (0,0,.58,1), ease-in-out (.42,0,.58,1). --bounce renders the rotating
            bounce instead: 1% of pi more turn a frame, scale |cos| + 0.5.

            Pins (--marker, --markers) follow their image points and keep their size in
            pixels through the zoom; outside --pin-scale-range MIN,MAX (zoom relative to the
            first frame) they grow or shrink with it, so an overshoot does not make them bounce.

            Outputs: -o 'frames/%03d.png' (a numbered PNG sequence, from 1), --apng OUT.png
            (one animated PNG), --contact-sheet OUT.png (all frames in a grid); --json prints
            one line per frame: time, eased progress, view rect, turn and the 2x3 matrix.

            Examples:
              forcezoom animate photo.jpg --screen 390x844 --from 20,100,120,90 -o 'f/%03d.png'
              forcezoom animate photo.jpg --screen 1170x2532 --from 40,300,360,240 --orientation landscape-left --apng zoom.png
              forcezoom animate photo.jpg --screen 390x844 --from 20,100,120,90 --contact-sheet sheet.png --json
            """)

    @Argument(help: ArgumentHelp("The image: a PNG or JPEG path, or -.", valueName: "input"))
    var input: String

    @Option(name: .long, help: ArgumentHelp("The portrait screen: WxH pixels or a device name.", valueName: "wxh|name"))
    var screen: Size

    @Option(name: .long, help: ArgumentHelp("Start rect x,y,w,h in screen pixels.", valueName: "rect"))
    var from: String

    @Option(name: .long, help: ArgumentHelp("End rect x,y,w,h, or fullscreen (default).", valueName: "rect"))
    var to: String = "fullscreen"

    @Option(name: .long, help: ArgumentHelp("With --to fullscreen: portrait, landscape-left, landscape-right, upside-down, auto.", valueName: "o"))
    var orientation: String = "portrait"

    @Option(name: .long, help: ArgumentHelp("fill (default, as a zooming thumbnail) or fit.", valueName: "mode"))
    var mode: String = "fill"

    @Option(name: .long, help: ArgumentHelp("Number of frames (overrides --duration x --fps).", valueName: "n"))
    var frames: Int?

    @Option(name: .long, help: ArgumentHelp("Duration in seconds.", valueName: "s"))
    var duration: Double = 0.3

    @Option(name: .long, help: ArgumentHelp("Frames per second.", valueName: "f"))
    var fps: Double = 60

    @Option(name: .long, help: ArgumentHelp("linear, ease-in, ease-out, ease-in-out (default).", valueName: "curve"))
    var easing: String = "ease-in-out"

    @Flag(name: .long, help: "Play the transition backwards (zoom out).")
    var reverse = false

    @Flag(name: .long, help: "Turn while zooming instead of after.")
    var rotateWithZoom = false

    @Flag(name: .long, help: "The rotating-bounce recipe instead of the zoom transition.")
    var bounce = false

    @Option(name: .long, help: ArgumentHelp("Zoom range MIN,MAX in which pins keep their size exactly.", valueName: "min,max"))
    var pinScaleRange: String?

    @Option(name: .long, help: ArgumentHelp("Background colour (default black).", valueName: "color"))
    var background: ColorArgument = ColorArgument(.black)

    @Option(name: .shortAndLong, help: ArgumentHelp("PNG sequence pattern with %d or %0Nd (frame numbers from 1).", valueName: "pattern"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Write one animated PNG.", valueName: "path"))
    var apng: String?

    @Option(name: .long, help: ArgumentHelp("Write all frames in a grid.", valueName: "path"))
    var contactSheet: String?

    @Flag(name: .long, help: "Print each frame's geometry as JSON Lines.")
    var json = false

    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags

    static func rect(_ s: String) -> Rect? {
        let v = s.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0.trimmingCharacters) }
        guard v.count == 4, v.allSatisfy({ $0.isFinite }), v[2] > 0, v[3] > 0 else { return nil }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    var range: (Double, Double) {
        guard let pinScaleRange else { return (0, .infinity) }
        let v = pinScaleRange.split(separator: ",").compactMap { Double($0.trimmingCharacters) }
        return (v[0], v[1])
    }

    var frameCount: Int { frames ?? max(1, Int((duration * fps).rounded())) }

    func validate() throws {
        if screen.pixels.width <= 0 || screen.pixels.height <= 0 { throw ValidationError("--screen must be positive") }
        if Self.rect(from) == nil { throw ValidationError("--from takes x,y,w,h with w and h positive, got '\(from)'") }
        if to != "fullscreen" && Self.rect(to) == nil { throw ValidationError("--to takes x,y,w,h or fullscreen, got '\(to)'") }
        if orientation != "auto" && DeviceOrientation(rawValue: orientation) == nil {
            throw ValidationError("--orientation must be portrait, landscape-left, landscape-right, upside-down or auto")
        }
        if to != "fullscreen" && orientation != "portrait" { throw ValidationError("--orientation applies to --to fullscreen") }
        if FitGeometry.Mode(rawValue: mode) == nil { throw ValidationError("--mode must be fill or fit") }
        if Easing(rawValue: easing) == nil { throw ValidationError("--easing must be linear, ease-in, ease-out or ease-in-out") }
        if let frames, !(1...10_000).contains(frames) { throw ValidationError("--frames must be 1-10000") }
        if !(duration > 0) || !(fps > 0) { throw ValidationError("--duration and --fps must be positive") }
        if frameCount > 10_000 { throw ValidationError("that is \(frameCount) frames; at most 10000") }
        if let p = pinScaleRange {
            let v = p.split(separator: ",").compactMap { Double($0.trimmingCharacters) }
            if v.count != 2 || !(v[0] > 0) || !(v[1] >= v[0]) { throw ValidationError("--pin-scale-range takes MIN,MAX with 0 < MIN <= MAX") }
        }
        if output == nil && apng == nil && contactSheet == nil && !json {
            throw ValidationError("say what to write: -o 'frames/%03d.png', --apng FILE, --contact-sheet FILE or --json")
        }
        if let output, !output.contains("%") { throw ValidationError("-o takes a pattern with %d or %03d, got '\(output)'") }
        if screen.pixels.area * Int64(frameCount) > 4_000_000_000 { throw ValidationError("\(frameCount) frames of \(screen) are too many pixels") }
    }

    func run() throws {
        let reader: ImageReader
        do { reader = try ImageReader(path: input, options: decode.options) } catch { throw ToolFailure(error) }
        let markers = try pins.load()
        let image = reader.header.uprightSize
        let chosen = DeviceOrientation(rawValue: orientation) ?? FitGeometry.automatic(image: image, screen: screen.pixels)
        let n = frameCount
        let geometry: [ZoomAnimation.Frame]
        if bounce {
            geometry = ZoomAnimation.bounce(image: image, screen: screen.pixels, frameCount: n, fps: fps)
        } else {
            let animation = ZoomAnimation(image: image, screen: screen.pixels, from: Self.rect(from)!,
                                          to: to == "fullscreen" ? nil : Self.rect(to), orientation: chosen,
                                          mode: FitGeometry.Mode(rawValue: mode)!, easing: Easing(rawValue: easing)!,
                                          frameCount: n, duration: Double(n - 1) / fps, rotateWithZoom: rotateWithZoom,
                                          reverse: reverse)
            geometry = (0..<n).map { animation.frame($0) }
        }
        if output == nil && apng == nil && contactSheet == nil {
            printJSON(geometry)  // geometry only: no pixels to decode or render
            return
        }
        // Decode once, at the largest scale any frame shows (DCT-scaled for JPEGs).
        let largest = min(1, geometry.map(\.scale).max() ?? 1)
        let decodeSize = PixelSize(width: max(1, Int((Double(image.width) * largest).rounded(.up))),
                                   height: max(1, Int((Double(image.height) * largest).rounded(.up))))
        let source: Image
        do { source = try reader.readResampled(to: decodeSize, filter: .lanczos).0 } catch { throw ToolFailure(error) }
        for w in reader.warnings { Terminal.warning("\(reader.path): \(w)") }

        if let output {
            // The sequence's folder, made before any work (as thumb --out does).
            let dir = FileSystem.directory(of: output.formattingFrameNumber(1))
            do { try FileSystem.makeDirectories(dir) } catch { throw ToolFailure("\(dir): cannot create the output folder: \(error)") }
        }
        let firstScale = geometry.first?.scale ?? 1
        let (low, high) = range
        let cellWidth = min(240, screen.pixels.width)
        let settings = encode.png
        let screenSize = screen.pixels, bg = background.color, clip = !bounce
        let pattern = output, wantAPNG = apng != nil, wantSheet = contactSheet != nil, protect = [input]
        var payloads = [[UInt8]](repeating: [], count: n)
        var sheetFrames = [Image?](repeating: nil, count: n)
        var format = PixelFormat.rgb
        var failure: String?
        // Frames are independent: render (and encode) them on every core; results come
        // back on this thread, in whatever order they finish.
        WorkerPool<FrameOutput>.run(count: n, threads: Thumb.processorCount, work: { k in
            let f = geometry[k]
            let zoom = f.scale / firstScale
            let pinSize = zoom / min(max(zoom, low), high)
            let frame = AnimationRenderer.render(f, source: source, imageSize: image, screen: screenSize, background: bg,
                                                 clip: clip, markers: markers, pinScale: pinSize)
            var result = FrameOutput(format: frame.format)
            do {
                if let pattern {
                    try ImageWriter.write(frame, to: pattern.formattingFrameNumber(k + 1), encoding: .png(settings), protecting: protect)
                }
                if wantAPNG { result.payload = try APNGWriter.framePayload(frame, settings: settings) }
                if wantSheet {
                    // Only the sheet's small cell is kept, not the full frame.
                    result.cell = AnimationRenderer.cell(frame, width: cellWidth)
                }
            } catch {
                result.error = "\(error)"
            }
            return result
        }, onResult: { k, r in
            payloads[k] = r.payload
            sheetFrames[k] = r.cell
            format = r.format
            if failure == nil, let e = r.error { failure = e }
        }, onTick: { failure == nil })
        if let failure { throw ToolFailure(failure) }
        if let apng {
            var writer = APNGWriter(size: screenSize, format: format, fps: fps)
            for k in 0..<n { writer.add(payload: payloads[k]) }
            do { try ImageWriter.write(bytes: writer.bytes(), to: apng, protecting: [input]) } catch { throw ToolFailure(error) }
        }
        if let contactSheet {
            let sheet = AnimationRenderer.contactSheet(sheetFrames.compactMap { $0 }, background: bg)
            do { try ImageWriter.write(sheet, to: contactSheet, encoding: .png(settings), protecting: [input]) } catch { throw ToolFailure(error) }
        }
        if json { printJSON(geometry) }
    }

    /// One JSON line per frame: what a UI test compares its own animation against.
    func printJSON(_ geometry: [ZoomAnimation.Frame]) {
        do {
            for f in geometry {
                print(JSON.object([
                    ("frame", .int(f.index + 1)), ("time", .number(f.time)), ("progress", .number(f.progress)),
                    ("rect", f.view.rect.json), ("rotation", .number(f.view.rotation)), ("scale", .number(f.scale)),
                    ("transform", f.transform.json),
                ]))
            }
        }
    }
}

/// What one frame's worker hands back.
struct FrameOutput: Sendable {
    var format: PixelFormat
    var payload: [UInt8] = []
    var cell: Image?
    var error: String?
}

extension String {
    /// `frames/%03d.png` with 7 -> `frames/007.png`; also plain `%d`.
    func formattingFrameNumber(_ n: Int) -> String {
        guard let percent = firstIndex(of: "%") else { return self }
        var i = index(after: percent)
        var width = ""
        while i < endIndex, self[i].isNumber { width.append(self[i]); i = index(after: i) }
        guard i < endIndex, self[i] == "d" else { return self }
        var digits = String(n)
        if let w = Int(width), digits.count < w { digits = String(repeating: "0", count: w - digits.count) + digits }
        return String(self[..<percent]) + digits + String(self[index(after: i)...])
    }
}
