import FZSystem

/// SHA-256 digests as bytes and HMAC-SHA256 (RFC 2104), for SigV4's signing key chain. FZSystem's
/// SHA-256 (the journal's checksums) gives hex; the key chain feeds each digest into the next
/// HMAC as bytes, so the hex is read back here rather than growing a shared type.
enum Digest {
    /// SHA-256 of `bytes`, 32 bytes.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Self.bytes(hex: SHA256.hex(bytes)) }

    /// SHA-256 of `bytes` as lower-case hex (SigV4's payload hash and canonical request hash).
    static func sha256Hex(_ bytes: [UInt8]) -> String { SHA256.hex(bytes) }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = sha256(block.map { $0 ^ 0x36 } + message)
        return sha256(block.map { $0 ^ 0x5c } + inner)
    }

    /// Lower-case hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return out
    }

    /// The bytes of lower-case hex (SHA256.hex's output: always valid, even length).
    static func bytes(hex: String) -> [UInt8] {
        let values = hex.utf8.map { $0 >= 0x61 ? $0 - 0x61 + 10 : $0 - 0x30 }
        return stride(from: 0, to: values.count - 1, by: 2).map { values[$0] << 4 | values[$0 + 1] }
    }

    /// The bytes of standard base64 text (S3's `x-amz-checksum-sha256`), nil when malformed.
    static func base64Decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var bits: UInt32 = 0
        var count = 0
        for byte in text.utf8 where byte != UInt8(ascii: "=") {
            let value: UInt8
            switch byte {
            case 0x41...0x5A: value = byte - 0x41
            case 0x61...0x7A: value = byte - 0x61 + 26
            case 0x30...0x39: value = byte - 0x30 + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: return nil
            }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        return out
    }
}
