import FZImage

/// DEC sixel: `ESC P 0;1 q`, the raster size, the colour registers, then the image in bands
/// of six rows, each band a pass per colour it uses (`#n` and one character a column, six
/// bits of "this pixel has colour n", run-length coded as `!count char`), `$` between passes
/// and `-` between bands, ended by `ESC \`. Colour registers are RGB percentages (`#n;2;r;g;b`,
/// 0-100), the only precision the format has: 255 is written as 100, so white stays white
/// (img2sixel 1.10 writes 97, which comes back as 247).
public enum SixelEncoder {
    /// The percentage of an 8-bit sample, rounded: 0 -> 0, 255 -> 100.
    public static func percent(_ v: UInt8) -> Int { (Int(v) * 100 + 127) / 255 }

    /// - Parameter image: RGB pixels (flatten alpha first).
    public static func encode(rgb image: Image) -> [UInt8] {
        let q = PaletteQuantizer(rgb: image)
        return encode(q, width: image.width, height: image.height)
    }

    package static func encode(_ q: PaletteQuantizer, width: Int, height: Int) -> [UInt8] {
        var out = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        for (i, c) in q.palette.enumerated() {
            out += Array("#\(i);2;\(percent(c.x));\(percent(c.y));\(percent(c.z))".utf8)
        }
        // Per band: the six bits of each colour it uses, one byte a column.
        var bits = [UInt8](repeating: 0, count: width * q.palette.count)
        var slotOf = [Int](repeating: -1, count: q.palette.count)
        var used: [Int] = []
        var y = 0
        while y < height {
            let rows = min(6, height - y)
            used.removeAll(keepingCapacity: true)
            for r in 0..<rows {
                let base = (y + r) * width
                for x in 0..<width {
                    let c = Int(q.indices[base + x])
                    if slotOf[c] < 0 {
                        slotOf[c] = used.count
                        used.append(c)
                    }
                    bits[slotOf[c] * width + x] |= UInt8(1 << r)
                }
            }
            for (slot, c) in used.enumerated() {
                if slot > 0 { out.append(UInt8(ascii: "$")) }
                out += Array("#\(c)".utf8)
                let row = slot * width
                var last = width - 1
                while last > 0 && bits[row + last] == 0 { last -= 1 }
                var x = 0
                while x <= last {
                    let v = bits[row + x]
                    var run = 1
                    while x + run <= last && bits[row + x + run] == v { run += 1 }
                    let ch = 63 + v
                    if run > 3 {
                        out += Array("!\(run)".utf8)
                        out.append(ch)
                    } else {
                        for _ in 0..<run { out.append(ch) }
                    }
                    x += run
                }
                for i in row..<(row + width) { bits[i] = 0 }
                slotOf[c] = -1
            }
            y += 6
            if y < height { out.append(UInt8(ascii: "-")) }
        }
        out += Array("\u{1B}\\".utf8)
        return out
    }
}
