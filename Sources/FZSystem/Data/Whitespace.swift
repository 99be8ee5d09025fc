extension String {
    /// Without leading and trailing white space, as `Character.isWhitespace` has it (a value
    /// from a shell script, an XMP packet's text). Trimmed as bytes where what is left begins
    /// and ends in ASCII: an XMP packet's padding is kilobytes of ASCII spaces in phone files,
    /// and breaking it into characters was a visible part of a gain-map probe. The characters'
    /// own test (Unicode's other spaces, a mark joined to a space) decides only where what is
    /// left begins or ends outside ASCII.
    package var trimmingWhitespace: String {
        let bytes = Array(utf8)
        let space: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        var start = 0
        var end = bytes.count
        while start < end, space(bytes[start]) { start += 1 }
        while end > start, space(bytes[end - 1]) { end -= 1 }
        if start == end { return "" }
        if bytes[start] < 0x80, bytes[end - 1] < 0x80 { return String(decoding: bytes[start..<end], as: UTF8.self) }
        return String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}
