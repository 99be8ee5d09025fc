/// A small JSON reader for marker files (no Foundation). Numbers become Double.
struct MiniJSON {
    indirect enum Value: Equatable {
        case null, bool(Bool), number(Double), string(String), array([Value]), object([String: Value])
    }

    private let bytes: [UInt8]
    private var i = 0
    /// Nesting bound: a hostile file of a million "[" cannot overflow the stack.
    private var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The whole document, or nil when it is not valid JSON.
    mutating func parse() -> Value? {
        guard let v = value() else { return nil }
        skipSpace()
        return i == bytes.count ? v : nil
    }

    private mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    private mutating func value() -> Value? {
        skipSpace()
        guard i < bytes.count, depth < 64 else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            i += 1
            var items: [Value] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                guard let v = value() else { return nil }
                items.append(v)
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                return nil
            }
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            i += 1
            var members: [String: Value] = [:]
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard case .string(let key)? = string() else { return nil }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard let v = value() else { return nil }
                members[key] = v
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                return nil
            }
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ word: String, _ v: Value) -> Value? {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { return nil }
        i += w.count
        return v
    }

    private mutating func number() -> Value? {
        let start = i
        while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
        guard i > start, let d = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { return nil }
        return .number(d)
    }

    private mutating func string() -> Value? {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var out = [UInt8]()
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "\"") { return .string(String(decoding: out, as: UTF8.self)) }
            if b == UInt8(ascii: "\\") {
                guard i < bytes.count else { return nil }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else { return nil }
                    i += 4
                    out += Array(String(UnicodeScalar(code) ?? "?").utf8)
                default: out.append(e)
                }
            } else {
                out.append(b)
            }
        }
        return nil
    }
}
