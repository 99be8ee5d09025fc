import FZImage
import Geometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Points of interest from pixels, on a reduced decode (at most `side` pixels a side, as
/// vips' smartcrop works on a ~32 px image): where `--at attention` and `--at entropy` look.
///
/// Attention is a centre-surround saliency in the manner of Itti and Koch, with vips' and
/// smartcrop.js's cues: luminance, two colour opponents (red-green, blue-yellow), edge
/// density (the Laplacian of luminance) and saturation, each taken as the difference between
/// a fine and a coarse blur, so a texture that is busy everywhere cancels out and what
/// differs from its surroundings stands out; plus skin tones (smartcrop.js's skin colour)
/// as they are. Each cue is scaled to 0...1 and weighted by (1 - its mean)^2, so a cue with
/// one strong peak counts more than one that is high everywhere; the sum is blurred. A crop
/// box then goes where the sum inside it is largest; a point is the map's maximum.
///
/// Entropy is the Shannon entropy of the luminance (16 levels) inside the box, as vips'
/// `entropy` crop.
public struct InterestMap: Sendable {
    public enum Kind: String, Sendable { case attention, entropy }

    /// The longest side of the reduced decode the map is made from.
    public static let side = 64

    public let kind: Kind
    public let width: Int
    public let height: Int
    /// Per map pixel: the saliency (attention), or the luminance level 0...15 (entropy).
    public let values: [Float]

    /// The reduced size of an upright image: its longest side `side`, at least 1 pixel.
    public static func reducedSize(of upright: PixelSize) -> PixelSize {
        let s = Double(side) / Double(max(upright.width, upright.height))
        guard s < 1 else { return upright }
        return PixelSize(
            width: max(1, Int((Double(upright.width) * s).rounded())),
            height: max(1, Int((Double(upright.height) * s).rounded())))
    }

    public init(_ kind: Kind, of image: Image) {
        self.kind = kind
        width = image.width
        height = image.height
        let (r, g, b) = Self.channels(image)
        switch kind {
        case .attention: values = Self.attention(r, g, b, width: image.width, height: image.height)
        case .entropy:
            values = zip(zip(r, g), b).map { rgb, b in
                Float(min(15, Int(((0.2126 * rgb.0 + 0.7152 * rgb.1 + 0.0722 * b) * 16))))
            }
        }
    }

    /// The image's colours as three planes of 0...1 (gray repeated; alpha left aside).
    static func channels(_ image: Image) -> ([Float], [Float], [Float]) {
        let n = image.width * image.height
        let c = image.format.channels
        var r = [Float](repeating: 0, count: n)
        var g = r
        var b = r
        image.pixels.withUnsafeBufferPointer { p in
            for i in 0..<n {
                let o = i * c
                if image.format.isGray {
                    let v = Float(p[o]) / 255
                    (r[i], g[i], b[i]) = (v, v, v)
                } else {
                    (r[i], g[i], b[i]) = (Float(p[o]) / 255, Float(p[o + 1]) / 255, Float(p[o + 2]) / 255)
                }
            }
        }
        return (r, g, b)
    }

    /// Length: the cues, one after another, each a few lines; split they would pass six planes around.
    static func attention(_ r: [Float], _ g: [Float], _ b: [Float], width w: Int, height h: Int) -> [Float] {
        let n = w * h
        var lum = [Float](repeating: 0, count: n)
        var rg = lum
        var by = lum
        var sat = lum
        var skin = lum
        for i in 0..<n {
            let (R, G, B) = (r[i], g[i], b[i])
            let l = 0.2126 * R + 0.7152 * G + 0.0722 * B
            lum[i] = l
            rg[i] = R - G
            by[i] = B - (R + G) / 2
            let mx = max(R, G, B)
            let mn = min(R, G, B)
            sat[i] = mx > 0 ? (mx - mn) / mx : 0
            // smartcrop.js: the distance of the normalised colour from a skin tone, within a brightness range.
            let mag = (R * R + G * G + B * B).squareRoot()
            if mag > 0 && l >= 0.2 && l <= 0.95 {
                let d =
                    ((R / mag - 0.78) * (R / mag - 0.78) + (G / mag - 0.57) * (G / mag - 0.57)
                    + (B / mag - 0.44) * (B / mag - 0.44)).squareRoot()
                skin[i] = max(0, (1 - d) - 0.8) / 0.2
            }
        }
        var edges = lum
        for y in 0..<h {
            for x in 0..<w {
                let c = lum[y * w + x]
                let around =
                    lum[y * w + max(0, x - 1)] + lum[y * w + min(w - 1, x + 1)] + lum[max(0, y - 1) * w + x]
                    + lum[min(h - 1, y + 1) * w + x]
                edges[y * w + x] = abs(4 * c - around)
            }
        }
        let coarse = Float(max(w, h)) / 8
        func contrast(_ f: [Float], fine: Float) -> [Float] {
            let c = Blur.gaussian(f, width: w, height: h, sigma: fine)
            let s = Blur.gaussian(f, width: w, height: h, sigma: coarse)
            return zip(c, s).map { abs($0 - $1) }
        }
        let cues: [([Float], Float)] = [
            (contrast(lum, fine: 1), 1), (contrast(rg, fine: 1), 1), (contrast(by, fine: 1), 1),
            (contrast(edges, fine: 1.5), 1.5), (contrast(sat, fine: 1), 0.5),
            (Blur.gaussian(skin, width: w, height: h, sigma: 1), 1),
        ]
        var total = [Float](repeating: 0, count: n)
        for (cue, weight) in cues {
            let normalized = Self.normalized(cue)
            for i in 0..<n { total[i] += weight * normalized[i] }
        }
        return Blur.gaussian(total, width: w, height: h, sigma: 1.5)
    }

    /// A cue scaled to 0...1 and weighted by how much it stands out: (1 - mean)^2.
    static func normalized(_ f: [Float]) -> [Float] {
        guard let mx = f.max(), mx > 1e-6 else { return [Float](repeating: 0, count: f.count) }
        let scaled = f.map { $0 / mx }
        let mean = scaled.reduce(0, +) / Float(max(1, scaled.count))
        let weight = (1 - mean) * (1 - mean)
        return scaled.map { $0 * weight }
    }

    /// The map's largest value (attention), or the most any box holds (entropy).
    public var maximum: Double { Double(values.max() ?? 0) }
}

/// A separable Gaussian blur of one plane, edges clamped.
enum Blur {
    /// Each output is the sum over the taps from left to right (top to bottom), starting
    /// from 0, whatever the loop order: the rows' middles and the vertical pass run tap by
    /// tap over a whole row at once (they vectorise), the same sums as one pixel at a time.
    static func gaussian(_ f: [Float], width w: Int, height h: Int, sigma: Float) -> [Float] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { exp(-Float($0 * $0) / (2 * sigma * sigma)) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        var tmp = [Float](repeating: 0, count: f.count)
        var out = tmp
        f.withUnsafeBufferPointer { src in
            tmp.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h { horizontal(src.baseAddress! + y * w, dst.baseAddress! + y * w, w, kernel, radius) }
            }
        }
        tmp.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let o = dst.baseAddress! + y * w
                    for k in -radius...radius {
                        let row = src.baseAddress! + min(h - 1, max(0, y + k)) * w
                        let c = kernel[k + radius]
                        for x in 0..<w { o[x] += c * row[x] }
                    }
                }
            }
        }
        return out
    }

    /// One row, its ends clamped: read from a copy padded with the edge values, so every
    /// pixel (most of a 64-pixel map's, under a 49-tap kernel) takes the vectorised loop.
    /// `o` starts at 0.
    private static func horizontal(
        _ row: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>, _ w: Int, _ kernel: [Float], _ radius: Int
    ) {
        var padded = [Float](repeating: row[0], count: w + 2 * radius)
        for x in 0..<w { padded[radius + x] = row[x] }
        for x in (radius + w)..<(w + 2 * radius) { padded[x] = row[w - 1] }
        padded.withUnsafeBufferPointer { p in
            for k in -radius...radius {
                let c = kernel[k + radius]
                let r = p.baseAddress! + radius + k
                for x in 0..<w { o[x] += c * r[x] }
            }
        }
    }
}
