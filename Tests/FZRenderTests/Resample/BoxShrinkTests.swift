import Testing

@testable import FZImage
@testable import FZRender
@testable import Geometry

/// Box averaging of whole blocks: exact averages, partial edge blocks, alpha weighting.
struct BoxShrinkTests {
    /// Runs a shrink over an image held in memory.
    static func shrink(_ image: Image, _ fx: Int, _ fy: Int, rowsAvailable: Int? = nil) -> Image {
        let box = BoxShrink(source: image.size, factorX: fx, factorY: fy, format: image.format)
        var y = 0
        let limit = rowsAvailable ?? image.height
        let next = box.rows { row in
            guard y < limit else { return false }
            image.pixels.withUnsafeBufferPointer {
                row.update(from: $0.baseAddress! + y * image.stride, count: image.stride)
            }
            y += 1
            return true
        }
        var out: [UInt8] = []
        var row = [UInt8](repeating: 0, count: box.outputSize.width * image.format.channels)
        while row.withUnsafeMutableBufferPointer({ next($0.baseAddress!) }) { out += row }
        return Image(width: box.outputSize.width, height: out.count / row.count, format: image.format, pixels: out)
    }

    @Test func averagesWholeAndPartialBlocks() {
        // Gray 5x3, value = 10 * x + y. Blocks of 2x2: columns {0,1} {2,3} {4}, rows {0,1} {2}.
        var p: [UInt8] = []
        for y in 0..<3 { for x in 0..<5 { p.append(UInt8(10 * x + y)) } }
        let out = Self.shrink(Image(width: 5, height: 3, format: .gray, pixels: p), 2, 2)
        #expect(out.size == PixelSize(width: 3, height: 2))
        // (0+1+10+11)/4 = 5.5 -> 6 (rounded half up); (20+21+30+31)/4 = 25.5 -> 26; (40+41)/2 = 40.5 -> 41;
        // bottom row: (2+12)/2 = 7; (22+32)/2 = 27; 42.
        #expect(out.pixels == [6, 26, 41, 7, 27, 42])
    }

    @Test func rgbChannelsStaySeparate() {
        let px: [UInt8] = [255, 0, 10, 0, 255, 20, 255, 0, 30, 0, 255, 40]  // 4x1 RGB
        let out = Self.shrink(Image(width: 4, height: 1, format: .rgb, pixels: px), 4, 1)
        #expect(out.pixels == [128, 128, 25])  // 127.5 -> 128, 127.5 -> 128, 25
    }

    @Test func transparentPixelsDoNotDarkenVisibleOnes() {
        // Opaque white beside fully transparent black: the colour stays white, alpha halves.
        let px: [UInt8] = [255, 255, 255, 255, 0, 0, 0, 0]
        let out = Self.shrink(Image(width: 2, height: 1, format: .rgba, pixels: px), 2, 1)
        #expect(out.pixels == [255, 255, 255, 128])
        // All transparent: colour 0, alpha 0 (no division by zero).
        let clear = Self.shrink(Image(width: 2, height: 1, format: .grayAlpha, pixels: [9, 0, 7, 0]), 2, 1)
        #expect(clear.pixels == [0, 0])
    }

    @Test func anEarlyEndAveragesTheRowsThatCame() {
        // 1x4 gray, blocks of 3 rows, but only 2 rows arrive: one output row, their mean.
        let out = Self.shrink(
            Image(width: 1, height: 4, format: .gray, pixels: [10, 20, 30, 40]), 1, 3, rowsAvailable: 2)
        #expect(out.pixels == [15])
    }
}
