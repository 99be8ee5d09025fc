import FZGainMap
import FZImage
import FZSystem
import Geometry

/// Resamples a gain map with an output's geometry, so every output map pixel takes its gain
/// from the same source point as the colour there.
///
/// Every command states its output as an affine map from upright image coordinates to output
/// pixels (`imageToOutput`: a crop's window and zoom, a fit's scale and letterbox offset, a
/// transform's affine, a thumbnail's scale). The map's own grid is the image's scaled by the
/// map's scale, and the output map's grid the output's scaled by its own (`outputMap` over
/// `output`, rounded to whole pixels), so the map's transform is those three composed. An
/// axis-aligned transform (every crop, fit before its quarter turn, thumbnail) runs through
/// `Resampler` (separable, reductions filtered over their whole footprint); any other (a
/// rotation) through `AffineRenderer`, reduced first by `prefilterScale` as `transform` does.
/// Output map pixels whose centre falls outside the image carry `neutral` (no gain).
///
/// Pin: the kernel is the command's, but nearest (a whole zoom's crisp pixels) becomes
/// bilinear: the map's grid is not the output's, and nearest would make a 4x-smaller map's
/// gain jump by a whole map pixel at an arbitrary output pixel.
public enum GainMapRenderer {
    /// - Parameters:
    ///   - map: the gain map, upright, gray or RGB.
    ///   - scale: map pixels per image pixel along x and y.
    ///   - imageToOutput: upright image coordinates to output pixels.
    ///   - output: the output's size in pixels.
    ///   - outputMap: the output map's size.
    ///   - neutral: the sample meaning no gain.
    ///   - filter: the command's kernel.
    /// - Returns: the output map, `outputMap` in size, in `map`'s format.
    public static func render(
        _ map: Image, scale: (x: Double, y: Double), imageToOutput: AffineTransform, output: PixelSize,
        outputMap: PixelSize, neutral: Color, filter: ResampleFilter
    ) -> Image {
        let kernel: ResampleFilter = filter == .nearest ? .bilinear : filter
        let mx = Double(outputMap.width) / Double(max(1, output.width))
        let my = Double(outputMap.height) / Double(max(1, output.height))
        let t = AffineTransform.scale(1 / scale.x, 1 / scale.y).then(imageToOutput).then(.scale(mx, my))
        if t.b == 0 && t.c == 0 && t.a > 0 && t.d > 0 {
            return axisAligned(map, t, outputMap, neutral, kernel)
        }
        var source = map
        var warp = t
        let f = AffineRenderer.prefilterScale(for: t)
        if f < 1 {
            let reduced = PixelSize(
                width: max(1, Int((Double(map.width) * f).rounded())),
                height: max(1, Int((Double(map.height) * f).rounded())))
            source = Resampler(source: map.size, output: reduced, format: map.format, filter: kernel).resample(map)
            warp = AffineTransform.scale(
                Double(map.width) / Double(reduced.width), Double(map.height) / Double(reduced.height)
            )
            .then(t)
        }
        let out = AffineRenderer.render(
            source, transform: warp, canvas: outputMap, background: neutral, filter: kernel, threads: 1)
        return out.converted(to: map.format)
    }

    /// `t` has no rotation: output map pixel o shows map coordinate (o + 0.5 - t.tx) / t.a.
    private static func axisAligned(
        _ map: Image, _ t: AffineTransform, _ size: PixelSize, _ neutral: Color, _ filter: ResampleFilter
    ) -> Image {
        let resampler = Resampler(
            source: map.size, output: size, originX: -t.tx / t.a, originY: -t.ty / t.d, stepX: 1 / t.a,
            stepY: 1 / t.d, format: map.format, filter: filter)
        var out = resampler.resample(map)
        // Output pixels whose centre falls outside the image carry no gain.
        let c = map.format.channels
        let bg = neutral.bytes(in: map.format)
        for oy in 0..<size.height {
            let y = (Double(oy) + 0.5 - t.ty) / t.d
            let rowOutside = y < 0 || y >= Double(map.height)
            for ox in 0..<size.width {
                let x = (Double(ox) + 0.5 - t.tx) / t.a
                guard rowOutside || x < 0 || x >= Double(map.width) else { continue }
                let i = (oy * size.width + ox) * c
                for k in 0..<c { out.pixels[i + k] = bg[k] }
            }
        }
        return out
    }
}

extension DecodedGainMap {
    /// This map at an output's geometry (`GainMapRenderer.render`), ready for the writer.
    public func carried(imageToOutput: AffineTransform, output: PixelSize, filter: ResampleFilter)
        -> CarriedGainMap
    {
        let map = GainMapRenderer.render(
            image, scale: (scaleX, scaleY), imageToOutput: imageToOutput, output: output,
            outputMap: outputSize(for: output), neutral: neutral, filter: filter)
        guard let r = rendering else {
            var carried = CarriedGainMap(image: map, parameters: parameters)
            carried.drops = drops
            return carried
        }
        let parameters = parameters
        return CarriedGainMap(image: map, parameters: parameters) { sdr, color throws(OutputError) in
            do {
                return try GainMapRendition.render(
                    sdr, color: color ?? ColorDescription(), map: map, parameters: parameters, headroom: r.headroom,
                    budget: r.budget, path: r.path)
            } catch {
                throw .writeFailed(path: r.path, reason: "--gain-map apply: \(error)")
            }
        }
    }
}
