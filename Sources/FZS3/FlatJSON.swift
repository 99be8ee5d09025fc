/// The string and number members at the top of a JSON object: what the container endpoint and
/// IMDS answer (`{"AccessKeyId": "...", "Expiration": "...", ...}`). Nested values are skipped;
/// anything that is not such an object gives nil.
enum FlatJSON {
    static func members(_ bytes: [UInt8]) -> [String: String]? {
        var i = 0
        func blanks() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }
        func string() -> String? {
            guard i < bytes.count, bytes[i] == 0x22 else { return nil }
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == 0x22 { return String(decoding: out, as: UTF8.self) }
                guard b == 0x5C else {
                    out.append(b)
                    continue
                }
                guard i < bytes.count else { return nil }
                let e = bytes[i]
                i += 1
                switch e {
                case 0x6E: out.append(0x0A)
                case 0x74: out.append(0x09)
                case 0x72: out.append(0x0D)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x75:
                    guard i + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
                    else { return nil }
                    i += 4
                    out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                default: out.append(e)
                }
            }
            return nil
        }
        /// Skips a value that is not a string: a number, literal, array or object.
        func skip() -> String? {
            let start = i
            var depth = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 {
                    guard string() != nil else { return nil }
                    continue
                }
                if b == 0x7B || b == 0x5B { depth += 1 }
                if b == 0x7D || b == 0x5D {
                    if depth == 0 { break }
                    depth -= 1
                }
                if b == 0x2C, depth == 0 { break }
                i += 1
            }
            return String(decoding: bytes[start..<i], as: UTF8.self).trimmingBlanks.description
        }
        blanks()
        guard i < bytes.count, bytes[i] == 0x7B else { return nil }
        i += 1
        var out: [String: String] = [:]
        while true {
            blanks()
            if i < bytes.count, bytes[i] == 0x7D { return out }
            guard let name = string() else { return nil }
            blanks()
            guard i < bytes.count, bytes[i] == 0x3A else { return nil }
            i += 1
            blanks()
            guard let value = (i < bytes.count && bytes[i] == 0x22) ? string() : skip() else { return nil }
            out[name] = value
            blanks()
            guard i < bytes.count else { return nil }
            if bytes[i] == 0x2C {
                i += 1
                continue
            }
            return bytes[i] == 0x7D ? out : nil
        }
    }
}
