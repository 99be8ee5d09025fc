import FZImage
import Geometry

/// Renders frames of a `ZoomAnimation`: the image through each frame's transform, clipped
/// to the (turned) view with an anti-aliased edge, on the background, with pins.
public enum AnimationRenderer {
    /// - Parameters:
    ///   - frame: the frame's geometry.
    ///   - source: the decoded image (any resolution; `sourceScale` source pixels per image pixel).
    ///   - screen: canvas size.
    ///   - background: what shows outside the view.
    ///   - clip: clip to the view's bounds (the zoom transition) or not (bounce).
    ///   - markers: pins at image points, drawn as subviews of the view (see `drawPins`).
    ///   - pinScale: how big pins are drawn (1 = standard size in canvas pixels).
    ///   - pinColor: the pins' body colour, in the output's colour space.
    ///   - base: the frame's image already rendered (a frame at rest in a `fit` is `fit`'s
    ///     own output), or nil to render it from `source`.
    ///   - overlay: a supplementary view composited on top, unzoomed.
    public static func render(
        _ frame: ZoomAnimation.Frame, source: Image, imageSize: PixelSize, screen: PixelSize,
        background: Color, clip: Bool, markers: [Marker], pinScale: Double, pinColor: Color = PinRenderer.color,
        base: Image? = nil, overlay: Overlay? = nil
    ) -> Image {
        var canvas: Image
        if let base {
            canvas = base
        } else {
            // Source pixels -> image pixels -> canvas.
            let toImage = AffineTransform.scale(
                Double(imageSize.width) / Double(source.width), Double(imageSize.height) / Double(source.height))
            let full = toImage.then(frame.transform)
            if !source.format.hasAlpha && background.isOpaque, let inverse = full.inverted {
                canvas = renderOpaque(
                    source, inverse: inverse, view: clip ? frame.view : nil, screen: screen, background: background)
            } else {
                canvas = AffineRenderer.render(
                    source, transform: full, canvas: screen, background: background, filter: .bilinear)
                if clip { applyClip(&canvas, view: frame.view, background: background) }
            }
        }
        drawPins(markers, on: &canvas, frame: frame, size: pinScale, clip: clip, color: pinColor)
        overlay?.composite(on: &canvas, presented: frame.presented)
        return canvas
    }

    /// The hot path for opaque frames: one pass per pixel with the source position and the
    /// view-local position both stepped incrementally along the row, bilinear sampling
    /// straight from the bytes, and the view's clip as a one-pixel anti-aliased edge.
    package static func renderOpaque(
        _ src: Image, inverse: AffineTransform, view: ZoomAnimation.ViewState?, screen: PixelSize,
        background: Color
    ) -> Image {
        let format = src.format.union(background.minimalFormat)
        let source = src.converted(to: format)
        let pass = OpaquePass(
            inverse: inverse, view: view, screen: screen, channels: format.channels,
            source: PixelSize(width: source.width, height: source.height),
            background: background.bytes(in: format).map { Float($0) })
        var out = [UInt8](repeating: 0, count: screen.width * screen.height * format.channels)
        source.pixels.withUnsafeBufferPointer { sp in
            out.withUnsafeMutableBufferPointer { op in pass.run(from: sp.baseAddress!, into: op.baseAddress!) }
        }
        return Image(width: screen.width, height: screen.height, format: format, pixels: out)
    }

    /// What `renderOpaque`'s per-pixel pass reads: the inverse map (canvas to source pixels),
    /// the view's local frame and half sizes (with the half pixel of the anti-aliased edge),
    /// the sizes, and the background as floats.
    private struct OpaquePass {
        let inverse: AffineTransform
        /// Canvas to view-local coordinates; nil: no clip.
        let toLocal: AffineTransform?
        let clips: Bool
        let halfW: Double
        let halfH: Double
        let screen: PixelSize
        let c: Int
        let sw: Int
        let sh: Int
        let bg: [Float]

        init(
            inverse: AffineTransform, view: ZoomAnimation.ViewState?, screen: PixelSize, channels: Int,
            source: PixelSize, background: [Float]
        ) {
            self.inverse = inverse
            toLocal = view.map {
                AffineTransform.translation(-$0.centerX, -$0.centerY).then(.rotation(degrees: -$0.rotation))
            }
            clips = view != nil
            halfW = (view?.width ?? 0) / 2 + 0.5
            halfH = (view?.height ?? 0) / 2 + 0.5
            self.screen = screen
            c = channels
            sw = source.width
            sh = source.height
            bg = background
        }

