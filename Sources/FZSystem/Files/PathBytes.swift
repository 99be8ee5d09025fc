#if canImport(Glibc)
import Glibc
#endif

/// File names as the kernel has them: bytes, not necessarily UTF-8.
///
/// Why: Swift's `String` holds only Unicode, and `CommandLine.arguments` and
/// `String(cString:)` replace bytes that are not UTF-8 with U+FFFD, so `bad\xff.png` could
/// be neither opened nor written nor found in a folder. Python solved the same problem
/// with "surrogateescape" (PEP 383); Swift strings cannot hold lone surrogates, so each
/// byte that does not decode is carried as one character of a private-use block,
/// U+10FE00 + byte. The mapping is a bijection: a name that really contains a character of
/// that block has that character's own UTF-8 bytes carried the same way, so every byte
/// string comes back exactly (`bytes(of: string(of: b)) == b`). Paths stay plain Swift
/// strings for the parser, patterns and messages; only the system calls (`withCPath`) and
/// the messages (`Echo`, which shows a carried byte as `\xFF`) look inside.
public enum PathBytes {
    /// The first scalar of the block that carries raw bytes.
    package static let base: UInt32 = 0x10FE00

    /// Whether a scalar carries a raw byte.
    @inline(__always)
    public static func carriedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        let v = scalar.value
        return v >= base && v <= base + 0xFF ? UInt8(v - base) : nil
    }

    /// The string for a name's bytes (from argv, readdir or a list file).
    public static func string<C: Collection>(of bytes: C) -> String where C.Element == UInt8 {
        let b = Array(bytes)
        // The common case costs one validation pass.
        if let plain = String(validating: b, as: UTF8.self),
            !plain.unicodeScalars.contains(where: { carriedByte($0) != nil })
        {
            return plain
        }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < b.count {
            if let (scalar, length) = decode(b, at: i), carriedByte(scalar) == nil {
                out.append(scalar)
                i += length
            } else {
                // A byte that starts no valid sequence (or a carried-block character's
                // first byte): carried alone; decoding resumes at the next byte, so the
                // bytes come back exactly.
                out.append(Unicode.Scalar(base + UInt32(b[i]))!)
                i += 1
            }
        }
        return String(out)
    }

    /// The scalar of the well-formed UTF-8 sequence at `i` and its length (no overlong
    /// forms, no surrogates, nothing past U+10FFFF), nil when there is none.
    package static func decode(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        let length: Int
        let low: UInt32
        let initial: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, low, initial) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, low, initial) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, low, initial) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        var value = initial
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= low, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The bytes a string stands for (without a terminating NUL).
    public static func bytes(of string: String) -> [UInt8] {
        if !string.unicodeScalars.contains(where: { carriedByte($0) != nil }) { return Array(string.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if let byte = carriedByte(scalar) { out.append(byte) } else { out.append(contentsOf: String(scalar).utf8) }
        }
        return out
    }

    /// Calls `body` with the NUL-terminated path the kernel should see.
    public static func withCPath<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var bytes = bytes(of: path)
        // A NUL inside a name cannot reach the kernel; cut there as C would, but make the
        // result name nothing (an empty path fails with ENOENT) rather than another file.
        if bytes.contains(0) { bytes = [] }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The string for a NUL-terminated name from the system (readdir, realpath).
    public static func string(cString pointer: UnsafePointer<CChar>) -> String {
        let length = strlen(pointer)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            string(of: UnsafeBufferPointer(start: $0, count: length))
        }
    }
}
