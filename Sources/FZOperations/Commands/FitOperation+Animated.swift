import FZCodecs
import FZFormat
import FZImage
import FZRender
import FZSystem
import FZThumbnails
import Geometry

/// `fit --animated` (issue 50): every frame of an animated GIF, WebP or APNG fitted (or
/// filled) into the screen as the still fit is (the visible window reduced to its shown size
/// with the fit's filter, letterboxed on the background, pins drawn, turned into the portrait
/// canvas) and written as an APNG or animated WebP, as `crop --animated` writes its frames:
/// they stream, delays and plays kept, the same frame, time and work limits.
extension FitOperation {
    /// Writes the animated fit of `reader`'s frames; false (nothing read) for a still.
    func runAnimated(
        _ reader: ImageReader, _ g: FitGeometry, markers: [Marker], placement: Placement?, _ report: Report
    ) throws -> Bool {
        guard reader.animationFrameCount > 1, let source = try reader.animation() else { return false }
        if settings.color.carried(reader.header.color).color?.icc != nil {
            settings.warnings.once(
                "\(reader.path): an animated output carries no ICC profile: its frames keep the file's samples (--icc srgb converts them)"
            )
        }
        // Encodes on a thread of its own while the next frame is fitted, as thumb --animated does.
        let writer = AheadAnimationWriter(
            try AnimationWriter(
                format: target.format(), size: g.screen, loopCount: source.loopCount, settings: target.choice.settings,
                path: target.path(0)),
            size: g.screen, threads: settings.decode.threads)
        let shown = FitRenderer.shownSize(g)
        let v = g.visibleImageRect
        let reducer = Resampler(
            source: g.image, output: shown, originX: v.x, originY: v.y, stepX: v.width / Double(shown.width),
            stepY: v.height / Double(shown.height), format: .rgba, filter: filter)
        let pins = PinLayer(markers, color: PinRenderer.color)
        let summary = try AnimatedFrames.stream(source, reader, settings: settings) { upright, delay in
            let canvas = FitRenderer.render(reducer.resample(upright), geometry: g, background: background, pins: pins)
            try writer.add(canvas, delay: delay)
        }
        for w in reader.warnings { settings.warnings.say("\(reader.path): \(w)") }
        let (bytes, frames) = try writer.finish()
        let written = try target.writeBytes(bytes, protecting: [input])
        if json {
            var animation = summary
            animation.frames = frames
            report.record(
                Self.record(
                    g, input: reader.path, output: target.writtenPath(0), bytes: written, where: placement?.record
                )
                .noting(animation: animation))
        }
        return true
    }
}
