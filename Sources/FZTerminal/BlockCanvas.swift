import FZImage

/// Redraws a block picture in place: compares two frames cell by cell (two pixels a cell)
/// and writes only the cells that changed, each run after a cursor move (`ESC [row;colH`),
/// so a move in `peek` costs the box and the peek, not the screen.
public enum BlockCanvas {
    /// The bytes that turn `previous` (nil: nothing on screen) into `current` at the
    /// screen's top left. Both RGB, the same size, an even height.
    public static func update(from previous: Image?, to current: Image, depth: ColorDepth) -> [UInt8] {
        precondition(current.format == .rgb && previous.map { $0.size == current.size } != false)
        var out: [UInt8] = []
        let w = current.width
        let px = current.pixels
        func pair(_ x: Int, _ row: Int) -> (SIMD3<UInt8>, SIMD3<UInt8>) {
            let top = (2 * row * w + x) * 3
            let bottom = ((2 * row + 1) * w + x) * 3
            return (SIMD3(px[top], px[top + 1], px[top + 2]), SIMD3(px[bottom], px[bottom + 1], px[bottom + 2]))
        }
        func same(_ x: Int, _ row: Int) -> Bool {
            guard let p = previous?.pixels else { return false }
            let top = (2 * row * w + x) * 3
            let bottom = ((2 * row + 1) * w + x) * 3
            return p[top..<(top + 3)] == px[top..<(top + 3)] && p[bottom..<(bottom + 3)] == px[bottom..<(bottom + 3)]
        }
        func sgr(_ layer: Int, _ c: SIMD3<UInt8>) -> [UInt8] {
            switch depth {
            case .trueColor: return Array("\u{1B}[\(layer);2;\(c.x);\(c.y);\(c.z)m".utf8)
            case .palette256: return Array("\u{1B}[\(layer);5;\(BlockEncoder.xterm256(c))m".utf8)
            }
        }
        let block = Array("\u{2580}".utf8)
        for row in 0..<(current.height / 2) {
            var x = 0
            var fg: [UInt8] = []
            var bg: [UInt8] = []
            while x < w {
                if same(x, row) {
                    x += 1
                    continue
                }
                out += Array("\u{1B}[\(row + 1);\(x + 1)H".utf8)
                while x < w && !same(x, row) {
                    let (top, bottom) = (sgr(38, pair(x, row).0), sgr(48, pair(x, row).1))
                    if fg != top {
                        out += top
                        fg = top
                    }
                    if bg != bottom {
                        out += bottom
                        bg = bottom
                    }
                    out += block
                    x += 1
                }
            }
        }
        if !out.isEmpty { out += Array("\u{1B}[0m".utf8) }
        return out
    }
}
