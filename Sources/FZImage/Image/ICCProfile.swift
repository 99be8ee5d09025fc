/// An ICC profile's header and description, read with bounds checks (ICC.1:2010 7.2,
/// 9.2.41 `desc`: `desc` text type in v2, `mluc` in v4). What `info` reports; the bytes
/// themselves are carried unchanged.
public struct ICCProfile: Hashable, Sendable {
    /// The profile's size in bytes (the header's, which must match the data).
    public let size: Int
    /// `RGB `, `CMYK`, `GRAY`... (trailing spaces removed).
    public let colorSpace: String
    /// `mntr` (display), `prtr` (output), `scnr` (input)...
    public let deviceClass: String
    /// `2.1`, `4.3`...
    public let version: String
    /// The `desc` tag's text (first record of an `mluc`), cut to 200 characters.
    public let description: String?

    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 132, Self.fourCC(bytes, 36) == "acsp", let declared = Self.uint32(bytes, 0),
            Int(declared) == bytes.count
        else {
            return nil
        }
        size = bytes.count
        colorSpace = Self.fourCC(bytes, 16).trimmingSpacesAtEnd
        deviceClass = Self.fourCC(bytes, 12).trimmingSpacesAtEnd
        version = "\(bytes[8]).\(bytes[9] >> 4)"
        var text: String?
        if let count = Self.uint32(bytes, 128) {
            for k in 0..<min(Int(count), 256) {
                let entry = 132 + 12 * k
                guard Self.fourCC(bytes, entry) == "desc", let offset = Self.uint32(bytes, entry + 4),
                    let length = Self.uint32(bytes, entry + 8),
                    Int(offset) + Int(length) <= bytes.count, length >= 12
                else { continue }
                text = Self.text(bytes[Int(offset)..<Int(offset) + Int(length)])
                break
            }
        }
        description = text
    }

    /// A `desc` (ASCII) or `mluc` (UTF-16BE, first record) tag's text.
    package static func text(_ tag: ArraySlice<UInt8>) -> String? {
        let s = tag.startIndex
        switch fourCC(Array(tag), 0) {
        case "desc":
            guard let n = uint32(Array(tag.prefix(12)), 8), n > 0, s + 12 + Int(n) <= tag.endIndex else { return nil }
            let ascii = tag[(s + 12)..<(s + 12 + Int(n))].prefix { $0 != 0 }
            return clean(String(decoding: ascii, as: UTF8.self))
        case "mluc":
            let t = Array(tag)
            guard let records = uint32(t, 8), records > 0, let length = uint32(t, 20), let offset = uint32(t, 24),
                Int(offset) + Int(length) <= t.count
            else { return nil }
            var units: [UInt16] = []
            var i = Int(offset)
            while i + 1 < Int(offset) + Int(length) {
                units.append(UInt16(t[i]) << 8 | UInt16(t[i + 1]))
                i += 2
            }
            return clean(String(decoding: units, as: UTF16.self))
        default:
            return nil
        }
    }

    /// One line, printable, at most 200 characters.
    package static func clean(_ s: String) -> String? {
        let t = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200).map(Character.init))
        return t.isEmpty ? nil : t
    }

    package static func uint32(_ b: [UInt8], _ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    package static func fourCC(_ b: [UInt8], _ at: Int) -> String {
        guard at >= 0, at + 4 <= b.count else { return "" }
        return String(decoding: b[at..<at + 4].map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
    }
}

extension String {
    package var trimmingSpacesAtEnd: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
