import Testing

@testable import FZRAW

/// Kodak's KDC and DCR (issue 51 item 12): IFD0 is their small preview (96x64 RGB in a DC50's
/// KDC), so a TIFF reader showed that; the KodakIFD tag (33424) or Kodak's "EASTMAN KODAK"
/// Make with SubIFDs sends them to libraw. Little-endian TIFF heads built here.
struct RAWSnifferKodakTests {
    /// "II*", IFD0 at 8 with `entries` (tag, type, count, value), then `tail` at 8 + 2 + 12n + 4.
    static func tiff(_ entries: [(UInt16, UInt16, UInt32, UInt32)], tail: [UInt8] = []) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var b: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(UInt16(entries.count))
        for (tag, type, count, value) in entries { b += le16(tag) + le16(type) + le32(count) + le32(value) }
        return b + le32(0) + tail
    }

    static let make = Array("EASTMAN KODAK COMPANY\0".utf8)

    @Test func kodakIFDIsRAW() {
        let preview: [(UInt16, UInt16, UInt32, UInt32)] = [(256, 3, 1, 96), (257, 3, 1, 64), (262, 3, 1, 2)]
        #expect(!RAWSniffer.isCameraRAW(Self.tiff(preview)))
        #expect(RAWSniffer.isCameraRAW(Self.tiff(preview + [(33424, 4, 1, 200)])))
    }

    @Test func eastmanKodakWithSubIFDsIsRAW() {
        let at = UInt32(8 + 2 + 12 * 2 + 4)
        #expect(
            RAWSniffer.isCameraRAW(
                Self.tiff([(271, 2, UInt32(Self.make.count), at), (330, 4, 1, 300)], tail: Self.make)))
        #expect(
            !RAWSniffer.isCameraRAW(
                Self.tiff([(271, 2, UInt32(Self.make.count), at), (305, 2, 4, 0)], tail: Self.make)))
    }
}
