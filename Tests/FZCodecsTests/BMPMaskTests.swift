import FZFormat
import FZImage
import FZSystem
import TestSupport
import Testing

@testable import FZCodecs

/// Bit-field masks that are not contiguous (issue 51 item 1, issue 53): the files of
/// Tools/hostile/hostile_bmp_masks.py, each 2x2 with the stored pixels 0xFFFFFFFF, 0x80000000
/// (bottom row) and 0x00000001, 0x12345678 (top row), or their 16-bit 0xFFFF, 0x8000, 0x0001,
/// 0x1234. A mask's set bits, lowest first, make a value as wide as its popcount, widened to 8
/// bits by v * 255 / (2^bits - 1); the expected values below are worked out by hand from
/// that rule and the stored pixels (Pillow, the suite's usual reference, refuses these layouts:
/// "Unsupported BMP bitfields layout"). Before, each trapped (SIGILL).
@Suite("BMP masks")
struct BMPMaskTests {
    static let dir = FileSystem.join(TestSupport.root, "Fixtures/hostile")

    static func rgba(_ name: String) throws -> [UInt8] {
        try ImageReader(path: FileSystem.join(dir, name)).readImage().converted(to: .rgba).pixels
    }

    /// R mask 0x80000001: bit 0 is the field's low bit, bit 31 its high one (2 bits, max 3).
    @Test func twoBitsThirtyOneApart() throws {
        // Top row 0x00000001 (R 0b01), 0x12345678 (R 0); bottom 0xFFFFFFFF, 0x80000000 (R 0b10).
        #expect(
            try Self.rgba("bmp-mask-80000001.bmp") == [
                85, 0, 0, 255, 0, 0x56, 0x34, 255,
                255, 255, 255, 255, 170, 0, 0, 255,
            ])
    }

    /// R mask 0x8000007F: 8 bits (bit 31 on top of bits 0-6), so 0x12345678 gives 0b0_1111000.
    @Test func eightBitsWithAGap() throws {
        let p = try Self.rgba("bmp-mask-8000007f.bmp")
        #expect(p[0] == 1 && p[4] == 0x78 && p[8] == 255 && p[12] == 128)
    }

    /// 16 bits, R 0x8001 (2 bits), G 0x07E0 (6), B 0x001E (4): 0x1234 gives G 17, B 10.
    @Test func sixteenBitMask() throws {
        // G 17 * 255 / 63 = 68, B 10 * 255 / 15 = 170.
        #expect(
            try Self.rgba("bmp-mask16-8001.bmp") == [
                85, 0, 0, 255, 0, 68, 170, 255,
                255, 255, 255, 255, 170, 0, 0, 255,
            ])
    }

    /// A V5 alpha mask 0x81000000 (bits 24 and 31): alpha 0, 0, 255 and 170.
    @Test func alphaMaskWithAGap() throws {
        let p = try Self.rgba("bmp-v5-alpha-81000000.bmp")
        #expect([p[3], p[7], p[11], p[15]] == [0, 0, 255, 170])
        #expect(Array(p[4..<7]) == [0x34, 0x56, 0x78])
    }

    /// Overlapping V4 masks: R and G both 0xF000000F read the same 8 bits.
    @Test func overlappingMasks() throws {
        let p = try Self.rgba("bmp-v4-overlap-f000000f.bmp")
        // 0x00000001 -> 0b0000_0001; 0x12345678 -> 0x1 << 4 | 0x8 = 0x18; all ones; 0x80000000 -> 0x80.
        #expect([p[0], p[4], p[8], p[12]] == [1, 0x18, 255, 0x80])
        #expect([p[1], p[5], p[9], p[13]] == [p[0], p[4], p[8], p[12]])
    }

    /// The fuzz find: R 0xb00 (bits 8, 9, 11) in a 56-byte V3 header; 0x1234 holds bit 9.
    @Test func theFuzzFind() throws {
        let p = try Self.rgba("bmp-v3-mask-b00.bmp")
        // 0x1234: R 0b010, 2 * 255 / 7 = 72.
        #expect([p[0], p[4], p[8], p[12]] == [0, 72, 255, 0])
    }
}
