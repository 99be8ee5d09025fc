/// The little XML S3 answers with (list results, errors, multipart upload IDs, STS's
/// credentials): elements found by name, their text unescaped. No DTDs, no namespaces
/// beyond ignoring them, no attributes read: S3's responses need none, and a hostile body
/// costs one pass over bytes already bounded by the request's `maxBodyBytes`.
struct S3XML {
    let text: Substring

    init(_ bytes: [UInt8]) { text = Substring(String(decoding: bytes, as: UTF8.self)) }
    init(_ text: Substring) { self.text = text }

    /// The inner text of each `<name>...</name>` (or `<name attr=..>`), in order, not unescaped.
    func blocks(_ name: String) -> [S3XML] {
        var found: [S3XML] = []
        var rest = text[...]
        let close = "</\(name)>"
        while let open = rest.firstRange(of: "<\(name)") {
            let after = rest[open.upperBound...]
            guard let first = after.first, first == ">" || first == " " || first == "/" else {
                rest = after
                continue
            }
            guard let end = after.firstIndex(of: ">") else { break }
            if end > after.startIndex, after[after.index(before: end)] == "/" {  // <name/>: empty.
                found.append(S3XML(after[end..<end]))
                rest = after[after.index(after: end)...]
                continue
            }
            let body = after[after.index(after: end)...]
            guard let stop = body.firstRange(of: close) else { break }
            found.append(S3XML(body[..<stop.lowerBound]))
            rest = body[stop.upperBound...]
        }
        return found
    }

    /// The unescaped text of the first `<name>` element, or nil.
    func value(_ name: String) -> String? { blocks(name).first.map { Self.unescape($0.text) } }

    /// All `<name>` elements' unescaped texts.
    func values(_ name: String) -> [String] { blocks(name).map { Self.unescape($0.text) } }

    /// XML's five entities and numeric character references.
    static func unescape(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                out += rest[amp...]
                return out
            }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += rest[amp...semi]
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
