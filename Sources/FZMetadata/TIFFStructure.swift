/// Reads IFDs from a TIFF-structured block for `EXIFBlock`, every read checked against
/// the block: nothing here can index outside it, loop, or copy more than its size.
package struct TIFFReader {
    let data: [UInt8]
    let littleEndian: Bool
    let firstIFD: Int
    /// Entries skipped (value outside the block, unknown type).
    private(set) var dropped = 0
    /// IFD offsets already read: a second visit is a loop.
    private var visited: Set<Int> = []
    /// Value bytes copied so far, at most `data.count` in all.
    private var copied = 0

    init(_ data: [UInt8]) throws(EXIFError) {
        self.data = data
        guard data.count >= 8 else { throw .badHeader }
        guard let little = Self.littleEndian(data[0], data[1]) else { throw .badHeader }
        littleEndian = little
        guard Self.u16(data, 2, littleEndian) == 42, let first = Self.u32(data, 4, littleEndian) else {
            throw .badHeader
        }
        firstIFD = first
    }

    /// Bytes per value of each TIFF type (1-13); 0 for types TIFF does not define.
    package static func typeSize(_ type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    /// A TIFF structure's byte order from its first two bytes: true for "II" (little-endian),
    /// false for "MM", nil for anything else. The one place EXIF, MPF, TIFF and the RAW
    /// walkers learn it.
    package static func littleEndian(_ b0: UInt8, _ b1: UInt8) -> Bool? {
        switch (b0, b1) {
        case (0x49, 0x49): return true
        case (0x4D, 0x4D): return false
        default: return nil
        }
    }

    package static func u16(_ d: [UInt8], _ at: Int, _ little: Bool) -> Int? {
        guard at >= 0, at <= d.count - 2 else { return nil }
        return little ? Int(d[at]) | Int(d[at + 1]) << 8 : Int(d[at]) << 8 | Int(d[at + 1])
    }

    package static func u32(_ d: [UInt8], _ at: Int, _ little: Bool) -> Int? {
        guard let a = u16(d, at, little), let b = u16(d, at + 2, little) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    func u32(_ d: [UInt8], _ at: Int) -> Int? { Self.u32(d, at, littleEndian) }

    /// The entries of the IFD at `offset`, sorted by tag, without offset-holding tags.
    mutating func ifd(at offset: Int, name: String) throws(EXIFError) -> [EXIFBlock.Entry] {
        guard offset >= 8, let count = Self.u16(data, offset, littleEndian) else { throw .badIFD(name) }
        guard !visited.contains(offset) else { throw .loop(name) }
        visited.insert(offset)
        guard count <= EXIFBlock.maxEntries, offset + 2 + count * 12 <= data.count else { throw .badIFD(name) }
        var entries: [EXIFBlock.Entry] = []
        var tags: Set<UInt16> = []
        for i in 0..<count {
            let e = offset + 2 + i * 12
            let tag = UInt16(Self.u16(data, e, littleEndian)!)
            let type = UInt16(Self.u16(data, e + 2, littleEndian)!)
            let n = Self.u32(data, e + 4, littleEndian)!
            let size = Self.typeSize(type)
            // A count so large its product overflows is just outside the block.
            let (bytes, overflow) = n.multipliedReportingOverflow(by: size)
            guard size > 0, !overflow, bytes <= data.count, !EXIFBlock.offsetTags.contains(tag), !tags.contains(tag)
            else {
                dropped += 1
                continue
            }
            let start = bytes <= 4 ? e + 8 : Self.u32(data, e + 8, littleEndian)!
            guard start >= 0, start <= data.count - bytes else {
                dropped += 1
                continue
            }
            if bytes > 4 {
                copied += bytes
                guard copied <= data.count else { throw .overBudget }
            }
            tags.insert(tag)
            entries.append(
                EXIFBlock.Entry(tag: tag, type: type, count: UInt32(n), value: Array(data[start..<(start + bytes)])))
        }
        return entries.sorted { $0.tag < $1.tag }
    }
}

/// Writes IFDs as one TIFF block: IFD0, then the Exif IFD, its Interoperability IFD and
/// the GPS IFD, each followed by its values (on even offsets), with no IFD1.
package struct TIFFWriter {
    let littleEndian: Bool
    private var out: [UInt8] = []

    package init(littleEndian: Bool) { self.littleEndian = littleEndian }

    static func u32(_ v: UInt32, littleEndian: Bool) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return littleEndian ? b.reversed() : b
    }

    private func u16(_ v: Int) -> [UInt8] {
        littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private mutating func patch(_ at: Int, _ v: Int) {
        out.replaceSubrange(at..<(at + 4), with: Self.u32(UInt32(v), littleEndian: littleEndian))
    }

    package mutating func write(
        ifd0: [EXIFBlock.Entry], exif: [EXIFBlock.Entry]?, interop: [EXIFBlock.Entry]?, gps: [EXIFBlock.Entry]?
    ) -> [UInt8] {
        out = littleEndian ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42]
        out += Self.u32(8, littleEndian: littleEndian)
        var zero = ifd0
        if exif != nil { zero.append(.init(tag: EXIFBlock.exifPointer, type: 4, count: 1, value: [0, 0, 0, 0])) }
        if gps != nil { zero.append(.init(tag: EXIFBlock.gpsPointer, type: 4, count: 1, value: [0, 0, 0, 0])) }
        let zeroSlots = append(zero)
        if var exif {
            if interop != nil {
                exif.append(.init(tag: EXIFBlock.interopPointer, type: 4, count: 1, value: [0, 0, 0, 0]))
            }
            patch(zeroSlots[EXIFBlock.exifPointer]!, out.count)
            let exifSlots = append(exif)
            if let interop {
                patch(exifSlots[EXIFBlock.interopPointer]!, out.count)
                _ = append(interop)
            }
        }
        if let gps {
            patch(zeroSlots[EXIFBlock.gpsPointer]!, out.count)
            _ = append(gps)
        }
        return out
    }

    /// Appends one IFD (entries sorted) and its values.
    /// - Returns: where each entry's value field is, by tag (for pointers patched later).
    private mutating func append(_ entries: [EXIFBlock.Entry]) -> [UInt16: Int] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        let start = out.count
        var dataAt = start + 2 + sorted.count * 12 + 4
        var slots: [UInt16: Int] = [:]
        var values: [UInt8] = []
        out += u16(sorted.count)
        for e in sorted {
            out += u16(Int(e.tag)) + u16(Int(e.type)) + Self.u32(e.count, littleEndian: littleEndian)
            slots[e.tag] = out.count
            if e.value.count <= 4 {
                out += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
            } else {
                out += Self.u32(UInt32(dataAt), littleEndian: littleEndian)
                values += e.value
                if e.value.count % 2 == 1 { values.append(0) }
                dataAt += e.value.count + e.value.count % 2
            }
        }
        out += [0, 0, 0, 0]  // no next IFD: IFD1 stays behind
        out += values
        return slots
    }
}
