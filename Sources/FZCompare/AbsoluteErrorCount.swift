import FZImage

/// The number of differing pixels as ImageMagick 6's `compare -metric AE -fuzz F` counts
/// them (magick/compare.c, `GetAbsoluteDistortion`, with compare's default channels), so
/// its counts can be checked against `/usr/bin/compare`:
/// - samples on the 16-bit scale (an 8-bit v is v x 257), each colour multiplied by its
///   pixel's alpha (`Sa = alpha / 65535`; 1 without alpha);
/// - a pixel differs when any of R, G, B differs by at least the fuzz:
///   `(Sa R1 - Da R2)^2 >= max(fuzz, sqrt(1/2))^2`, so with no fuzz any difference counts;
/// - alpha is not compared on its own (compare's default channels leave opacity out): it
///   only weighs the colour, so two fully transparent pixels never differ, and neither do
///   two black ones whose alpha alone changed.
/// The arithmetic is ImageMagick's, in doubles, step for step (so the counts at the fuzz's
/// boundary agree). Where only the second image has alpha, ImageMagick ignores it (it reads
/// the first image's `matte` for both); here each pixel is weighed by its own alpha.
public enum AbsoluteErrorCount {
    /// ImageMagick's `MagickSQ1_2`: the smallest fuzz.
    static let smallestFuzz = 0.70710678118654752440084436210484903928483593768847

    /// Counts the differing pixels of `a` and `b` (same size and format, RGB or RGBA).
    /// - Parameters:
    ///   - fuzz: the distance on the 16-bit scale (`PixelFuzz.quantum16`).
    ///   - marks: when given, set to whether each pixel (row by row) differs.
    public static func count(_ a: Image, _ b: Image, fuzz: Double, marks: inout [Bool]?) -> Int {
        precondition(a.size == b.size && a.format == b.format, "compared images differ in size or format")
        precondition(a.format == .rgb || a.format == .rgba, "compare RGB or RGBA")
        let limit = max(fuzz, smallestFuzz)
        let squared = limit * limit
        let c = a.format.channels
        let alpha = a.format.hasAlpha
        let scale = 1.0 / 65535.0
        let opaque = scale * 65535.0
        let pixels = a.width * a.height
        var found: [Bool] = []
        if marks != nil { found = [Bool](repeating: false, count: pixels) }
        var total = 0
        // A hot loop over every pixel: pointers, no per-pixel allocation.
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for n in 0..<pixels {
                    let i = n * c
                    let sa = alpha ? scale * Double(Int(p[i + 3]) * 257) : opaque
                    let da = alpha ? scale * Double(Int(q[i + 3]) * 257) : opaque
                    var differs = false
                    for k in 0..<3 {
                        let d = sa * Double(Int(p[i + k]) * 257) - da * Double(Int(q[i + k]) * 257)
                        if d * d >= squared { differs = true }
                    }
                    if differs {
                        total += 1
                        if !found.isEmpty { found[n] = true }
                    }
                }
            }
        }
        if marks != nil { marks = found }
        return total
    }
}
