import FZFormat

/// What libraw 0.20's `parse_phase_one` reads without a bound, checked first (found by `make
/// fuzz`, issue 53). libraw calls it for any file with "IIII" or "MMMM" in its first 32 bytes
/// (`identify`); it caps the first directory at 8192 entries but then walks the metadata
/// directory (at the offset tag 0x0110 gives, or 0) for as many entries as its count says, up
/// to 2^32, four reads and two seeks each; a count past the end of the file reads as
/// 0xFFFFFFFF. A 3.5 KB mutation of a Leaf Credo 40 IIQ kept `info` busy for minutes.
enum PhaseOneDirectory {
    /// Why `bytes` would make libraw loop that long, or nil.
    static func problem(_ bytes: UnsafeRawBufferPointer) -> String? {
        let head = Array(bytes.prefix(32))
        guard let base = find("MMMM", in: head) ?? find("IIII", in: head) else { return nil }
        let little = head[base] == UInt8(ascii: "I")
        func u32(_ at: Int, _ le: Bool) -> UInt32? {
            guard at >= 0, at <= bytes.count - 4 else { return nil }
            let b = (0..<4).map { UInt32(bytes[at + $0]) }
            return le ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
        }
        // libraw returns early without the "Raw" magic, an offset of 0xbad0bad or over 8192 entries.
        guard let magic = u32(base + 4, little), magic >> 8 == 0x52_6177, let offset = u32(base + 8, little),
            offset != 0xbad_0bad
        else { return nil }
        let directory = Int(offset) + base
        guard let entries = u32(directory, little), entries <= 8192 else { return nil }
        var meta = 0
        for i in 0..<Int(entries) {
            let at = directory + 8 + i * 16
            guard let tag = u32(at, little), let data = u32(at + 12, little) else { break }
            if tag == 0x0110 { meta = Int(UInt32(truncatingIfNeeded: Int(data) + base)) }
        }
        // The metadata directory: a byte order ("II", else big-endian), then at 8 its offset.
        let metaLittle = meta + 2 <= bytes.count && bytes[meta] == 0x49 && bytes[meta + 1] == 0x49
        let count: UInt32
        var at = 0
        if let relative = u32(meta + 8, metaLittle) {
            at = Int(UInt32(truncatingIfNeeded: meta + Int(relative)))
            count = u32(at, metaLittle) ?? 0xFFFF_FFFF
        } else {
            count = 0xFFFF_FFFF
        }
        let room = max(0, bytes.count - at - 8) / 12
        guard Int(count) > room else { return nil }
        return
            "its Phase One metadata directory claims \(count) entries, more than the file's \(bytes.count) bytes hold (libraw 0.20 would read every one)"
    }

    private static func find(_ word: String, in head: [UInt8]) -> Int? {
        let w = Array(word.utf8)
        guard head.count >= w.count else { return nil }
        return (0...(head.count - w.count)).first { Array(head[$0..<($0 + w.count)]) == w }
    }
}
