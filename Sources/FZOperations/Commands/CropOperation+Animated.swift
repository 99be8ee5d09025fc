import FZCodecs
import FZFormat
import FZImage
import FZRender
import FZSystem
import FZThumbnails
import Geometry

/// `crop --animated` (issue 50): the peek of every frame of an animated GIF, WebP or APNG,
/// written as an animated WebP or APNG (the output name's extension chooses). The frames
/// stream as `thumb --animated`'s do: each is composited on the decoder's canvas, turned
/// upright, cut to every point's square (the still crop's window, zoom and filter), pinned,
/// and handed to that point's writer, which compresses it at once. Delays are the file's (10
/// ms or less shows as 100 ms, as browsers show it), the loop count is kept, and the limits
/// are `AnimatedFrames`'.
extension CropOperation {
    /// One frame's crops, as `runResolving` renders the still's.
    struct AnimatedPeeks {
        var geometries: [PeekGeometry]
        var rects: [PixelRect]
        var filter: ResampleFilter
        var background: Color
        var pins: PinLayer

        func render(_ canvas: Image, into writers: [AheadAnimationWriter], delay: Int) throws(OutputError) {
            for (i, g) in geometries.enumerated() {
                var peek = PeekRenderer.render(
                    g, source: canvas.cropped(to: rects[i]), sourceRect: rects[i], background: background,
                    filter: filter)
                pins.draw(on: &peek, transform: .translation(-g.window.x, -g.window.y).then(.scale(g.zoom, g.zoom)))
                try writers[i].add(peek, delay: delay)
            }
        }
    }

    /// Writes every point's animated crop of `reader`'s frames; false (nothing read) when the
    /// input is a still, which the still path crops.
    func runAnimated(
        _ reader: ImageReader, _ geometries: [PeekGeometry], rects: [PixelRect], markers: [Marker], _ report: Report
    ) throws -> Bool {
        guard reader.animationFrameCount > 1, let source = try reader.animation() else { return false }
        let header = reader.header
        let (carried, _) = settings.color.carried(header.color)
        if carried?.icc != nil {
            settings.warnings.once(
                "\(reader.path): an animated output carries no ICC profile: its frames keep the file's samples (--icc srgb converts them)"
            )
        }
        // One point's crop encodes on a thread of its own while the next frame is cut, as
        // thumb --animated does; several points encode in line (a thread each would outnumber
        // the cores).
        let writers = try geometries.indices.map { i throws(OutputError) in
            let side = PixelSize(width: geometries[i].side, height: geometries[i].side)
            return AheadAnimationWriter(
                try AnimationWriter(
                    format: target.format(i), size: side, loopCount: source.loopCount,
                    settings: target.choice.settings, path: target.path(i)),
                size: side, threads: geometries.count == 1 ? settings.decode.threads : 1)
        }
        let filter = PeekRenderer.defaultFilter(for: zoom)
        let peeks = AnimatedPeeks(
            geometries: geometries, rects: rects, filter: filter, background: background,
            pins: PinLayer(markers, color: PinRenderer.color))
        let summary = try AnimatedFrames.stream(source, reader, settings: settings) { frame, delay in
            try peeks.render(frame, into: writers, delay: delay)
        }
        for w in reader.warnings { settings.warnings.say("\(reader.path): \(w)") }
        for i in geometries.indices {
            let (bytes, frames) = try writers[i].finish()
            let written = try target.writeBytes(bytes, i, protecting: [input])
            if json {
                var animation = summary
                animation.frames = frames
                report.record(
                    record(geometries[i], header, i, path: reader.path, output: target.writtenPath(i), bytes: written)
                        .noting(animation: animation))
            }
        }
        return true
    }
}
