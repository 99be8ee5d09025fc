/// Splits XMP's XML into `XMPPacket` tokens, one pass, every index checked: tags must nest
/// (at most `maxDepth` deep), attributes must be quoted, and a DOCTYPE is refused.
struct XMPScanner {
    static let maxDepth = 256
    let b: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { b = bytes }

    private func has(_ s: String, at: Int) -> Bool {
        let u = Array(s.utf8)
        return at + u.count <= b.count && Array(b[at..<(at + u.count)]) == u
    }

    /// The index just past the next `s` from `i`, or nil.
    private func after(_ s: String, from: Int) -> Int? {
        let u = Array(s.utf8)
        var k = from
        while k + u.count <= b.count {
            if b[k] == u[0] && Array(b[k..<(k + u.count)]) == u { return k + u.count }
            k += 1
        }
        return nil
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private static func isNameByte(_ c: UInt8) -> Bool {
        !isSpace(c) && c != UInt8(ascii: "=") && c != UInt8(ascii: ">") && c != UInt8(ascii: "/")
            && c != UInt8(ascii: "<") && c != UInt8(ascii: "\"") && c != UInt8(ascii: "'")
    }

    private mutating func name() throws(XMPError) -> String {
        let start = i
        while i < b.count && Self.isNameByte(b[i]) { i += 1 }
        guard i > start else { throw .malformed("a tag or attribute without a name at byte \(start)") }
        return String(decoding: b[start..<i], as: UTF8.self)
    }

    private mutating func spaces() { while i < b.count && Self.isSpace(b[i]) { i += 1 } }

    mutating func tokens() throws(XMPError) -> [XMPPacket.Token] {
        var out: [XMPPacket.Token] = []
        var open: [String] = []
        while i < b.count {
            if b[i] != UInt8(ascii: "<") {
                let start = i
                while i < b.count && b[i] != UInt8(ascii: "<") { i += 1 }
                out.append(.raw(Array(b[start..<i])))
                continue
            }
            let start = i
            if has("<!--", at: i) || has("<?", at: i) || has("<![CDATA[", at: i) {
                let close = has("<!--", at: i) ? "-->" : has("<?", at: i) ? "?>" : "]]>"
                guard let end = after(close, from: i + 2) else { throw .malformed("unterminated \(close)") }
                i = end
                out.append(.raw(Array(b[start..<i])))
            } else if has("<!", at: i) {
                throw .malformed("a DOCTYPE or declaration")
            } else if has("</", at: i) {
                i += 2
                let n = try name()
                spaces()
                guard i < b.count, b[i] == UInt8(ascii: ">"), open.last == n else {
                    throw .malformed("</\(n)> does not close the open tag")
                }
                i += 1
                open.removeLast()
                out.append(.end(name: n))
            } else {
                i += 1
                let n = try name()
                var attributes: [XMPPacket.Attribute] = []
                while true {
                    spaces()
                    guard i < b.count else { throw .malformed("unterminated <\(n)>") }
                    if b[i] == UInt8(ascii: ">") || has("/>", at: i) { break }
                    let a = try name()
                    spaces()
                    guard i < b.count, b[i] == UInt8(ascii: "=") else {
                        throw .malformed("attribute \(a) has no value")
                    }
                    i += 1
                    spaces()
                    guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                        throw .malformed("attribute \(a) is not quoted")
                    }
                    let quote = b[i]
                    let valueStart = i + 1
                    guard let end = b[valueStart...].firstIndex(of: quote) else {
                        throw .malformed("attribute \(a) is unterminated")
                    }
                    guard !b[valueStart..<end].contains(UInt8(ascii: "<")) else {
                        throw .malformed("'<' in attribute \(a)")
                    }
                    attributes.append(
                        .init(name: a, value: String(decoding: b[valueStart..<end], as: UTF8.self), quote: quote))
                    i = end + 1
                }
                let selfClosing = b[i] == UInt8(ascii: "/")
                i += selfClosing ? 2 : 1
                if !selfClosing {
                    open.append(n)
                    guard open.count <= Self.maxDepth else {
                        throw .malformed("nested more than \(Self.maxDepth) deep")
                    }
                }
                out.append(.start(name: n, attributes: attributes, selfClosing: selfClosing))
            }
        }
        guard open.isEmpty else { throw .malformed("<\(open.last!)> is never closed") }
        return out
    }
}