        /// Fills the canvas `o` from the source bytes `s`.
        ///
        /// One function on purpose: this is a named hot loop (every pixel of every opaque
        /// animation frame). The source and view-local positions are stepped along the row,
        /// and the clip, the bilinear taps and the edge case share them; split into calls per
        /// pixel, the steps would be recomputed or passed around for each one.
        func run(from s: UnsafePointer<UInt8>, into o: UnsafeMutablePointer<UInt8>) {
            var px = [Float](repeating: 0, count: 4)
            for y in 0..<screen.height {
                let cy = Double(y) + 0.5
                var u = inverse.a * 0.5 + inverse.c * cy + inverse.tx
                var v = inverse.b * 0.5 + inverse.d * cy + inverse.ty
                var lx = 0.0
                var ly = 0.0
                if let t = toLocal { (lx, ly) = t.apply(x: 0.5, y: cy) }
                var d = y * screen.width * c
                for _ in 0..<screen.width {
                    defer {
                        u += inverse.a
                        v += inverse.b
                        if let t = toLocal {
                            lx += t.a
                            ly += t.b
                        }
                        d += c
                    }
                    var k: Float = 1
                    if clips {
                        let kx = min(1, max(0, halfW - abs(lx)))
                        let ky = min(1, max(0, halfH - abs(ly)))
                        k = Float(kx * ky)
                        if k <= 0 {
                            for j in 0..<c { o[d + j] = UInt8(bg[j]) }
                            continue
                        }
                    }
                    let fu = u - 0.5
                    let fv = v - 0.5
                    let x0 = Int(fu.rounded(.down))
                    let y0 = Int(fv.rounded(.down))
                    if x0 < -1 || y0 < -1 || x0 >= sw || y0 >= sh {
                        for j in 0..<c { o[d + j] = UInt8(bg[j]) }
                        continue
                    }
                    let fx = Float(fu - Double(x0))
                    let fy = Float(fv - Double(y0))
                    let w00 = (1 - fx) * (1 - fy)
                    let w10 = fx * (1 - fy)
                    let w01 = (1 - fx) * fy
                    let w11 = fx * fy
                    if x0 >= 0 && y0 >= 0 && x0 + 1 < sw && y0 + 1 < sh {
                        let p00 = s + (y0 * sw + x0) * c
                        let p01 = p00 + sw * c
                        for j in 0..<c {
                            px[j] =
                                w00 * Float(p00[j]) + w10 * Float(p00[c + j]) + w01 * Float(p01[j]) + w11
                                * Float(p01[c + j])
                        }
                    } else {
                        // At the image's edge: taps outside read the background.
                        for j in 0..<c { px[j] = 0 }
                        for (dx, dy, w) in [(0, 0, w00), (1, 0, w10), (0, 1, w01), (1, 1, w11)] {
                            let xx = x0 + dx
                            let yy = y0 + dy
                            if xx >= 0 && yy >= 0 && xx < sw && yy < sh {
                                let p = s + (yy * sw + xx) * c
                                for j in 0..<c { px[j] += w * Float(p[j]) }
                            } else {
                                for j in 0..<c { px[j] += w * bg[j] }
                            }
                        }
                    }
                    for j in 0..<c { o[d + j] = Resampler.clampByte(px[j] * k + bg[j] * (1 - k)) }
                }
            }
        }
    }

    /// Clips a rendered frame to the view (the general path, for alpha).
    package static func applyClip(_ canvas: inout Image, view v: ZoomAnimation.ViewState, background: Color) {
        let toLocal = AffineTransform.translation(-v.centerX, -v.centerY).then(.rotation(degrees: -v.rotation))
        let bg = background.bytes(in: canvas.format)
        let c = canvas.format.channels
        let w = canvas.width
        let h = canvas.height
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            for y in 0..<h {
                for x in 0..<w {
                    let l = toLocal.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let k = min(1, max(0, v.width / 2 - abs(l.x) + 0.5)) * min(1, max(0, v.height / 2 - abs(l.y) + 0.5))
                    if k >= 1 { continue }
                    let i = (y * w + x) * c
                    for j in 0..<c { px[i + j] = UInt8((Double(px[i + j]) * k + Double(bg[j]) * (1 - k)).rounded()) }
                }
            }
        }
    }

    /// The width of a contact sheet's cells: 240 pixels, or the screen's width if smaller.
    public static let cellWidth = 240

    /// A cell's size for frames of `screen`.
    public static func cellSize(screen: PixelSize) -> PixelSize {
        let width = min(cellWidth, screen.width)
        return PixelSize(
            width: width, height: max(1, Int((Double(screen.height) * Double(width) / Double(screen.width)).rounded())))
    }

    /// A frame reduced for the contact sheet.
    public static func cell(_ frame: Image, width: Int) -> Image {
        let height = max(1, Int((Double(frame.height) * Double(width) / Double(frame.width)).rounded()))
        return Resampler(
            source: frame.size, output: PixelSize(width: width, height: height), format: frame.format,
            filter: .lanczos
        ).resample(frame)
    }

    package static let sheetGap = 8, sheetLabel = 12

    /// The sheet's size for `count` cells of `cell` (what `contactSheet` allocates).
    public static func contactSheetSize(cell: PixelSize, count: Int) -> PixelSize {
        let columns = max(1, Int(Double(count).squareRoot().rounded(.up)))
        let rows = (count + columns - 1) / columns
        return PixelSize(
            width: columns * (cell.width + sheetGap) + sheetGap,
            height: rows * (cell.height + sheetGap + sheetLabel) + sheetGap)
    }

    /// A grid of (already reduced) frames, numbered from 1.
    public static func contactSheet(_ cells: [Image], background: Color) -> Image {
        guard let first = cells.first else { return Image(width: 1, height: 1, format: .rgb) }
        let columns = Int(Double(cells.count).squareRoot().rounded(.up))
        let gap = sheetGap
        let label = sheetLabel
        let size = contactSheetSize(cell: first.size, count: cells.count)
        let format = first.format.union(background.minimalFormat).withColor
        var sheet = Image(width: size.width, height: size.height, format: format, fill: Color(r: 48, g: 48, b: 48))
        for (k, small) in cells.enumerated() {
            let x = gap + (k % columns) * (first.width + gap)
            let y = gap + (k / columns) * (first.height + gap + label)
            sheet.blend(small, at: PixelPoint(x: x, y: y + label))
            sheet.draw("\(k + 1)", x: x, y: y + 2, scale: 1, color: .white)
        }
        return sheet
    }
}
