import Geometry

/// An XMP packet (RDF/XML) split into tokens so an output's copy can be edited: the
/// orientation set to 1, the pixel dimensions changed, the location properties taken out.
/// Everything else is written back byte for byte.
///
/// Not a full XML parser, on purpose: a bounded tokenizer (tags, attributes, text,
/// comments, CDATA, processing instructions) that checks the tags nest and refuses what
/// XMP never has (a DOCTYPE, so no entity can expand). Namespace prefixes are resolved from
/// every `xmlns:` declaration in the packet (XMP writers declare each prefix once, with
/// one meaning), so `exif:GPSLatitude` is found under any prefix.
public struct XMPPacket: Hashable, Sendable {
    /// The largest packet read.
    public static let maxBytes = 1 << 22

    package enum Token: Hashable, Sendable {
        /// Text, comments, CDATA, processing instructions: written back as they were.
        case raw([UInt8])
        case start(name: String, attributes: [Attribute], selfClosing: Bool)
        case end(name: String)
    }

    package struct Attribute: Hashable, Sendable {
        var name: String
        var value: String
        /// The quote it was written with.
        var quote: UInt8
    }

    package var tokens: [Token]
    /// Prefix to namespace URI, from every declaration.
    package let namespaces: [String: String]

    package static let tiff = "http://ns.adobe.com/tiff/1.0/", exif = "http://ns.adobe.com/exif/1.0/"
    package static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    package static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    package static let iptcExt = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"

    /// Parses a packet.
    /// - Throws: `XMPError` for what is not well-formed XML with an rdf:RDF element.
    public init(parsing bytes: [UInt8]) throws(XMPError) {
        guard bytes.count <= Self.maxBytes else { throw .malformed("larger than \(Self.maxBytes >> 20) MiB") }
        var scanner = XMPScanner(bytes)
        tokens = try scanner.tokens()
        var ns: [String: String] = [:]
        var sawRDF = false
        for case .start(let name, let attributes, _) in tokens {
            for a in attributes where a.name.hasPrefix("xmlns:") { ns[String(a.name.dropFirst(6))] = a.value }
            if name.hasSuffix(":RDF") { sawRDF = true }
        }
        guard sawRDF else { throw .malformed("no rdf:RDF element") }
        namespaces = ns
    }

    /// The namespace and local name of a qualified name.
    package func resolve(_ name: String) -> (String, Substring)? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        guard let uri = namespaces[String(name[..<colon])] else { return nil }
        return (uri, name[name.index(after: colon)...])
    }

    /// Whether a property says where the picture was taken.
    package func isLocation(_ name: String) -> Bool {
        guard let (uri, local) = resolve(name) else { return false }
        switch uri {
        case Self.exif: return local.hasPrefix("GPS")
        case Self.photoshop: return ["City", "State", "Country"].contains(local)
        case Self.iptcCore: return ["Location", "CountryCode"].contains(local)
        case Self.iptcExt: return ["LocationCreated", "LocationShown"].contains(local)
        default: return false
        }
    }

    /// The new value of a property the output changes, or nil.
    package func replacement(_ name: String, size: PixelSize, upright: Bool) -> String? {
        guard let (uri, local) = resolve(name) else { return nil }
        switch (uri, local) {
        case (Self.tiff, "Orientation"): return upright ? "1" : nil
        case (Self.tiff, "ImageWidth"), (Self.exif, "PixelXDimension"): return String(size.width)
        case (Self.tiff, "ImageLength"), (Self.exif, "PixelYDimension"): return String(size.height)
        default: return nil
        }
    }

    /// Whether a location property is present.
    public var hasLocation: Bool {
        tokens.contains { token in
            guard case .start(let name, let attributes, _) = token else { return false }
            return isLocation(name) || attributes.contains { isLocation($0.name) }
        }
    }

    /// The packet for an output of `size` pixels.
    public func rewritten(size: PixelSize, upright: Bool, location: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(tokens.count * 16)
        var skipDepth = 0  // > 0 inside a dropped element
        var replaceNext: String?  // the text of an element whose value changes
        for token in tokens {
            switch token {
            case .raw(let bytes):
                guard skipDepth == 0 else { continue }
                if let r = replaceNext, !bytes.starts(with: Array("<".utf8)) {
                    out += Array(r.utf8)
                    replaceNext = nil
                } else {
                    out += bytes
                }
            case .start(let name, let attributes, let selfClosing):
                if skipDepth > 0 {
                    if !selfClosing { skipDepth += 1 }
                    continue
                }
                if !location && isLocation(name) {
                    if !selfClosing { skipDepth = 1 }
                    continue
                }
                replaceNext = selfClosing ? nil : replacement(name, size: size, upright: upright)
                out += Array("<\(name)".utf8)
                for a in attributes where location || !isLocation(a.name) {
                    let value = replacement(a.name, size: size, upright: upright) ?? a.value
                    out += Array(" \(a.name)=".utf8) + [a.quote] + Array(value.utf8) + [a.quote]
                }
                out += Array((selfClosing ? "/>" : ">").utf8)
            case .end(let name):
                if skipDepth > 0 {
                    skipDepth -= 1
                    continue
                }
                if let r = replaceNext { out += Array(r.utf8) }  // an empty element gets its value
                replaceNext = nil
                out += Array("</\(name)>".utf8)
            }
        }
        return out
    }
}

/// Why an XMP packet was left out.
public enum XMPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not well-formed, or not XMP.
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let why): return "XMP packet is malformed (\(why))"
        }
    }
}
