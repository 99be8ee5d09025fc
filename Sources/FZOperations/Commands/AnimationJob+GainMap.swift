import FZGainMap
import FZImage
import FZRender
import Geometry

extension AnimationJob.Scene {
    /// Frame `k`'s gain map: the map through the frame's transform (image to canvas, as the
    /// image is drawn), neutral outside the view when the frame clips to it. Pins and the
    /// overlay carry the gain of the image under them.
    func gainMap(_ k: Int, _ map: DecodedGainMap) -> CarriedGainMap {
        let f = frames[k]
        var carried = map.carried(imageToOutput: f.transform, output: screen, filter: .bilinear)
        guard clip else { return carried }
        let v = f.view
        let toLocal = AffineTransform.translation(-v.centerX, -v.centerY).then(.rotation(degrees: -v.rotation))
        let out = carried.image
        let mx = Double(out.width) / Double(screen.width)
        let my = Double(out.height) / Double(screen.height)
        let neutral = map.neutral.bytes(in: out.format)
        let c = out.format.channels
        for y in 0..<out.height {
            for x in 0..<out.width {
                let (lx, ly) = toLocal.apply(x: (Double(x) + 0.5) / mx, y: (Double(y) + 0.5) / my)
                guard abs(lx) > v.width / 2 || abs(ly) > v.height / 2 else { continue }
                let i = (y * out.width + x) * c
                for j in 0..<c { carried.image.pixels[i + j] = neutral[j] }
            }
        }
        return carried
    }
}
