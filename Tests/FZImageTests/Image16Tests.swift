import Testing

@testable import FZImage
@testable import Geometry

/// `Image16.oriented` (the grid tiles' 16-bit turns) moves whole 6- and 8-byte pixels to where
/// `Orientation.storedPixel` says, for all eight orientations.
struct Image16Tests {
    @Test(arguments: [PixelFormat.rgb, .rgba])
    func orientedMovesEveryPixel(_ format: PixelFormat) {
        let n = format.channels * 2
        let (w, h) = (5, 3)
        let bytes = (0..<(w * h * n)).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 256) }
        let image = Image16(width: w, height: h, format: format, bytes: bytes)
        for o in (1...8).compactMap(Orientation.init(rawValue:)) {
            let out = image.oriented(o)
            let up = o.uprightSize(ofStored: image.size)
            #expect(out.size == up)
            for y in 0..<up.height {
                for x in 0..<up.width {
                    let s = o.storedPixel(forUpright: PixelPoint(x: x, y: y), stored: image.size)
                    let want = bytes[((s.y * w + s.x) * n)..<((s.y * w + s.x + 1) * n)]
                    #expect(
                        out.bytes[((y * up.width + x) * n)..<((y * up.width + x + 1) * n)] == want, "\(o) \(x),\(y)")
                }
            }
        }
    }
}
