import FZCodecs
import FZFormat
import FZGainMap
import FZImage
import FZMetadata
import FZPNG
import FZRender
import FZSystem
import Geometry

extension AnimationJob {
    /// Everything a worker needs to draw frame k: values only, shared by every thread.
    package struct Scene: Sendable {
        var frames: [ZoomAnimation.Frame]
        var source: Image
        var imageSize: PixelSize
        var screen: PixelSize
        var background: Color
        var clip: Bool
        var markers: [Marker]
        var pinSizes: [Double]
        var pinColor: Color
        /// The frames at rest in a fullscreen fit, by orientation (`fit`'s own output).
        var fitted: [DeviceOrientation: Image]
        var overlay: Overlay?
        /// One pixel format for every frame (an APNG has one), whichever path drew it.
        var format: PixelFormat

        func render(_ k: Int) -> Image {
            let f = frames[k]
            var frame = AnimationRenderer.render(
                f, source: source, imageSize: imageSize, screen: screen, background: background,
                clip: clip, markers: markers, pinScale: pinSizes[k], pinColor: pinColor,
                base: f.fit.flatMap { fitted[$0.orientation] }, overlay: overlay)
            if frame.format != format { frame = frame.converted(to: format) }
            return frame
        }
    }

    /// What one frame's worker hands back.
    package struct FrameOutput: Sendable {
        var format: PixelFormat
        var payload: [UInt8] = []
        var cell: Image?
        var error: String?
    }

    /// Renders the frames on every core and writes them as they come back: each frame's
    /// file by its worker, the APNG in order, the contact sheet at the end.
    package func write(
        _ scene: Scene, color: ColorDescription?, metadata: CarriedMetadata? = nil, gainMap: DecodedGainMap? = nil
    ) throws {
        let n = scene.frames.count
        let cellWidth = AnimationRenderer.cellSize(screen: screen).width
        let png = settings.png
        let choice = settings.choice
        let paths = framePaths
        let wantAPNG = apng != nil
        let wantSheet = contactSheet != nil || showSheet != nil
        let protect = [input]
        let screen = screen
        var sheetFrames = [Image?](repeating: nil, count: n)
        var failure: String?
        // The APNG is written as frames arrive, in order: only frames that finished before
        // an earlier one wait here (at most about one per thread), never the whole animation.
        var stream: APNGStream?
        if let apng {
            let rate = n > 1 ? Double(n - 1) / (scene.frames.last?.time ?? 1) : fps
            stream = try APNGStream(
                path: apng, protecting: [input], size: screen, format: scene.format, fps: rate, frameCount: n,
                color: color)
        }
        var waiting: [Int: [UInt8]] = [:]
        var nextFrame = 0
        // Frames are independent: render (and encode) them on every core; results come
        // back on this thread, in whatever order they finish.
        WorkerPool<FrameOutput>.run(
            count: n, threads: threads,
            work: { k in
                let frame = scene.render(k)
                var result = FrameOutput(format: frame.format)
                do {
                    if !paths.isEmpty {
                        try ImageWriter.write(
                            frame, to: paths[k], encoding: choice.encoding(for: paths[k]), protecting: protect,
                            color: color, background: choice.background,
                            metadata: metadata?.placed(scene.frames[k].transform, output: screen),
                            gainMap: gainMap.map { scene.gainMap(k, $0) })
                    }
                    if wantAPNG { result.payload = try APNGWriter.framePayload(frame, settings: png) }
                    // Only the sheet's small cell is kept, not the full frame.
                    if wantSheet { result.cell = AnimationRenderer.cell(frame, width: cellWidth) }
                } catch {
                    result.error = "\(error)"
                }
                return result
            },
            onResult: { k, r in
                sheetFrames[k] = r.cell
                if failure == nil, let e = r.error { failure = e }
                guard let stream, failure == nil else { return }
                waiting[k] = r.payload
                while let payload = waiting.removeValue(forKey: nextFrame) {
                    do { try stream.add(payload: payload) } catch {
                        failure = "\(error)"
                        return
                    }
                    nextFrame += 1
                }
            }, onTick: { failure == nil })
        if let failure {
            stream?.discard()
            throw ToolFailure(failure)
        }
        try stream?.finish()
        if wantSheet {
            let sheet = AnimationRenderer.contactSheet(sheetFrames.compactMap { $0 }, background: scene.background)
            if let contactSheet {
                try ImageWriter.write(
                    sheet, to: contactSheet, encoding: settings.encoding(forRendered: contactSheet),
                    protecting: [input],
                    color: color, background: settings.background)
            }
            try showSheet?(sheet)
        }
    }
}
