/// JPEG XL bytes the decoder and CLI tests share.
package enum JXLSamples {
    /// A bare codestream whose size header claims 2^30 x 2^30 pixels (the 30-bit U32
    /// distribution for height and width, no ratio), then all-default metadata and zeros:
    /// a header that lies, refused before anything is allocated.
    package static var lyingHeader: [UInt8] {
        var bits: [Bool] = [false]  // SizeHeader.small = 0
        func put(_ value: Int, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
        put(3, 2)  // height: the 30-bit distribution
        put((1 << 30) - 1, 30)
        put(0, 3)  // no ratio: the width follows
        put(3, 2)
        put((1 << 30) - 1, 30)
        bits.append(true)  // ImageMetadata.all_default
        var bytes: [UInt8] = [0xFF, 0x0A]
        for i in stride(from: 0, to: bits.count, by: 8) {
            var b: UInt8 = 0
            for k in 0..<8 where i + k < bits.count && bits[i + k] { b |= 1 << k }
            bytes.append(b)
        }
        return bytes + [UInt8](repeating: 0, count: 64)
    }
}
