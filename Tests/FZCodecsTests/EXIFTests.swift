import Testing

@testable import FZMetadata
@testable import Geometry

/// The EXIF (TIFF) orientation reader: bounded by the buffer, IFD0 only, never a loop.
struct EXIFTests {
    /// A TIFF header and IFD0 holding `entries` (tag, type, count, 4 value bytes).
    static func tiff(
        little: Bool = true, ifd: UInt32 = 8, count: UInt16? = nil, entries: [(UInt16, UInt16, UInt32, [UInt8])],
        next: UInt32 = 0
    ) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            little ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        var out: [UInt8] = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(ifd)
        out += [UInt8](repeating: 0, count: max(0, Int(ifd) - 8))
        out += u16(count ?? UInt16(entries.count))
        for (tag, type, n, value) in entries { out += u16(tag) + u16(type) + u32(n) + value }
        return out + u32(next)
    }

    static func short(_ v: UInt16, little: Bool = true) -> [UInt8] {
        little ? [UInt8(v & 0xFF), UInt8(v >> 8), 0, 0] : [UInt8(v >> 8), UInt8(v & 0xFF), 0, 0]
    }

    @Test(arguments: 1...8)
    func everyValidOrientationBothByteOrders(_ value: Int) {
        for little in [true, false] {
            let data = Self.tiff(little: little, entries: [(0x0112, 3, 1, Self.short(UInt16(value), little: little))])
            #expect(EXIF.orientationValue(in: data) == value)
            #expect(EXIF.orientation(in: data) == Orientation(rawValue: value))
        }
    }

    @Test(arguments: [0, 9, 65535])
    func invalidValuesAreReportedButNotApplied(_ value: Int) {
        let data = Self.tiff(entries: [(0x0112, 3, 1, Self.short(UInt16(value)))])
        #expect(EXIF.orientationValue(in: data) == value)
        #expect(EXIF.orientation(in: data) == nil)
    }

    @Test func theTagIsFoundAmongOthers() {
        let data = Self.tiff(entries: [
            (0x010F, 2, 4, Array("Cam\0".utf8)), (0x0112, 3, 1, Self.short(6)), (0x011A, 5, 1, [0, 0, 0, 0]),
        ])
        #expect(EXIF.orientation(in: data) == .rotate90)
    }

    @Test func longTypesSeenInTheWild() {
        #expect(EXIF.orientationValue(in: Self.tiff(entries: [(0x0112, 4, 1, [3, 0, 0, 0])])) == 3)
        #expect(EXIF.orientationValue(in: Self.tiff(entries: [(0x0112, 9, 1, [8, 0, 0, 0])])) == 8)
    }

    /// Loops (IFD0 pointing at itself, a sub-IFD pointing back) are never followed: the
    /// answer comes from IFD0 alone, at once.
    @Test func loopsAreNotFollowed() {
        let selfLoop = Self.tiff(entries: [(0x8769, 4, 1, [8, 0, 0, 0])], next: 8)
        #expect(EXIF.orientationValue(in: selfLoop) == nil)
        let loopWithTag = Self.tiff(entries: [(0x8769, 4, 1, [8, 0, 0, 0]), (0x0112, 3, 1, Self.short(6))], next: 8)
        #expect(EXIF.orientation(in: loopWithTag) == .rotate90)
    }

    @Test func offsetsOutOfBoundsGiveNil() {
        #expect(
            EXIF.orientationValue(in: [
                0x49, 0x49, 42, 0, 0xF0, 0xFF, 0xFF, 0xFF, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0,
            ]) == nil)
        // IFD past the end
        #expect(EXIF.orientationValue(in: Self.tiff(ifd: 30, entries: []).prefix(20).map { $0 }) == nil)
        #expect(EXIF.orientationValue(in: [0x49, 0x49, 42, 0, 0xF0, 0xFF, 0xFF, 0xFF]) == nil)
        #expect(EXIF.orientationValue(in: [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xFF]) == nil)
        // An IFD that claims 65535 entries but holds one: only what fits is read.
        let huge = Self.tiff(count: 0xFFFF, entries: [(0x0112, 3, 1, Self.short(6))])
        #expect(EXIF.orientation(in: huge) == .rotate90)
        let hugeWithout = Self.tiff(count: 0xFFFF, entries: [(0x0100, 3, 1, Self.short(6))])
        #expect(EXIF.orientationValue(in: hugeWithout) == nil)
        // The tag's entry cut off half-way.
        let cut = Array(Self.tiff(entries: [(0x0112, 3, 1, Self.short(6))]).prefix(16))
        #expect(EXIF.orientationValue(in: cut) == nil)
    }

    @Test func notTIFFGivesNil() {
        #expect(EXIF.orientationValue(in: []) == nil)
        #expect(EXIF.orientationValue(in: [0x49, 0x49, 42]) == nil)
        #expect(EXIF.orientationValue(in: Array("XX*\0\u{8}\0\0\0".utf8)) == nil)
        #expect(EXIF.orientationValue(in: [0x49, 0x49, 43, 0, 8, 0, 0, 0]) == nil)  // BigTIFF's 43
        // UNDEFINED type
        #expect(EXIF.orientationValue(in: Self.tiff(entries: [(0x0112, 7, 1, Self.short(6))])) == nil)
        #expect(EXIF.orientationValue(in: Self.tiff(entries: [(0x0112, 3, 0, Self.short(6))])) == nil)  // count 0
    }

    /// Random blocks and random mutations of a real one: never a trap, always bounded.
    @Test func randomBytesNeverTrap() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let base = Self.tiff(entries: [(0x0112, 3, 1, Self.short(6)), (0x8769, 4, 1, [8, 0, 0, 0])], next: 8)
        var answered = 0
        for i in 0..<20_000 {
            var data: [UInt8]
            if i % 2 == 0 {
                data = (0..<Int(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) }
                if data.count >= 2 && i % 4 == 0 {
                    data[0] = 0x49
                    data[1] = 0x49
                }
            } else {
                data = base
                for _ in 0..<(1 + Int(next() % 4)) {
                    data[Int(next()) % data.count] = UInt8(truncatingIfNeeded: next())
                }
            }
            if EXIF.orientationValue(in: data) != nil { answered += 1 }
        }
        #expect(answered > 100, "the mutations of a valid block should often still answer")
    }
}
