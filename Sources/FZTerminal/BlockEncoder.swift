import FZImage

/// Unicode upper half blocks: each character cell shows two pixels, the top one as the
/// foreground colour of `▀` and the bottom one as its background, in 24-bit SGR
/// (`ESC[38;2;r;g;bm`, `ESC[48;2;...m`) or the nearest of xterm's 256 colours. A colour is
/// only sent when it changes; each line ends with `ESC[0m` and a newline. An odd last row
/// leaves the background at the terminal's default (`ESC[49m`).
public enum BlockEncoder {
    /// - Parameter image: RGB pixels (flatten alpha first).
    public static func encode(rgb image: Image, depth: ColorDepth) -> [UInt8] {
        precondition(image.format == .rgb, "BlockEncoder takes RGB")
        var out: [UInt8] = []
        out.reserveCapacity(image.width * (image.height + 1) / 2 * 24)
        let px = image.pixels
        func color(_ x: Int, _ y: Int) -> SIMD3<UInt8> {
            let i = (y * image.width + x) * 3
            return SIMD3(px[i], px[i + 1], px[i + 2])
        }
        func sgr(_ layer: Int, _ c: SIMD3<UInt8>) -> [UInt8] {
            switch depth {
            case .trueColor: return Array("\u{1B}[\(layer);2;\(c.x);\(c.y);\(c.z)m".utf8)
            case .palette256: return Array("\u{1B}[\(layer);5;\(xterm256(c))m".utf8)
            }
        }
        let block = Array("\u{2580}".utf8)
        var y = 0
        while y < image.height {
            // The last codes sent: colours that map to the same 256-colour index send nothing.
            var fg: [UInt8] = []
            var bg: [UInt8] = []
            var defaultBackground = false
            for x in 0..<image.width {
                let top = sgr(38, color(x, y))
                if fg != top {
                    out += top
                    fg = top
                }
                if y + 1 < image.height {
                    let bottom = sgr(48, color(x, y + 1))
                    if bg != bottom {
                        out += bottom
                        bg = bottom
                    }
                } else if !defaultBackground {
                    out += Array("\u{1B}[49m".utf8)
                    defaultBackground = true
                }
                out += block
            }
            out += Array("\u{1B}[0m\n".utf8)
            y += 2
        }
        return out
    }

    /// The xterm 256-colour index nearest `c`: the 6x6x6 cube (levels 0, 95, 135, ..., 255)
    /// or the 24 grays (8, 18, ..., 238), whichever is closer.
    public static func xterm256(_ c: SIMD3<UInt8>) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ v: UInt8) -> Int {
            var best = 0
            for i in 1..<6 where abs(levels[i] - Int(v)) < abs(levels[best] - Int(v)) { best = i }
            return best
        }
        let r = nearestLevel(c.x)
        let g = nearestLevel(c.y)
        let b = nearestLevel(c.z)
        let cube = SIMD3(levels[r], levels[g], levels[b])
        let mean = (Int(c.x) + Int(c.y) + Int(c.z)) / 3
        let grayIndex = max(0, min(23, (mean - 8 + 5) / 10))
        let gray = 8 + 10 * grayIndex
        func distance(_ a: SIMD3<Int>) -> Int {
            let d = a &- SIMD3(Int(c.x), Int(c.y), Int(c.z))
            return (d &* d).wrappedSum()
        }
        return distance(SIMD3(gray, gray, gray)) < distance(cube) ? 232 + grayIndex : 16 + 36 * r + 6 * g + b
    }
}
