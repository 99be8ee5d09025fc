import Geometry

/// What an HEVC sequence parameter set (SPS) declares, read from an `hvcC` box's
/// parameter-set arrays: the picture size and the bit depths libde265 decodes with. libheif
/// 1.15 sizes and converts by the `hvcC` header instead, so a file whose header says 14 bits
/// and whose SPS says 8 made libheif read past its buffers (SIGSEGV, found by `make fuzz`),
/// and an SPS larger than the `ispe` makes libde265 allocate for the larger picture: the
/// decoder checks both before libheif decodes anything.
enum HEVCSequenceSize {
    /// One SPS's declarations.
    struct Declared: Equatable {
        var size: PixelSize
        var chromaFormat: Int
        var lumaDepth: Int
        var chromaDepth: Int
    }

    /// Why `hvcC` cannot be decoded safely, or nil: its header's chroma format or bit depths
    /// differ from an SPS it carries.
    static func mismatch(inHvcC b: [UInt8]) -> String? {
        guard b.count > 23 else { return nil }
        let chroma = Int(b[16] & 3)
        let luma = Int(b[17] & 7) + 8
        let chromaDepth = Int(b[18] & 7) + 8
        for sps in declarations(inHvcC: b) {
            if sps.lumaDepth != luma || sps.chromaDepth != chromaDepth || sps.chromaFormat != chroma {
                return
                    "the hvcC box says \(luma)/\(chromaDepth)-bit chroma format \(chroma), its parameter set \(sps.lumaDepth)/\(sps.chromaDepth)-bit chroma format \(sps.chromaFormat)"
            }
        }
        return nil
    }

    /// The largest SPS picture size in `hvcC` (its body), or nil when it holds no readable SPS.
    static func largest(inHvcC b: [UInt8]) -> PixelSize? {
        declarations(inHvcC: b).map(\.size).max { $0.area < $1.area }
    }

    /// Every readable SPS in `hvcC` (at most 64).
    static func declarations(inHvcC b: [UInt8]) -> [Declared] {
        // HEVCDecoderConfigurationRecord: 22 bytes, numOfArrays, then the arrays.
        guard b.count > 23 else { return [] }
        var i = 23
        var found: [Declared] = []
        for _ in 0..<Int(b[22]) {
            guard i + 3 <= b.count else { break }
            let type = b[i] & 0x3F
            let count = Int(b[i + 1]) << 8 | Int(b[i + 2])
            i += 3
            for _ in 0..<count {
                guard i + 2 <= b.count, found.count < 64 else { return found }
                let length = Int(b[i]) << 8 | Int(b[i + 1])
                i += 2
                guard i + length <= b.count else { return found }
                if type == 33, let sps = parse(sps: b[i..<i + length]) { found.append(sps) }
                i += length
            }
        }
        return found
    }

    /// One SPS NAL unit (with its 2-byte header): picture size, chroma format, bit depths.
    static func parse(sps nal: ArraySlice<UInt8>) -> Declared? {
        // Drop the emulation-prevention bytes (00 00 03 -> 00 00).
        var rbsp: [UInt8] = []
        rbsp.reserveCapacity(min(nal.count, 256))
        var zeros = 0
        for byte in nal.prefix(4096) {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        var r = BitReader(rbsp, byteOffset: 2)
        guard r.bits(4) != nil, let maxSubLayersMinus1 = r.bits(3), r.bits(1) != nil else { return nil }
        // profile_tier_level(1, maxSubLayersMinus1): 96 bits of general profile and level.
        guard r.skip(96) else { return nil }
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            guard let p = r.bits(1), let l = r.bits(1) else { return nil }
            profilePresent.append(p == 1)
            levelPresent.append(l == 1)
        }
        if maxSubLayersMinus1 > 0 { guard r.skip(2 * (8 - maxSubLayersMinus1)) else { return nil } }
        for k in 0..<maxSubLayersMinus1 {
            if profilePresent[k] { guard r.skip(88) else { return nil } }
            if levelPresent[k] { guard r.skip(8) else { return nil } }
        }
        guard r.unsignedExpGolomb() != nil, let chroma = r.unsignedExpGolomb() else { return nil }
        if chroma == 3 { guard r.skip(1) else { return nil } }
        guard let w = r.unsignedExpGolomb(), let h = r.unsignedExpGolomb(), let window = r.bits(1) else { return nil }
        if window == 1 { for _ in 0..<4 { guard r.unsignedExpGolomb() != nil else { return nil } } }
        guard let luma = r.unsignedExpGolomb(), let chromaDepth = r.unsignedExpGolomb() else { return nil }
        return Declared(
            size: PixelSize(width: w, height: h), chromaFormat: chroma, lumaDepth: luma + 8,
            chromaDepth: chromaDepth + 8)
    }

    /// Reads bits most significant first, bounded by the data.
    struct BitReader {
        let bytes: [UInt8]
        var position: Int

        init(_ bytes: [UInt8], byteOffset: Int) {
            self.bytes = bytes
            position = byteOffset * 8
        }

        mutating func bits(_ n: Int) -> Int? {
            guard n >= 0, n <= 32, position + n <= bytes.count * 8 else { return nil }
            var v = 0
            for _ in 0..<n {
                v = v << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return v
        }

        mutating func skip(_ n: Int) -> Bool {
            guard position + n <= bytes.count * 8 else { return false }
            position += n
            return true
        }

        /// ue(v), at most 32 leading zeros (larger is not a valid SPS value).
        mutating func unsignedExpGolomb() -> Int? {
            var zeros = 0
            while true {
                guard let b = bits(1) else { return nil }
                if b == 1 { break }
                zeros += 1
                if zeros > 32 { return nil }
            }
            guard let rest = bits(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }
    }
}
