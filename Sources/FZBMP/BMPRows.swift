import FZFormat

/// Turns stored BMP rows (or an RLE image's indices) into RGB or RGBA pixels.
struct BMPRowUnpacker: Sendable {
    let header: BMPHeader
    let channels: Int
    let path: String
    /// Per mask (red, green, blue, alpha): the shift to its lowest bit, its width (the mask's
    /// set bits) and whether those bits are contiguous.
    private let fields: [(shift: UInt32, bits: UInt32, contiguous: Bool)]

    init(header: BMPHeader, channels: Int, path: String) {
        self.header = header
        self.channels = channels
        self.path = path
        fields = header.masks.map { m in
            let low = m >> UInt32(m.trailingZeroBitCount & 31)
            return (UInt32(m.trailingZeroBitCount & 31), UInt32(m.nonzeroBitCount), low & (low &+ 1) == 0)
        }
    }

    /// One stored row (`header.stride` bytes) into `out` (`width * channels` bytes).
    func unpack(_ row: [UInt8], into out: UnsafeMutableRawBufferPointer) throws(DecodeError) {
        let w = header.width
        switch header.bitCount {
        case 1, 2, 4, 8:
            let bits = header.bitCount
            let perByte = 8 / bits
            let mask = (1 << bits) - 1
            for x in 0..<w {
                let byte = Int(row[x / perByte])
                let index = byte >> ((perByte - 1 - x % perByte) * bits) & mask
                try put(index: index, at: x, into: out)
            }
        case 24:
            for x in 0..<w {
                out[x * channels] = row[x * 3 + 2]
                out[x * channels + 1] = row[x * 3 + 1]
                out[x * channels + 2] = row[x * 3]
                if channels == 4 { out[x * 4 + 3] = 255 }
            }
        default:
            let bytes = header.bitCount / 8
            for x in 0..<w {
                var v: UInt32 = 0
                for k in 0..<bytes { v |= UInt32(row[x * bytes + k]) << (8 * k) }
                for c in 0..<channels { out[x * channels + c] = sample(v, header.masks[c], fields[c]) }
            }
        }
    }

    /// An RLE image's row of palette indices into pixels.
    func expand(indices: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) throws(DecodeError) {
        for x in 0..<header.width { try put(index: Int(indices[x]), at: x, into: out) }
    }

    private func put(index: Int, at x: Int, into out: UnsafeMutableRawBufferPointer) throws(DecodeError) {
        guard index < header.paletteColors else {
            throw .corrupt(
                path: path, detail: "a pixel uses colour \(index) of a \(header.paletteColors)-colour palette")
        }
        out[x * channels] = header.palette[index * 3]
        out[x * channels + 1] = header.palette[index * 3 + 1]
        out[x * channels + 2] = header.palette[index * 3 + 2]
        if channels == 4 { out[x * 4 + 3] = 255 }
    }

    /// One masked field widened to 8 bits: v * 255 / max, rounded down (Pillow's 5- and
    /// 6-bit rule); a missing mask is 0. A mask whose bits are not contiguous (0x80000001,
    /// 0xb00, overlapping masks) has its set bits gathered, lowest first, into a value as wide
    /// as the mask's popcount (Pillow refuses such layouts; this reads them), so the value
    /// never passes `max` (issue 51: the width stopped at the first gap and
    /// `UInt8(value * 255 / max)` trapped, exit 132).
    private func sample(_ v: UInt32, _ mask: UInt32, _ field: (shift: UInt32, bits: UInt32, contiguous: Bool))
        -> UInt8
    {
        guard field.bits > 0 else { return 0 }
        var value: UInt64
        if field.contiguous {
            value = UInt64((v & mask) >> field.shift)
        } else {
            value = 0
            var m = mask
            var bit: UInt64 = 1
            while m != 0 {
                let low = m & (0 &- m)
                if v & low != 0 { value |= bit }
                bit <<= 1
                m &= m &- 1
            }
        }
        if field.bits == 8 { return UInt8(value) }
        let max = (UInt64(1) << UInt64(field.bits)) - 1
        return UInt8(min(value, max) * 255 / max)
    }
}

/// RLE8 and RLE4 data decoded into one palette index a pixel, top row first. Runs may not
/// pass their row's end; pixels a delta or an early end skips stay 0.
struct BMPRunLengthDecoder {
    let data: [UInt8]
    let header: BMPHeader
    let path: String

    func decode(into out: UnsafeMutableRawBufferPointer) throws(DecodeError) {
        let w = header.width
        let h = header.height
        let four = header.compression == 2
        var pos = 0
        var x = 0
        var row = 0  // stored row: 0 is the bottom one
        func set(_ index: UInt8) {
            out[(h - 1 - row) * w + x] = index
            x += 1
        }
        func runPastRow(_ n: Int) -> DecodeError {
            .corrupt(path: path, detail: "an RLE run of \(n) pixels passes the end of row \(h - row) at column \(x)")
        }
        while row < h {
            guard pos + 2 <= data.count else {
                throw .truncated(path: path, detail: "the RLE data ends at row \(h - row) of \(h)")
            }
            let n = Int(data[pos])
            let c = data[pos + 1]
            pos += 2
            if n > 0 {
                guard x + n <= w else { throw runPastRow(n) }
                for i in 0..<n { set(four ? (i % 2 == 0 ? c >> 4 : c & 15) : c) }
                continue
            }
            switch c {
            case 0:
                x = 0
                row += 1
            case 1:
                return
            case 2:
                guard pos + 2 <= data.count else {
                    throw .truncated(path: path, detail: "the RLE data ends inside a delta")
                }
                x += Int(data[pos])
                row += Int(data[pos + 1])
                pos += 2
                guard x <= w else { throw runPastRow(Int(data[pos - 2])) }
            default:
                let count = Int(c)
                let bytes = four ? (count + 1) / 2 : count
                guard x + count <= w else { throw runPastRow(count) }
                guard pos + bytes <= data.count else {
                    throw .truncated(path: path, detail: "the RLE data ends inside a literal run")
                }
                for i in 0..<count {
                    let b = data[pos + (four ? i / 2 : i)]
                    set(four ? (i % 2 == 0 ? b >> 4 : b & 15) : b)
                }
                pos += (bytes + 1) & ~1  // literal runs are padded to 2 bytes
            }
        }
    }
}
