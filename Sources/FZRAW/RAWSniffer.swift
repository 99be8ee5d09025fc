/// Whether a file's first bytes are a camera RAW (or DNG) that libraw should read rather
/// than a TIFF reader: most RAWs are TIFF inside (DNG, NEF, CR2, ARW, PEF, IIQ), so the
/// first IFD decides. Reads only `head` (up to `ImageFormat.sniffLength` bytes), every
/// offset checked: a hostile head costs at most one pass over its entries.
enum RAWSniffer {
    /// TIFF Make values of the cameras whose RAWs are plain TIFFs otherwise.
    static let makers = [
        "NIKON", "SONY", "PENTAX", "RICOH", "CANON", "OLYMPUS", "SAMSUNG", "LEICA", "KODAK", "EASTMAN KODAK", "EPSON",
        "MINOLTA",
        "HASSELBLAD", "PHASE ONE", "LEAF", "MAMIYA", "SIGMA", "FUJIFILM", "PANASONIC", "GOPRO", "DJI", "XIAOMI",
    ]

    static func isCameraRAW(_ head: [UInt8]) -> Bool {
        func ascii(_ s: String, at offset: Int = 0) -> Bool {
            let m = Array(s.utf8)
            return head.count >= offset + m.count && Array(head[offset..<(offset + m.count)]) == m
        }
        if ascii("FUJIFILMCCD-RAW") || ascii("\u{0}MRM") { return true }  // RAF, MRW
        if ascii("II") && ascii("HEAPCCDR", at: 6) { return true }  // CRW (CIFF)
        if ascii("ftyp", at: 4) && ascii("crx ", at: 8) { return true }  // CR3
        if ascii("IIRO") || ascii("IIRS") || ascii("MMOR") || ascii("IIU\u{0}") { return true }  // ORF, RW2
        guard ascii("II*\u{0}") || ascii("MM\u{0}*") else { return false }
        if ascii("CR", at: 8) && head.count > 10 && head[10] == 2 { return true }  // CR2
        if ascii("IIII", at: 8) { return true }  // IIQ (Phase One)
        return firstIFDSaysRAW(head)
    }

    /// IFD0 holds DNGVersion, a colour filter array, a maker's raw compression, or a
    /// camera maker's Make with sub-IFDs (where NEF and ARW keep the raw image).
    private static func firstIFDSaysRAW(_ head: [UInt8]) -> Bool {
        let little = head[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= head.count else { return nil }
            return little ? Int(head[at]) | Int(head[at + 1]) << 8 : Int(head[at]) << 8 | Int(head[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd), count > 0 else { return false }
        var make = ""
        var subIFDs = false
        for k in 0..<min(count, 512) {
            let entry = ifd + 2 + 12 * k
            guard let tag = u16(entry), let type = u16(entry + 2), let n = u32(entry + 4) else { break }
            let value = type == 3 ? u16(entry + 8) : u32(entry + 8)
            switch tag {
            case 50706: return true  // DNGVersion
            case 262 where value == 32803: return true  // PhotometricInterpretation: CFA
            case 259 where [32767, 32769, 32770, 34713, 65000, 65535].contains(value ?? 0):
                return true  // Compression: Sony, Nikon, Pentax and Kodak raw codings
            case 33424: return true  // KodakIFD: Kodak's KDC and DCR (IFD0 is their small preview)
            case 330: subIFDs = true
            case 271 where type == 2:  // Make
                let at = n <= 4 ? entry + 8 : (u32(entry + 8) ?? -1)
                if at >= 0, at + min(n, 32) <= head.count {
                    make = String(decoding: head[at..<(at + min(n, 32))].prefix { $0 != 0 }, as: UTF8.self).uppercased()
                }
            default: break
            }
        }
        return subIFDs && makers.contains { make.hasPrefix($0) }
    }
}
