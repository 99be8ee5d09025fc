/// PNG's iTXt chunk as XMP uses it (keyword "XML:com.adobe.xmp", uncompressed, as the XMP
/// specification asks): read and made.
enum PNGText {
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    /// The packet of an iTXt chunk's data, or nil when it is another keyword, compressed, or cut.
    static func xmp(inITXt data: [UInt8]) -> [UInt8]? {
        // keyword\0, compression flag, method, language\0, translated keyword\0, text.
        let k = xmpKeyword.count
        guard data.count > k + 2, Array(data[..<k]) == xmpKeyword, data[k] == 0, data[k + 1] == 0 else { return nil }
        guard let language = data[(k + 3)...].firstIndex(of: 0),
            let translated = data[(language + 1)...].firstIndex(of: 0)
        else { return nil }
        let text = Array(data[(translated + 1)...])
        return text.isEmpty ? nil : text
    }

    /// The data of an uncompressed iTXt chunk holding `packet`.
    static func itxt(xmp packet: [UInt8]) -> [UInt8] { xmpKeyword + [0, 0, 0, 0, 0] + packet }
}
